/**
 * One query (SELECT or INSERT INTO ... SELECT) → Plan: finds the join, hands it to the family
 * planner (regular / interval, temporal / lookup, semi / anti), then types the output and the sink.
 */
import type { Expr, FromItem, InsertStmt, QueryStmt, Select } from '../sql/ast.js';
import { fail } from './errors.js';
import { stateTtls } from './hints.js';
import { resolveSelect, resolveTableRef, type Catalog, type InputSource } from './input.js';
import type { JoinCtx, JoinDraft, PlannerOptions } from './join-common.js';
import { planSemiJoin, subqueryConjunct } from './join-semi.js';
import { planStreamJoin } from './join-stream.js';
import { planTemporalJoin } from './join-temporal.js';
import { joinUniqueKeys, outputChangelog, projectKeys, projectSelect } from './output.js';
import type { InputPlan, JoinType, Plan, TExpr } from './plan.js';
import type { RowKind } from '../values/types.js';
import { qualifiedName } from './connector.js';
import { resolveKeyedLookup } from './lookup-determinism.js';
import { lookupInputUpdateKind } from './lookup-update-kind.js';
import { planSink } from './sink.js';
import { decideUpdateKind } from './update-kind.js';
import { keysAfterPruning, sourceColumnsRead, type JoinedReads } from './input-columns.js';
import { stateLayout, withPlan, type InputPlanDraft } from './input-plan.js';
import { rejectJoinInputMetadata } from './update-determinism.js';
import { keepVersionedNormalize } from './versioned-normalize.js';
import { versionNotes } from './version-rules.js';

const JOIN_TYPES: Record<string, JoinType> = { INNER: 'inner', LEFT: 'left', RIGHT: 'right', FULL: 'full', CROSS: 'inner', COMMA: 'inner' };

function splitAnd(e: Expr | undefined): Expr[] {
  if (!e) return [];
  if (e.kind === 'binary' && e.op === 'AND') return [...splitAnd(e.left), ...splitAnd(e.right)];
  return [e];
}

function resolveFrom(cat: Catalog, item: FromItem): InputSource {
  if (item.kind === 'table') return resolveTableRef(cat, item);
  if (item.kind === 'subquery') {
    const src = resolveSelect(cat, item.query);
    return item.alias ? { ...src, alias: item.alias.value } : src;
  }
  return fail('joinstep debugs one join of two inputs at a time', item.keywordSpan, 'split the query: join two tables per scenario');
}

function planJoinDraft(cat: Catalog, options: PlannerOptions, q: Select): JoinDraft {
  if (q.groupBy || q.having) fail('joinstep debugs joins: GROUP BY / HAVING is not supported', q, 'remove the aggregation; joinstep shows the join\'s own changelog');
  if (q.distinct) fail('joinstep debugs joins: SELECT DISTINCT is not supported', q);
  const where = splitAnd(q.where);
  const subs = where.map(subqueryConjunct);
  if (q.from.kind === 'join') {
    const sub = where.find((_, i) => subs[i] !== undefined);
    if (sub) fail('joinstep debugs one join at a time: this query has a JOIN and a subquery join', sub, 'move the IN / EXISTS subquery into its own scenario');
    const left = resolveFrom(cat, q.from.left);
    const right = resolveFrom(cat, q.from.right);
    if (left.forSystemTime) fail("FOR SYSTEM_TIME AS OF belongs to the right side of the join (the versioned or lookup table)", left.forSystemTime);
    const ctx: JoinCtx = {
      cat, options, select: q, left, right,
      joinType: JOIN_TYPES[q.from.joinType] ?? 'inner',
      ...(q.from.on ? { on: q.from.on } : {}),
      keywordSpan: q.from.keywordSpan,
    };
    return right.forSystemTime ? planTemporalJoin(ctx, right.forSystemTime) : planStreamJoin(ctx);
  }
  const left = resolveFrom(cat, q.from);
  const found = subs.filter((s) => s !== undefined);
  if (found.length === 0) {
    fail(`joinstep debugs joins, but this query reads only '${left.refName}' and joins nothing`, q.from,
      'join a second table (JOIN ... ON ...), or write a semi / anti join: WHERE k [NOT] IN (SELECT ...) / [NOT] EXISTS (...)');
  }
  if (found.length > 1) {
    const second = where.filter((_, i) => subs[i] !== undefined)[1] as Expr;
    fail('joinstep debugs one join at a time: this query has two subquery joins', second, 'keep one IN / EXISTS subquery per scenario');
  }
  const rest = where.filter((_, i) => subs[i] === undefined);
  return planSemiJoin(cat, options, q, left, found[0] as NonNullable<(typeof found)[number]>, rest);
}

