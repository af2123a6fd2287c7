/**
 * Join conditions as Flink's planner splits them: conjuncts, the sides each one reads, the
 * equi-join keys (`=` and the null-safe `IS NOT DISTINCT FROM` between a column of each side), and
 * Calcite's outer-join simplification (a WHERE that rejects nulls of the padded side makes the join inner).
 */
import type { Expr, Span } from '../sql/ast.js';
import { spanOf } from './errors.js';
import { requireBoolean, toTExpr } from './expr.js';
import type { JoinType, Side, TExpr } from './plan.js';
import type { Scope } from './scope.js';
import { columnsOf, conjunctsOf } from './texpr-util.js';

export interface Conjunct {
  readonly e: TExpr;
  readonly span: Span;
  /** Which inputs the conjunct reads (empty for a constant). */
  readonly sides: ReadonlySet<Side>;
}

export interface EquiKey {
  readonly left: number;
  /** Index in the right input's row (not the joined row). */
  readonly right: number;
  readonly nullSafe: boolean;
  readonly conjunct: Conjunct;
}

export function sidesOf(e: TExpr, leftWidth: number): Set<Side> {
  const out = new Set<Side>();
  for (const i of columnsOf(e)) out.add(i < leftWidth ? 0 : 1);
  return out;
}

/** Typed conjuncts of a condition; BETWEEN contributes its two comparisons. */
export function conjunctsFromAst(expr: Expr | undefined, scope: Scope, leftWidth: number, clause: string): Conjunct[] {
  if (!expr) return [];
  const out: Conjunct[] = [];
  const visit = (x: Expr): void => {
    if (x.kind === 'binary' && x.op === 'AND') {
      visit(x.left);
      visit(x.right);
      return;
    }
    const e = requireBoolean(toTExpr(x, scope), clause, x);
    for (const c of conjunctsOf(e)) out.push({ e: c, span: spanOf(x), sides: sidesOf(c, leftWidth) });
  };
  visit(expr);
  return out;
}

/** An equality between a plain column of each side, or undefined. */
export function equiKeyOf(c: Conjunct, leftWidth: number): EquiKey | undefined {
  const e = c.e;
  if (e.k !== 'call' || (e.fn !== '=' && e.fn !== 'IS NOT DISTINCT FROM')) return undefined;
  const [a, b] = e.args;
  if (!a || !b || a.k !== 'col' || b.k !== 'col') return undefined;
  const nullSafe = e.fn === 'IS NOT DISTINCT FROM';
  if (a.index < leftWidth && b.index >= leftWidth) return { left: a.index, right: b.index - leftWidth, nullSafe, conjunct: c };
  if (b.index < leftWidth && a.index >= leftWidth) return { left: b.index, right: a.index - leftWidth, nullSafe, conjunct: c };
  return undefined;
}

/**
 * Whether a predicate is false or unknown whenever every column of `side` is null (Calcite's
 * Strong): comparisons and arithmetic over such a column are; IS NULL, COALESCE, OR, CASE are not.
 */
export function rejectsNulls(e: TExpr, leftWidth: number, side: Side): boolean {
  const onSide = (i: number): boolean => (side === 0 ? i < leftWidth : i >= leftWidth);
  const strongOperand = (x: TExpr): boolean => {
    if (x.k === 'col') return onSide(x.index);
    if (x.k === 'cast') return strongOperand(x.arg);
    if (x.k === 'call' && ['+', '-', '*', '/', '%', 'NEG', '||', 'UPPER', 'LOWER'].includes(x.fn)) return x.args.some(strongOperand);
    return false;
  };
  if (e.k !== 'call') return false;
  if (['=', '<>', '<', '<=', '>', '>=', 'LIKE'].includes(e.fn)) return e.args.some(strongOperand);
  if (e.fn === 'IS NOT NULL' || e.fn === 'IS TRUE') return e.args.some(strongOperand);
  if (e.fn === 'AND') return e.args.some((a) => rejectsNulls(a, leftWidth, side));
  if (e.fn === 'OR') return e.args.every((a) => rejectsNulls(a, leftWidth, side));
  return false;
}

/** Calcite's RelOptUtil.simplifyJoin: WHERE conjuncts that reject the padded side's nulls turn outer into inner. */
export function simplifyJoinType(type: JoinType, where: readonly Conjunct[], leftWidth: number): JoinType {
  const rejects = (side: Side): boolean => where.some((c) => rejectsNulls(c.e, leftWidth, side));
  let out = type;
  if ((out === 'left' || out === 'full') && rejects(1)) out = out === 'left' ? 'inner' : 'right';
  if ((out === 'right' || out === 'full') && rejects(0)) out = out === 'right' ? 'inner' : 'left';
  return out;
}
