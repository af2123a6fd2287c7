/**
 * Two-stream joins without FOR SYSTEM_TIME: the regular join, or the interval join when the
 * condition bounds two time attributes (Flink's IntervalJoinUtil), with the filter placement
 * Calcite's FilterJoinRule performs and the inputs' changelog checks.
 */
import { conjunctsFromAst, equiKeyOf, simplifyJoinType, type Conjunct, type EquiKey } from './conditions.js';
import { fail } from './errors.js';
import { stateTtls } from './hints.js';
import { buildInputPlan, stateLayout, withPlan, type InputPlanDraft } from './input-plan.js';
import type { InputSource } from './input.js';
import { extractIntervalBounds, identifyTimePredicate } from './interval.js';
import { checkStreamInput, joinedScope, pushFilter, type JoinCtx, type JoinDraft } from './join-common.js';
import { outputScope } from './output.js';
import type { JoinType, Side, TExpr } from './plan.js';
import { flinkTypeName } from './type-names.js';
import { andAll, columnsOf, conjunctsOf, mapCols, substitute } from './texpr-util.js';
import { alwaysFalse } from './contradiction.js';
import { fmtMs } from './sql-text.js';

const JOIN_NAMES: Record<JoinType, string> = { inner: 'InnerJoin', left: 'LeftOuterJoin', right: 'RightOuterJoin', full: 'FullOuterJoin' };

interface Placement {
  left: InputSource;
  right: InputSource;
  cond: Conjunct[];
  post: Conjunct[];
}

/** Whether a single-side predicate may move below the join into that side's input. */
function pushable(side: Side, joinType: JoinType, fromWhere: boolean): boolean {
  if (joinType === 'inner') return true;
  // ON predicates may go to the null-generating side; WHERE predicates to the preserved side
  const nullGenerating = side === 0 ? joinType === 'right' || joinType === 'full' : joinType === 'left' || joinType === 'full';
  const preserved = side === 0 ? joinType === 'left' : joinType === 'right';
  return fromWhere ? preserved : nullGenerating;
}

function place(ctx: JoinCtx, joinType: JoinType, on: Conjunct[], where: Conjunct[], leftWidth: number): Placement {
  const p: Placement = { left: ctx.left, right: ctx.right, cond: [], post: [] };
  const put = (c: Conjunct, fromWhere: boolean): void => {
    const sides = [...c.sides];
    if (sides.length === 1 && pushable(sides[0] as Side, joinType, fromWhere)) {
      const side = sides[0] as Side;
      const pushed = side === 0 ? pushFilter(p.left, c.e, 0) : pushFilter(p.right, c.e, leftWidth);
      if (pushed) {
        if (side === 0) p.left = pushed;
        else p.right = pushed;
        return;
      }
    }
    // an inner join takes WHERE conditions into its join condition (FilterIntoJoinRule)
    if (!fromWhere || joinType === 'inner') p.cond.push(c);
    else p.post.push(c);
  };
  on.forEach((c) => put(c, false));
  where.forEach((c) => put(c, true));
  inferAcrossKeys(p, joinType, leftWidth, pushedOf(on, where, p, joinType));
  return p;
}

/** The single-side conjuncts `place` pushed below the join, per side. */
function pushedOf(on: Conjunct[], where: Conjunct[], p: Placement, joinType: JoinType): [Conjunct[], Conjunct[]] {
  const out: [Conjunct[], Conjunct[]] = [[], []];
  const kept = new Set([...p.cond, ...p.post]);
  for (const [list, fromWhere] of [[on, false], [where, true]] as const) {
    for (const c of list) {
      const sides = [...c.sides];
      if (sides.length === 1 && !kept.has(c) && pushable(sides[0] as Side, joinType, fromWhere)) out[sides[0] as Side].push(c);
    }
  }
  return out;
}

