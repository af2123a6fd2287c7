/**
 * The flink-version rules a plan runs under, in words for `explain` (notes §2.3, §5.2, §4.1, §10).
 */
import type { Plan } from './plan.js';
import { fmtMs } from './sql-text.js';

export function versionNotes(plan: Plan): string[] {
  const v = plan.flinkVersion;
  const out: string[] = [];
  if (plan.family === 'temporal') {
    out.push(v >= '2.4'
      ? `Flink ${v}: a left row whose time is at or below the current watermark is dropped as late (FLINK-39719), even in a LEFT join`
      : `Flink ${v}: late left rows are kept and joined at the next watermark (the late-row drop arrived in 2.4, FLINK-39719)`);
  }
  if (plan.family === 'regular' && plan.joinType !== 'inner') {
    out.push(v >= '2.2'
      ? `Flink ${v}: with several matches the outer join emits each un-pad / join pair in turn (FLINK-37955)`
      : `Flink ${v}: with several matches the outer join emits all -D of padded rows first, then all joined rows (before FLINK-37955)`);
  }
  if (plan.family === 'interval' && plan.interval) {
    out.push(`table.exec.interval-join.min-cleanup-interval = ${fmtMs(plan.interval.minCleanupMs)}: a row's cleanup timer fires at its time + its side's window size + ${fmtMs(plan.interval.minCleanupMs)} + 1 ms (Flink 1.18+ default 0)`);
  }
  return out;
}
