/**
 * Semi and anti joins from `WHERE a.k [NOT] IN (SELECT ...)` and `[NOT] EXISTS (SELECT ...
 * correlated ...)`, as Flink's subquery removal rewrites them. NOT IN is null-aware: unless both
 * sides are NOT NULL the condition is `k = k0 OR k IS NULL OR k0 IS NULL`, which has no equi-key,
 * so Flink runs the anti join on a single task.
 */
import type { Expr, Select, Span } from '../sql/ast.js';
import { equiKeyOf, sidesOf, type Conjunct } from './conditions.js';
import { fail, spanOf } from './errors.js';
import { requireBoolean, toTExpr } from './expr.js';
import { stateTtls } from './hints.js';
import { buildInputPlan, stateLayout, withPlan, type InputPlanDraft } from './input-plan.js';
import { resolveSelect, resolveTableRef, type Catalog, type InputSource } from './input.js';
import { checkStreamInput, pushFilter, type JoinDraft, type PlannerOptions } from './join-common.js';
import type { TExpr } from './plan.js';
import type { Scope } from './scope.js';
import { andAll, conjunctsOf } from './texpr-util.js';
import { BOOLEAN } from './type-rules.js';

export interface SubqueryConjunct {
  readonly kind: 'in' | 'exists';
  readonly negated: boolean;
  readonly query: Select;
  /** IN: the left operand. */
  readonly operand?: Expr;
  readonly span: Span;
}

/** Recognises `x [NOT] IN (SELECT ...)`, `EXISTS (...)`, `NOT EXISTS (...)`. */
export function subqueryConjunct(e: Expr): SubqueryConjunct | undefined {
  if (e.kind === 'in' && e.query) return { kind: 'in', negated: e.negated, query: e.query, operand: e.operand, span: spanOf(e) };
  if (e.kind === 'exists') return { kind: 'exists', negated: false, query: e.query, span: spanOf(e) };
  if (e.kind === 'unary' && e.op === 'NOT') {
    const inner = subqueryConjunct(e.operand);
    if (inner) return { ...inner, negated: !inner.negated, span: spanOf(e) };
  }
  return undefined;
}

function call(fn: string, args: TExpr[], nullable = false): TExpr {
  return { k: 'call', fn, type: BOOLEAN(nullable), args };
}

export function planSemiJoin(cat: Catalog, options: PlannerOptions, select: Select, left: InputSource, sub: SubqueryConjunct, otherWhere: readonly Expr[]): JoinDraft {
  const q = sub.query;
  if (q.groupBy || q.having || q.distinct) fail('joinstep debugs joins: aggregations inside the subquery are not supported', q);
  if (q.from.kind === 'join') fail('joinstep supports a subquery over a single table', q.from.keywordSpan);
  let right = q.from.kind === 'table' ? resolveTableRef(cat, q.from) : resolveSelect(cat, q.from.query);
  if (q.from.kind === 'subquery' && q.from.alias) right = { ...right, alias: q.from.alias.value };
  checkStreamInput(left);
  checkStreamInput(right);
  const leftWidth = left.columns.length;
  const outer: Scope = { rels: [{ alias: left.alias, tableName: left.refName, columns: left.columns, offset: 0 }] };
  const inner: Scope = { rels: [{ alias: right.alias, tableName: right.refName, columns: right.columns, offset: leftWidth }], parent: outer };
  // left-only WHERE conditions filter the left input
  for (const w of otherWhere) {
    const e = requireBoolean(toTExpr(w, outer), 'WHERE', w);
    left = pushFilter(left, e, 0) ?? left;
  }
  const cond: Conjunct[] = [];
  const subWhere = q.where ? requireBoolean(toTExpr(q.where, inner), 'WHERE', q.where) : undefined;
  for (const e of subWhere ? conjunctsOf(subWhere) : []) {
    const sides = sidesOf(e, leftWidth);
    if (!sides.has(0)) right = pushFilter(right, e, leftWidth) ?? right;
    else cond.push({ e, span: spanOf(q.where as Expr), sides });
  }
  const notes: string[] = [];
  let nullAware = false;
  if (sub.kind === 'in') {
    const item = q.items[0];
    if (q.items.length !== 1 || !item || item.kind !== 'expr') fail('joinstep supports IN (SELECT <one column> ...)', q, 'select exactly the column to compare with');
    const l = toTExpr(sub.operand as Expr, outer);
    const r = toTExpr(item.expr, inner);
    const eq = call('=', [l, r], l.type.nullable || r.type.nullable);
    if (sub.negated && (l.type.nullable || r.type.nullable)) {
      nullAware = true;
      cond.push({ e: call('OR', [call('OR', [eq, call('IS NULL', [l])]), call('IS NULL', [r])], true), span: sub.span, sides: new Set([0, 1]) });
      notes.push('NOT IN is null-aware: a null on either side makes the condition unknown, so Flink joins on `k = k0 OR k IS NULL OR k0 IS NULL` without an equi-key, on a single task');
    } else {
      cond.unshift({ e: eq, span: sub.span, sides: new Set([0, 1]) });
    }
  }
  const keys = cond.map((c) => equiKeyOf(c, leftWidth));
  const equi = keys.filter((k) => k !== undefined);
  const residual = andAll(cond.filter((_, i) => keys[i] === undefined).map((c) => c.e));
  const family = sub.negated ? 'anti' : 'semi';
  const keyCols = { left: equi.map((k) => k.left), right: equi.map((k) => k.right), nullSafe: equi.map((k) => k.nullSafe) };
  // Flink's planner does not carry a STATE_TTL hint into a join it builds from a subquery: the
  // compiled plan's semi/anti join keeps table.exec.state.ttl on both sides. The hint's names
  // are still checked, and the hint is otherwise ignored.
  stateTtls(select.hints, [left, right], options.config.stateTtlMs);
  const ttl = stateTtls([], [left, right], options.config.stateTtlMs);
  if (select.hints.some((h) => h.name === 'STATE_TTL')) {
    notes.push(`the STATE_TTL hint does not reach a ${sub.negated ? 'anti' : 'semi'} join written as ${sub.negated ? 'NOT ' : ''}${sub.kind === 'in' ? 'IN' : 'EXISTS'} (SELECT ...): Flink keeps table.exec.state.ttl for both sides (write a JOIN to give sides their own TTL)`);
  }
  const inputs = [left, right].map((src, i) => {
    const d = buildInputPlan(src, 'stream', options.config);
    const t = ttl[i] as { ms: number; source: 'config' | 'hint' | 'none' };
    return withPlan(d, { stateLayout: stateLayout(d.plan.upsertKeys, i === 0 ? keyCols.left : keyCols.right), stateTtlMs: t.ms, stateTtlSource: t.source });
  }) as [InputPlanDraft, InputPlanDraft];
  notes.unshift(`${family} join (${family === 'semi' ? 'LeftSemiJoin' : 'LeftAntiJoin'}) from ${sub.negated ? 'NOT ' : ''}${sub.kind === 'in' ? 'IN' : 'EXISTS'} (SELECT ...): emits left rows ${family === 'semi' ? 'that have' : 'that have no'} match in ${right.refName}${nullAware ? '' : ', keyed by the correlation'}`);
  return {
    family, joinType: family === 'semi' ? 'inner' : 'left', inputs, keys: keyCols,
    ...(residual ? { residual } : {}), notes, outScope: outer, leftWidth,
  };
}