/**
 * An interval join keeps both inputs' rowtime attributes in its output. Writing more than one of
 * them into a table is rejected by Flink's RelTimeIndicatorConverter (the sink could not tell which
 * is the event time); a CAST of all but one makes them regular timestamps.
 */
function checkOneRowtimeIntoSink(stmt: InsertStmt, draft: JoinDraft, exprs: readonly TExpr[], names: readonly string[], l: InputPlan, r: InputPlan): void {
  const rowtimes = new Set<number>();
  if (draft.family === 'interval' && l.timeAttr?.kind === 'rowtime' && r.timeAttr !== undefined) {
    // a FULL join on FALSE is a regular join, whose output time columns are plain timestamps
    if (draft.interval?.alwaysFalse === true && draft.joinType === 'full') return;
    rowtimes.add(l.timeAttr.index).add(draft.leftWidth + r.timeAttr.index);
  } else if (draft.family === 'regular' && draft.alwaysFalse === true) {
    // a regular join materializes its inputs' time attributes, but one Calcite prunes (INNER to an
    // empty Values, LEFT / RIGHT to a Calc over the preserved side) keeps the join's row type with
    // them: the preserved side's columns, the padding NULLs typed as the other's
    l.columns.forEach((c, i) => { if (c.timeAttr === 'rowtime') rowtimes.add(i); });
    r.columns.forEach((c, i) => { if (c.timeAttr === 'rowtime') rowtimes.add(draft.leftWidth + i); });
  } else return;
  const named = exprs.flatMap((e, i) => (e.k === 'col' && rowtimes.has(e.index) ? [names[i] ?? ''] : []));
  if (named.length < 2) return;
  fail(`The query contains more than one rowtime attribute column [${named.join(', ')}] for writing into table '${qualifiedName(stmt.target.value)}'. Please select the column that should be used as the event-time timestamp for the table sink by casting all other columns to regular TIMESTAMP or TIMESTAMP_LTZ.`,
    stmt.target, draft.family === 'interval'
      ? `an interval join's output keeps both rowtime attributes; in the SELECT list, CAST all of them but one to TIMESTAMP(3)`
      : `the join's condition is always false, so Flink plans no join and its output keeps both inputs' rowtime attributes; in the SELECT list, CAST all of them but one to TIMESTAMP(3)`);
}

