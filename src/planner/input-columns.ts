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
  const inputCols = inputColumnsRead(p.columns.length, side, joinKey, reads);
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

/** The input-row columns of input `side` the join reads: its join key and what the joined expressions use. */
export function inputColumnsRead(width: number, side: 0 | 1, joinKey: readonly number[], reads: JoinedReads): Set<number> {
  const offset = side === 0 ? 0 : reads.leftWidth;
  const joined = new Set<number>();
  for (const e of reads.exprs) columnsOf(e, joined);
  const out = new Set(joinKey);
  for (const c of joined) if (c >= offset && c < offset + width) out.add(c - offset);
  return out;
}

/**
 * The input's upsert keys once Calcite has pruned the columns the join does not read: a key with
 * an unread column is gone (the join sees NoUniqueKey, or a smaller key), which changes the join's
 * state layout and what the planner may derive from the key.
 */
export function keysAfterPruning(p: InputPlan, side: 0 | 1, joinKey: readonly number[], reads: JoinedReads): readonly (readonly number[])[] {
  const read = inputColumnsRead(p.columns.length, side, joinKey, reads);
  return p.upsertKeys.filter((k) => k.every((c) => read.has(c)));
}
