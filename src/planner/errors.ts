/**
 * Planner rejections. Internally a rejection is thrown as a PlanFail and caught once in
 * planSql, so deep analysis code can stop at the first problem without threading results.
 */
import type { Span } from '../sql/ast.js';
import type { PlanError } from './plan.js';
import { printable } from '../values/printable.js';

export class PlanFail extends Error {
  constructor(readonly error: PlanError) {
    super(error.message);
  }
}

export function fail(message: string, span: Span, hint?: string): never {
  const error: PlanError = hint === undefined ? { message, span: spanOf(span) } : { message, hint, span: spanOf(span) };
  throw new PlanFail(error);
}

/** Keep only start/end: AST nodes carry more fields than a Span. */
export function spanOf(s: Span): Span {
  return { start: s.start, end: s.end };
}

/** Edit distance where swapping two neighbours counts as one typo (optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => (d[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = v;
    }
  }
  return at(a.length, b.length);
}

/** The closest candidate by edit distance (case-insensitive), if it is close enough to be a typo. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = c.toLowerCase() === name.toLowerCase() ? 0 : distance(name.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  const limit = Math.max(1, Math.floor(name.length / 3));
  return bestD <= limit ? best : undefined;
}

/** "did you mean 'x'?" hint text, or a list of what exists. */
export function didYouMean(name: string, candidates: readonly string[], what: string): string {
  const c = closest(name, candidates);
  if (c !== undefined) {
    return c.toLowerCase() === name.toLowerCase() && c !== name
      ? `did you mean '${printable(c)}'? Flink identifiers are case-sensitive`
      : `did you mean '${printable(c)}'?`;
  }
  return candidates.length === 0 ? `no ${what} is declared` : `known ${what}s: ${candidates.map(printable).join(', ')}`;
}