/**
 * Calcite's JoinPushTransitivePredicatesRule: a predicate below the join that reads only one side's
 * column of an equality key (`l.k = r.k`) holds for the other side's column too, for every row
 * that can match, so it is inferred there (`l.k IS NOT NULL` gives `r.k IS NOT NULL`). Rows of a
 * side the join preserves are never filtered by it: an inner join infers both ways, a LEFT join
 * only onto the right, a RIGHT join only onto the left, a FULL join not at all (the join type is
 * the one a WHERE may have simplified it to). Onto an outer join's null-generating side Flink 2.3
 * infers comparisons only (`=`, `<>`, `<`, `<=`, `>`, `>=`, whatever they compare): `IS NOT NULL`
 * and `LIKE` stay on the side they were written for, where an inner join carries them across.
 * Checked plan by plan on Flink 2.3 (test/planner/always-false.test.ts lists the cases).
 */
function inferAcrossKeys(p: Placement, joinType: JoinType, leftWidth: number, pushed: [Conjunct[], Conjunct[]]): void {
  if (joinType === 'full') return;
  const keys = p.cond.map((c) => equiKeyOf(c, leftWidth)).filter((k): k is EquiKey => k !== undefined && !k.nullSafe);
  const onto: readonly Side[] = joinType === 'inner' ? [0, 1] : joinType === 'left' ? [1] : [0];
  for (const to of onto) {
    const from: Side = to === 0 ? 1 : 0;
    for (const c of pushed[from]) {
      if (joinType !== 'inner' && !isComparison(c.e)) continue;
      const cols = columnsOf(c.e);
      if (cols.size !== 1) continue;
      const col = [...cols][0] as number;
      const key = keys.find((k) => (from === 0 ? k.left : leftWidth + k.right) === col);
      if (key === undefined) continue;
      const target = to === 0 ? key.left : leftWidth + key.right;
      // the other side's column as it is (its own type: NOT NULL there makes `IS NOT NULL` TRUE)
      const column = to === 0 ? p.left.columns[key.left] : p.right.columns[key.right];
      const onto: TExpr[] = [];
      if (column !== undefined) onto[col] = { k: 'col', type: column.type, index: target, name: column.name };
      const inferred = column === undefined ? mapCols(c.e, () => target) : substitute(c.e, onto);
      const pushedTo = to === 0 ? pushFilter(p.left, inferred, 0) : pushFilter(p.right, inferred, leftWidth);
      if (pushedTo === undefined || alreadyFiltered(to === 0 ? p.left : p.right, pushedTo)) continue;
      if (to === 0) p.left = pushedTo;
      else p.right = pushedTo;
    }
  }
}

const COMPARISONS = new Set(['=', '<>', '<', '<=', '>', '>=']);

function isComparison(e: TExpr): boolean {
  return e.k === 'call' && COMPARISONS.has(e.fn);
}

/** Whether pushing the inferred predicate added nothing new (the same conjunct is already there). */
function alreadyFiltered(before: InputSource, after: InputSource): boolean {
  if (before.filter === undefined || after.filter === undefined) return false;
  const have = new Set(conjunctsOf(before.filter).map((e) => JSON.stringify(e)));
  return conjunctsOf(after.filter).every((e) => have.has(JSON.stringify(e)));
}

function changeKinds(mode: readonly string[]): string {
  const parts: string[] = [];
  if (mode.includes('-U') || mode.includes('+U')) parts.push('update');
  if (mode.includes('-D')) parts.push('delete');
  return parts.join(' and ');
}

