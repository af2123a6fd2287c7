/**
 * Whether a lookup join's updating input carries UPDATE_BEFORE, in FlinkChangelogModeInferenceProgram's
 * terms. The lookup join is transparent to the update kind its consumer asks for, so the sink decides:
 *
 *   the root asks ONLY_UPDATE_AFTER when
 *     - the sink is an upsert sink (upsert-kafka, jdbc with a key, blackhole) and, if it has a primary
 *       key, one of the query's upsert keys is exactly that key (inferSinkRequiredTraits); a SELECT
 *       (collect sink), print and CDC-format sinks ask BEFORE_AND_AFTER;
 *     - and no Calc on the way filters on a column outside the upsert key (isNonUpsertKeyCondition:
 *       a WHERE after the join, or the input's own filter where it is a Calc);
 *   then, at the input:
 *     - a CDC source gets DropUpdateBefore: its -U rows never reach the join;
 *     - ChangelogNormalize after an upsert source generates no -U: +I first, then +U alone, -D in full;
 *     - from 2.1 (the DeleteKind step, ChangelogNormalizeRequirementResolver) the ChangelogNormalize
 *       is left out altogether unless a filter runs inside it, cdc-events-duplicate is on or a
 *       metadata column is read: the join then sees the source's rows as the connector decodes
 *       them, every value a +I and a tombstone a -D carrying only the key (upsert-kafka declares full deletes, so nothing asks for the
 *       normalize back).
 */
import type { InsertStmt } from '../sql/ast.js';
import type { RowKind } from '../values/types.js';
import type { EngineConfig, FlinkVersion, InputPlan, TableDef, TExpr } from './plan.js';
import { takesUpserts } from './update-kind.js';
import { columnsOf } from './texpr-util.js';

export interface UpdateKindDecision {
  readonly left: InputPlan;
  readonly note?: string;
}

export interface LookupUpdateKindInput {
  readonly stmt: { readonly kind: 'insert'; readonly target: InsertStmt['target'] } | { readonly kind: 'query' };
  readonly tables: ReadonlyMap<string, TableDef>;
  readonly left: InputPlan;
  /** The query's upsert keys after the projection (indexes into the output). */
  readonly outputKeys: readonly (readonly number[])[];
  /** The join's upsert keys before the projection (indexes into the joined row). */
  readonly joinedKeys: readonly (readonly number[])[];
  readonly postFilter: TExpr | undefined;
  readonly version: FlinkVersion;
  readonly config: EngineConfig;
}

export function lookupInputUpdateKind(q: LookupUpdateKindInput): UpdateKindDecision {
  const left = q.left;
  if (!left.changelogMode.includes('-U')) return { left };
  const def = q.tables.get(left.table);
  if (def === undefined || !onlyUpdateAfter(q, def)) return { left };
  const withoutUb: readonly RowKind[] = left.changelogMode.filter((k) => k !== '-U');
  if (left.changelogNormalize === undefined) {
    if (left.deduplicate !== undefined) return { left: { ...left, changelogMode: withoutUb } };
    return {
      left: { ...left, changelogMode: withoutUb, dropUpdateBefore: true },
      note: `DropUpdateBefore on ${def.name}: the sink takes upserts, so the lookup join's input needs no -U rows (FlinkChangelogModeInferenceProgram)`,
    };
  }
  const metadataRead = def.columns.some((c) => c.kind === 'metadata');
  const normalizeRequired = q.version < '2.1' || left.filter !== undefined || q.config.cdcEventsDuplicate || metadataRead;
  if (normalizeRequired) {
    return {
      left: { ...left, changelogMode: withoutUb },
      note: `ChangelogNormalize on ${def.name} sends no -U: the sink takes upserts, so only +U reaches the lookup join (FlinkChangelogModeInferenceProgram)`,
    };
  }
  const { changelogNormalize: normalize, ...rest } = left;
  return {
    left: { ...rest, rawUpsert: { key: normalize.key }, changelogMode: ['+I', '+U', '-D'] },
    note: `no ChangelogNormalize on ${def.name}: the sink takes upserts and nothing needs the normalized rows, so Flink ${q.version} leaves it out (ChangelogNormalizeRequirementResolver); the lookup join sees every value as +I and a tombstone as -D with only its key`,
  };
}

function onlyUpdateAfter(q: LookupUpdateKindInput, source: TableDef): boolean {
  if (q.stmt.kind !== 'insert') return false;
  const sink = q.tables.get(q.stmt.target.value);
  if (sink === undefined || !takesUpserts(sink)) return false;
  const pk = sink.primaryKey;
  if (pk !== undefined && pk.length > 0 && !q.outputKeys.some((k) => sameColumns(k, pk))) return false;
  if (q.postFilter !== undefined && !withinKey(q.postFilter, q.joinedKeys)) return false;
  // the input's filter is a Calc over the source (CDC) or over the normalize (2.0); from 2.1 it runs
  // inside the normalize, which then stays
  const filterIsCalc = q.left.changelogNormalize === undefined || q.version < '2.1';
  const sourceKeys = source.primaryKey !== undefined ? [source.primaryKey] : [];
  if (filterIsCalc && q.left.filter !== undefined && !withinKey(q.left.filter, sourceKeys)) return false;
  return true;
}

function sameColumns(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((c) => b.includes(c));
}

function withinKey(e: TExpr, keys: readonly (readonly number[])[]): boolean {
  const cols = new Set<number>();
  columnsOf(e, cols);
  return keys.some((k) => [...cols].every((c) => k.includes(c)));
}
