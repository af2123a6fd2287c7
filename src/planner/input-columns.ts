/**
 * Which columns of a join input's source table the query reads. Calcite prunes every column the
 * query does not use, so a Calc that keeps only these sits right above the source, and Flink's
 * PushCalcPastChangelogNormalizeRule moves it below a ChangelogNormalize, which then stores and
 * compares these columns (and the primary key) alone.
 */
import type { InputPlan, TExpr } from './plan.js';
import { columnsOf } from './texpr-util.js';

export interface JoinedReads {
  /** Expressions over the joined row (left columns, then right): select list, residual, post-join filter. */
  readonly exprs: readonly TExpr[];
  readonly leftWidth: number;
}

/** The source-row columns input `side` needs, sorted; its filter's and the `keep` columns included. */
export function sourceColumnsRead(p: InputPlan, side: 0 | 1, joinKey: readonly number[], reads: JoinedReads, keep: readonly number[] = []): number[] {
  const offset = side === 0 ? 0 : reads.leftWidth;
  const width = p.columns.length;
  const joined = new Set<number>();
  for (const e of reads.exprs) columnsOf(e, joined);
  const inputCols = new Set(joinKey);
  for (const c of joined) if (c >= offset && c < offset + width) inputCols.add(c - offset);
  const source = new Set<number>(keep);
  for (const c of inputCols) {
    if (p.project === undefined) source.add(c);
    else {
      const e = p.project[c];
      if (e !== undefined) columnsOf(e, source);
    }
  }
  if (p.filter !== undefined) columnsOf(p.filter, source);
  return [...source].sort((a, b) => a - b);
}