export function planQuery(cat: Catalog, options: PlannerOptions, stmt: InsertStmt | QueryStmt): Plan {
  const q = stmt.query;
  const draft = planJoinDraft(cat, options, q);
  const proj = projectSelect(q, draft.outScope);
  const reads = { exprs: [...proj.exprs, ...(draft.residual ? [draft.residual] : []), ...(draft.postFilter ? [draft.postFilter] : [])], leftWidth: draft.leftWidth };
  const pruned = draft.family === 'regular' || draft.family === 'semi' || draft.family === 'anti';
  const drafted = pruned
    ? draft.inputs.map((d, i) => prunedInput(d, i as 0 | 1, i === 0 ? draft.keys.left : draft.keys.right, reads)) as [InputPlanDraft, InputPlanDraft]
    : draft.family === 'temporal'
      ? [draft.inputs[0], keepVersionedNormalize(draft.inputs[1], cat.tables.get(draft.inputs[1].plan.table), draft.keys.right, reads, options.flinkVersion)] as [InputPlanDraft, InputPlanDraft]
      : draft.inputs;
  const never = draft.alwaysFalse === true;
  // An interval FULL join whose condition folds to FALSE is planned by Flink as a regular FULL
  // join on FALSE (join-stream.ts): its changelog and the sink's view of it are a regular join's.
  const outputFamily = draft.family === 'interval' && draft.interval?.alwaysFalse === true && draft.joinType === 'full' ? 'regular' : draft.family;
  const changelogMode = never ? noJoinChangelog(draft.joinType, drafted) : outputChangelog(outputFamily, draft.joinType, drafted[0].plan.changelogMode, drafted[1].plan.changelogMode);
  const notes = [...draft.notes, ...drafted[0].notes, ...drafted[1].notes];
  // the temporal join hashes both inputs on the join key too (Flink's plan: Exchange hash[key] under TemporalJoin)
  const shuffled = !never && (draft.family === 'regular' || draft.family === 'semi' || draft.family === 'anti' || draft.family === 'temporal');
  const [leftKeys, rightKeys] = shuffled
    ? [keysThroughShuffle(drafted[0].plan, draft.keys.left, notes), keysThroughShuffle(drafted[1].plan, draft.keys.right, notes)]
    : [drafted[0].plan.upsertKeys, drafted[1].plan.upsertKeys];
  const joinedKeys = never
    ? noJoinKeys(draft.joinType, draft.leftWidth, leftKeys, rightKeys)
    : joinUniqueKeys(draft.family, draft.joinType, draft.leftWidth,
      { keys: leftKeys, joinKey: draft.keys.left },
      { keys: rightKeys, joinKey: draft.keys.right });
  const upsertKeys = changelogMode.every((k) => k === '+I') ? [] : projectKeys(joinedKeys, proj.exprs);
  if (q.hints.some((h) => h.name === 'STATE_TTL') && (draft.family === 'interval' || draft.family === 'temporal' || draft.family === 'lookup')) {
    // the names are still validated, as Flink's hint resolver does for every query
    if (q.from.kind === 'join') stateTtls(q.hints, [resolveFrom(cat, q.from.left), resolveFrom(cat, q.from.right)], 0);
    notes.push(`the STATE_TTL hint applies to regular joins (and aggregations); the ${draft.family} join ignores it`);
  }
  // a pruned regular join's updates are refused by an append-only sink first (changelog
  // inference), its two rowtimes later; an interval join's output is insert-only
  const rowtimeCheck = () => (stmt.kind === 'insert' ? checkOneRowtimeIntoSink(stmt, draft, proj.exprs, proj.names, drafted[0].plan, drafted[1].plan) : undefined);
  if (draft.family !== 'regular') rowtimeCheck();
  const sinkDecision = stmt.kind === 'insert'
    ? planSink(stmt, cat.tables, { sources: scannedTables(cat, draft.family, [drafted[0].plan.table, drafted[1].plan.table]), names: proj.names, types: proj.types, changelogMode, upsertKeys, family: outputFamily, joinType: draft.joinType },
      options.flinkVersion, options.config.sinkUpsertMaterialize, options.config.sinkRequireOnConflict ?? true)
    : undefined;
  if (draft.family === 'regular') rowtimeCheck();
  const sinkDef = stmt.kind === 'insert' ? cat.tables.get(stmt.target.value) : undefined;
  const updateKind = decideUpdateKind({
    family: draft.family, joinType: draft.joinType, inputs: drafted,
    joinKeys: never ? [[], []] : [draft.keys.left, draft.keys.right], leftWidth: draft.leftWidth,
    ...(never ? { alwaysFalse: true } : {}),
    project: proj.exprs,
    ...(draft.residual ? { residual: draft.residual } : {}),
    ...(draft.postFilter ? { postFilter: draft.postFilter } : {}),
    outputMode: changelogMode, outputUpsertKeys: upsertKeys,
    ...(sinkDecision && sinkDef ? { sink: { plan: sinkDecision.sink, def: sinkDef } } : {}),
    tables: cat.tables, version: options.flinkVersion, cdcEventsDuplicate: options.config.cdcEventsDuplicate,
  });
  const [l, r] = updateKind.inputs.map((d, i) => {
    const n = d.plan.changelogNormalize;
    if (n === undefined || draft.family === 'temporal' || draft.family === 'lookup' || draft.family === 'interval') return d;
    const columns = sourceColumnsRead(d.plan, i as 0 | 1, i === 0 ? draft.keys.left : draft.keys.right, reads, n.key);
    return withPlan(d, { changelogNormalize: { key: n.key, columns } });
  }) as [InputPlanDraft, InputPlanDraft];
  // a ChangelogNormalize the update kinds removed takes its note along
  const kept = new Set([...l.notes, ...r.notes]);
  const dropped = [...drafted[0].notes, ...drafted[1].notes].filter((n) => !kept.has(n));
  for (const n of dropped) notes.splice(notes.indexOf(n), 1);
  notes.push(...updateKind.notes);
  if (sinkDecision) notes.push(...sinkDecision.notes);
  let lookup = draft.lookup;
  let leftPlan = l.plan;
  if (lookup?.materialize === true) {
    const rightPk = cat.tables.get(r.plan.table)?.primaryKey;
    const decided = resolveKeyedLookup(lookup, l.plan, proj.exprs, draft.postFilter, sinkDecision?.sink, rightPk, cat.tables.get(l.plan.table), options.config.cdcEventsDuplicate);
    ({ lookup, left: leftPlan } = decided);
    if (decided.omitted) {
      const at = notes.findIndex((n) => n.includes('KeyedLookupJoinWrapper'));
      if (at >= 0) notes.splice(at, 1, 'table.optimizer.non-deterministic-update.strategy = TRY_RESOLVE, but the sink needs no column of the lookup table other than its looked-up key to be deterministic: Flink keeps the plain lookup runner (StreamNonDeterministicUpdatePlanVisitor)');
    }
  }
  let outputMode = updateKind.outputMode;
  if (draft.family === 'lookup') {
    const decided = lookupInputUpdateKind({
      stmt: stmt.kind === 'insert' ? { kind: 'insert', target: stmt.target } : { kind: 'query' },
      tables: cat.tables, left: leftPlan, outputKeys: upsertKeys, joinedKeys, postFilter: draft.postFilter,
      version: options.flinkVersion, config: options.config,
    });
    if (decided.note !== undefined) {
      leftPlan = decided.left;
      outputMode = outputChangelog(draft.family, draft.joinType, leftPlan.changelogMode, r.plan.changelogMode);
      const at = notes.findIndex((n) => n.startsWith(`ChangelogNormalize on ${leftPlan.table} `));
      if (at >= 0) notes.splice(at, 1);
      notes.push(decided.note);
    }
  }
  // every declared table: events may address any of them, not only the join's inputs
  const tables = [...cat.tables.values()];
  const plan: Plan = {
    family: draft.family,
    joinType: draft.joinType,
    tables,
    inputs: [leftPlan, r.plan],
    keys: draft.keys,
    ...(draft.residual ? { residual: draft.residual } : {}),
    ...(draft.interval ? { interval: draft.interval } : {}),
    ...(lookup ? { lookup } : {}),
    project: proj.exprs,
    ...(draft.postFilter ? { postFilter: draft.postFilter } : {}),
    ...(never ? { alwaysFalse: true } : {}),
    output: { names: proj.names, types: proj.types, changelogMode: outputMode, upsertKeys },
    ...(sinkDecision ? { sink: sinkDecision.sink } : {}),
    flinkVersion: options.flinkVersion,
    notes: [],
  };
  if (options.config.nonDeterministicUpdateStrategy === 'TRY_RESOLVE') rejectJoinInputMetadata(plan, options.config.cdcEventsDuplicate);
  return { ...plan, notes: [...notes, ...versionNotes(plan)] };
}