export function planStreamJoin(ctx: JoinCtx): JoinDraft {
  checkStreamInput(ctx.left);
  checkStreamInput(ctx.right);
  const leftWidth = ctx.left.columns.length;
  const scope = joinedScope(ctx.left, ctx.right);
  const on = conjunctsFromAst(ctx.on, scope, leftWidth, 'ON');
  const where = conjunctsFromAst(ctx.select.where, scope, leftWidth, 'WHERE');
  const notes: string[] = [];
  const joinType = simplifyJoinType(ctx.joinType, where, leftWidth);
  if (joinType !== ctx.joinType) {
    notes.push(`the WHERE clause rejects rows padded with nulls, so Flink (Calcite's join simplification) plans ${ctx.joinType.toUpperCase()} JOIN as ${joinType.toUpperCase()} JOIN`);
  }
  const placed = place(ctx, joinType, on, where, leftWidth);
  // time predicates are taken out first: `l.rowtime = r.rowtime` is a [0, 0] window, not a join key
  const bounds = extractIntervalBounds(placed.cond, scope, leftWidth);
  const nonTime = placed.cond.filter((c) => !bounds?.timePredicates.includes(c));
  const keys = nonTime.map((c) => equiKeyOf(c, leftWidth));
  const equi = keys.filter((k) => k !== undefined);
  const rest = nonTime.filter((_, i) => keys[i] === undefined);
  const drafts: [InputPlanDraft, InputPlanDraft] = [
    buildInputPlan(placed.left, 'stream', ctx.options.config),
    buildInputPlan(placed.right, 'stream', ctx.options.config),
  ];
  const keyCols = { left: equi.map((k) => k.left), right: equi.map((k) => k.right), nullSafe: equi.map((k) => k.nullSafe) };
  const base = { joinType, keys: keyCols, notes, outScope: outputScope(scope, joinType), leftWidth };
  const postFilter = andAll(placed.post.map((c) => c.e));
  const withPost = postFilter ? { postFilter } : {};
  if (bounds) {
    const residual = andAll(rest.map((c) => c.e));
    [placed.left, placed.right].forEach((src, i) => {
      const d = drafts[i] as InputPlanDraft;
      if (d.plan.changelogMode.some((k) => k !== '+I')) {
        fail(`StreamPhysicalIntervalJoin doesn't support consuming ${changeKinds(d.plan.changelogMode)} changes which is produced by node ${d.producer}`,
          src.span, `an interval join reads append-only streams; ${src.refName} is a changelog (${d.plan.changelogMode.join(', ')}). Join it with a regular join, or as the versioned side of a temporal join (FOR SYSTEM_TIME AS OF)`);
      }
    });
    const lt = scope.rels[0]?.columns[bounds.leftTime];
    const rt = scope.rels[1]?.columns[bounds.rightTime - leftWidth];
    if (bounds.kind === 'rowtime' && lt && rt && lt.type.kind !== rt.type.kind) {
      fail(`Interval join with rowtime attribute requires same rowtime types, but the types are ${flinkTypeName(lt.type, 'rowtime')} and ${flinkTypeName(rt.type, 'rowtime')}.`,
        bounds.timePredicates[0]?.span ?? ctx.keywordSpan, 'declare both event-time columns with the same type (both TIMESTAMP(3) or both TIMESTAMP_LTZ(3))');
    }
    const inputs: [InputPlanDraft, InputPlanDraft] = [
      withPlan(drafts[0], { timeAttr: { index: bounds.leftTime, kind: bounds.kind }, stateTtlSource: 'none' }),
      withPlan(drafts[1], { timeAttr: { index: bounds.rightTime - leftWidth, kind: bounds.kind }, stateTtlSource: 'none' }),
    ];
    const negative = bounds.upperMs < bounds.lowerMs;
    const never = alwaysFalse(placed.cond.map((c) => c.e));
    notes.unshift(`interval join: the condition bounds ${ctx.left.alias}.${lt?.name} between ${ctx.right.alias}.${rt?.name} ${fmtOffset(bounds.lowerMs)} and ${ctx.right.alias}.${rt?.name} ${fmtOffset(bounds.upperMs)} (both ${bounds.kind === 'rowtime' ? 'event-time' : 'processing-time'} attributes)`);
    if (negative) notes.push('the window is empty (upper bound < lower bound): Flink builds no join operator; outer sides are padded with nulls at once and nothing ever matches');
    if (never) {
      notes.push(joinType === 'full'
        ? 'the join condition compares the same operands both ways and Calcite simplifies it to FALSE: Flink plans a regular FULL join on FALSE instead of an interval join; every row is padded with nulls at once, and both time columns become plain timestamps'
        : joinType === 'inner'
          ? 'the join condition compares the same operands both ways and Calcite simplifies it to FALSE: Flink plans no join and reads no row (an empty Values)'
          : `the join condition compares the same operands both ways and Calcite simplifies it to FALSE: Flink plans no join, only a Calc that pads every ${joinType === 'left' ? ctx.left.alias : ctx.right.alias} row with nulls at once (the other side is never read, and there is no join watermark)`);
    }
    return {
      family: 'interval', ...base, inputs, ...withPost,
      ...(residual ? { residual } : {}),
      interval: { lowerMs: bounds.lowerMs, upperMs: bounds.upperMs, timeKind: bounds.kind, minCleanupMs: ctx.options.config.minCleanupIntervalMs, negativeWindow: negative, ...(never ? { alwaysFalse: true } : {}) },
    };
  }
  if (rest.some((c) => identifyTimePredicate(c, scope, leftWidth))) {
    notes.push('the condition compares the two time attributes, but not as one lower and one upper bound: Flink plans a regular join (IntervalJoinUtil needs both bounds, or one equality), so the comparison is an ordinary condition and state is not cleaned up by time');
  }
  // ON alone for an outer join, with what its WHERE says of the preserved side alone (pushed into
  // that input, FilterJoinRule, and known to the condition's simplification from there: `ON l.v <
  // r.v` of a RIGHT join under `WHERE r.v IS NULL` is FALSE); an inner join's WHERE joins the same
  // conjunction (FilterIntoJoinRule)
  const preserved: Side | undefined = joinType === 'left' ? 0 : joinType === 'right' ? 1 : undefined;
  const known = joinType === 'inner' ? where : where.filter((c) => preserved !== undefined && c.sides.size === 1 && c.sides.has(preserved));
  const folded = alwaysFalse([...on, ...known].map((c) => c.e));
  // FilterJoinRule pushes the FALSE into each side it may filter and PruneEmptyRules prunes the
  // join: INNER to an empty Values, LEFT / RIGHT to a Calc over the preserved side. A FULL join
  // has no such side, so it stays: a join on FALSE, with no equality keys left (one task)
  const never = folded && joinType !== 'full';
  const noKeys = folded && joinType === 'full';
  const joinKeys = noKeys ? { left: [], right: [], nullSafe: [] } : keyCols;
  const residual = andAll((noKeys ? nonTime : rest).map((c) => c.e));
  const ttl = stateTtls(ctx.select.hints, [placed.left, placed.right], ctx.options.config.stateTtlMs);
  const inputs = drafts.map((d, i) => {
    const joinKey = i === 0 ? joinKeys.left : joinKeys.right;
    const t = ttl[i] as { ms: number; source: 'config' | 'hint' | 'none' };
    return withPlan(d, { stateLayout: stateLayout(d.plan.upsertKeys, joinKey), stateTtlMs: t.ms, stateTtlSource: t.source });
  }) as [InputPlanDraft, InputPlanDraft];
  notes.unshift(joinKeys.left.length > 0
    ? `regular join (${JOIN_NAMES[joinType]}): equality keys and no time bounds, so both sides are kept in state`
    : `regular join (${JOIN_NAMES[joinType]}) without equality keys: Flink runs it on a single task (every row has the same key)`);
  if (never) {
    notes.push(joinType === 'inner'
      ? 'the join condition can never hold and Calcite simplifies it to FALSE: Flink plans no join and reads no row (an empty, insert-only Values)'
      : `the join condition can never hold and Calcite simplifies it to FALSE: Flink plans no join, only a Calc that pads every ${joinType === 'left' ? ctx.left.alias : ctx.right.alias} row with nulls and keeps its kind (+I, -U, +U, -D); ${joinType === 'left' ? ctx.right.alias : ctx.left.alias} is never read`);
  }
  if (noKeys) notes.push('the join condition can never hold and Calcite simplifies it to FALSE: the FULL join stays, on FALSE, with no equality keys, so nothing ever matches and every row is padded with nulls');
  return { family: 'regular', ...base, keys: joinKeys, inputs, ...withPost, ...(residual ? { residual } : {}), ...(never ? { alwaysFalse: true } : {}) };
}

function fmtOffset(ms: number): string {
  return ms < 0 ? `- ${fmtMs(-ms)}` : `+ ${fmtMs(ms)}`;
}
