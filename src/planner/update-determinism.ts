/**
 * Flink's check of non-deterministic updates under table.optimizer.non-deterministic-update.strategy
 * = TRY_RESOLVE (StreamNonDeterministicUpdatePlanVisitor), as far as the joins joinstep plans can
 * meet it: a metadata column of a changelog source that a retraction must find again.
 *
 * The visitor walks from the sink down, carrying the columns that must be deterministic:
 *   sink:          none when its input is insert-only; its primary key when it has one and no
 *                  SinkUpsertMaterializer; else every column (visitSink). The projection maps them
 *                  onto the join's output (visitCalc).
 *   each input:    nothing when one of the input's upsert keys covers the set
 *                  (requireDeterminismExcludeUpsertKey); a metadata column is never in a key (a
 *                  primary key is physical), so a set holding one is never dropped, and that rule
 *                  changes no verdict here.
 *   regular join:  an input that sends updates passes on its own share of the set when it has a
 *                  unique key, or its whole row (it is retracted by row) when it has none; an
 *                  insert-only input, nothing (visitJoinChild). Semi / anti joins alike.
 *   lookup join:   its left share (planner/lookup-determinism.ts).
 *   source scan:   a metadata column in the set fails the plan when the source sends updates
 *                  without ChangelogNormalize (visitTableSourceScan).
 * Non-deterministic functions (NOW(), ...) in an updating pipeline are the visitor's other errors;
 * they are not modelled here.
 */
import { fail } from './errors.js';
import type { InputPlan, Plan, TableDef } from './plan.js';
import { columnsOf } from './texpr-util.js';

/** KafkaDynamicSource.listReadableMetadata: the connector's keys in its ReadableMetadata order. */
const KAFKA_METADATA_ORDER = ['topic', 'partition', 'headers', 'leader-epoch', 'offset', 'timestamp', 'timestamp-type'];

const insertOnly = (mode: readonly string[]): boolean => mode.every((k) => k === '+I');

/** Regular and semi / anti joins under TRY_RESOLVE: rejects what the visitor rejects at their sources. */
export function rejectJoinInputMetadata(plan: Plan, cdcEventsDuplicate: boolean): void {
  if (plan.family !== 'regular' && plan.family !== 'semi' && plan.family !== 'anti') return;
  if (plan.alwaysFalse === true || insertOnly(plan.output.changelogMode)) return;
  const sink = plan.sink;
  const keyed = sink?.primaryKey !== undefined && sink.primaryKey.length > 0 && !sink.upsertMaterialize;
  const wanted = keyed ? (sink.primaryKey ?? []).map((i) => plan.project[i]) : plan.project;
  const required = new Set<number>();
  for (const e of wanted) if (e !== undefined) columnsOf(e, required);
  const leftWidth = plan.inputs[0].columns.length;
  // the join's input rows hold only what it reads (Flink prunes the rest below the exchange)
  const read = new Set<number>([...plan.keys.left, ...plan.keys.right.map((c) => c + leftWidth)]);
  for (const e of [...plan.project, plan.residual, plan.postFilter]) if (e !== undefined) columnsOf(e, read);
  plan.inputs.forEach((input, side) => {
    if (insertOnly(input.changelogMode)) return;
    const table = plan.tables.find((t) => t.name === input.table);
    if (table === undefined) return;
    const mine = (cols: Iterable<number>) => [...cols].filter((c) => (side === 0 ? c < leftWidth : c >= leftWidth)).map((c) => (side === 0 ? c : c - leftWidth));
    // no unique key: the input is retracted by its whole (pruned) row
    const share = input.stateLayout?.kind === 'InputSideHasNoUniqueKey' ? mine(read) : mine(required);
    rejectChangelogMetadata(input, table, share, cdcEventsDuplicate);
  });
}

/**
 * visitTableSourceScan: the needed input columns, traced through the input's projection (and
 * computed columns) to the source table, must hold no metadata column when the source sends
 * updates without a ChangelogNormalize (DynamicSourceUtils.changelogNormalizeEnabled: an upsert
 * source, or cdc-events-duplicate on a keyed one).
 */
export function rejectChangelogMetadata(input: InputPlan, table: TableDef, needed: readonly number[], cdcEventsDuplicate: boolean): void {
  if (table.nature !== 'changelog') return;
  if (cdcEventsDuplicate && table.primaryKey !== undefined && table.primaryKey.length > 0) return;
  const source = new Set<number>();
  for (const c of needed) {
    const e = input.project?.[c];
    if (input.project === undefined) source.add(c);
    else if (e !== undefined) columnsOf(e, source);
  }
  // a computed column is a Calc above the scan: the scan is asked for what it reads
  for (const i of [...source]) {
    const expr = table.columns[i]?.expr;
    if (expr !== undefined) columnsOf(expr, source);
  }
  // the scan reads metadata in the order the source lists it (DynamicSourceUtils), not as declared
  const rank = (key: string | undefined) => {
    const i = KAFKA_METADATA_ORDER.indexOf(key ?? '');
    return i < 0 ? KAFKA_METADATA_ORDER.length : i;
  };
  const metadata = table.columns.filter((c, i) => c.kind === 'metadata' && source.has(i)).sort((a, b) => rank(a.metadataKey) - rank(b.metadataKey));
  const first = metadata[0];
  if (first === undefined) return;
  fail(`The metadata column(s): '${metadata.map((c) => c.name).join(', ')}' in cdc source may cause wrong result or error on downstream operators, please consider removing these columns or use a non-cdc source that only has insert messages.`,
    first.span,
    `with table.optimizer.non-deterministic-update.strategy = TRY_RESOLVE, Flink cannot make ${table.name}'s metadata deterministic across its updates: leave the column out of the query, or read it from an insert-only source`);
}