/**
 * The changelog of a regular join Flink prunes (its condition folds to FALSE): an INNER join is an
 * empty Values, insert-only; a LEFT / RIGHT join is a Calc over the preserved input, whose kinds
 * pass through unchanged.
 */
function noJoinChangelog(joinType: JoinType, inputs: readonly [InputPlanDraft, InputPlanDraft]): readonly RowKind[] {
  if (joinType === 'inner') return ['+I'];
  return inputs[joinType === 'left' ? 0 : 1].plan.changelogMode;
}

/** The unique keys of that Calc, over the joined row: the preserved input's own (no exchange in between). */
function noJoinKeys(joinType: JoinType, leftWidth: number, left: readonly (readonly number[])[], right: readonly (readonly number[])[]): readonly (readonly number[])[] {
  if (joinType === 'left') return left;
  if (joinType === 'right') return right.map((k) => k.map((c) => c + leftWidth));
  return [];
}

/**
 * An input's upsert keys after the hash exchange on its join key: Flink's upsert-key metadata of
 * an Exchange keeps only the keys that contain the distribution keys (rows of one upsert key may
 * otherwise be reordered across channels), so the join's output key is derived from those.
 */
function keysThroughShuffle(input: InputPlan, joinKey: readonly number[], notes: string[]): readonly (readonly number[])[] {
  const kept = input.upsertKeys.filter((k) => joinKey.every((c) => k.includes(c)));
  if (kept.length < input.upsertKeys.length && joinKey.length > 0) {
    const names = (k: readonly number[]): string => k.map((i) => input.columns[i]?.name ?? `#${i}`).join(', ');
    const lost = input.upsertKeys.filter((k) => !kept.includes(k));
    notes.push(`${input.alias}'s upsert key (${lost.map(names).join('), (')}) does not survive the shuffle on the join key (${names(joinKey)}): Flink derives the join's upsert key without it`);
  }
  return kept;
}

/** The tables the query scans, in plan order: a lookup join's right side is looked up, not scanned. */
function scannedTables(cat: Catalog, family: string, names: readonly [string, string]): { table: string; watermark: boolean }[] {
  const scanned = family === 'lookup' ? [names[0]] : [...names];
  return scanned.map((t) => ({ table: t, watermark: cat.tables.get(t)?.watermark !== undefined }));
}

/** A regular or semi/anti join input with the upsert keys that survive Calcite's column pruning, and its state layout from them. */
function prunedInput(d: InputPlanDraft, side: 0 | 1, joinKey: readonly number[], reads: JoinedReads): InputPlanDraft {
  const keys = keysAfterPruning(d.plan, side, joinKey, reads);
  if (keys.length === d.plan.upsertKeys.length) return d;
  const names = (k: readonly number[]): string => k.map((i) => d.plan.columns[i]?.name ?? `#${i}`).join(', ');
  const lost = d.plan.upsertKeys.filter((k) => !keys.includes(k));
  return {
    ...withPlan(d, { upsertKeys: keys, stateLayout: stateLayout(keys, joinKey) }),
    notes: [...d.notes, `${d.plan.alias}'s upsert key (${lost.map(names).join('), (')}) is not read by the join, so Calcite prunes a column of it: the join sees ${keys.length === 0 ? 'no unique key' : 'a smaller key'} on ${d.plan.alias}`],
  };
}
