/**
 * A join condition Calcite's RexSimplify turns into FALSE: in a conjunction (evaluated with
 * unknown as false, as a join condition is), a comparison and its negation over the same operands
 * (`x = y` with `x <> y`, `x < y` with `x >= y`, ..., operands in either order) can never both
 * hold; nor can a comparison one of whose operands the conjunction also says IS NULL (a comparison
 * is strict: with a null operand it is unknown, so RexSimplify's AND reads it as FALSE). Flink then
 * plans no interval join at all (StreamPhysicalIntervalJoinRule needs the time bounds, which are
 * gone with the rest of the condition), and a regular join on FALSE is pruned (PruneEmptyRules).
 */
import type { TExpr } from './plan.js';

const NEGATION: Readonly<Record<string, string>> = { '=': '<>', '<>': '=', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };
const MIRROR: Readonly<Record<string, string>> = { '=': '=', '<>': '<>', '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

export function alwaysFalse(conjuncts: readonly TExpr[]): boolean {
  const seen = new Set<string>();
  for (const e of conjuncts) {
    const c = comparison(e);
    if (c === undefined) continue;
    seen.add(`${c.op} ${c.a} ${c.b}`);
  }
  const isNull = new Set(conjuncts.flatMap((e) => (e.k === 'call' && e.fn === 'IS NULL' && e.args.length === 1 ? [shape(e.args[0]!)] : [])));
  for (const e of conjuncts) {
    const c = comparison(e);
    if (c === undefined) continue;
    if (seen.has(`${NEGATION[c.op]} ${c.a} ${c.b}`)) return true;
    if (isNull.has(c.a) || isNull.has(c.b)) return true;
  }
  return false;
}

/** A comparison with its operands in a canonical order (the operator mirrored when swapped). */
function comparison(e: TExpr): { op: string; a: string; b: string } | undefined {
  if (e.k !== 'call' || NEGATION[e.fn] === undefined || e.args.length !== 2) return undefined;
  const a = shape(e.args[0]!);
  const b = shape(e.args[1]!);
  return a <= b ? { op: e.fn, a, b } : { op: MIRROR[e.fn]!, a: b, b: a };
}

/** A structural key of an expression (types left out: the operands are the same columns). */
function shape(e: TExpr): string {
  switch (e.k) {
    case 'col':
      return `$${e.index}`;
    case 'lit':
      return `lit:${typeof e.value}:${String(e.value)}`;
    case 'call':
      return `${e.fn}(${e.args.map(shape).join(',')})`;
    case 'cast':
      return `CAST(${shape(e.arg)})`;
    case 'case':
      return `CASE(${e.whens.map((w) => `${shape(w.when)}:${shape(w.then)}`).join(',')};${e.else === undefined ? '' : shape(e.else)})`;
  }
}
