/** The materialized result after the current step (Flink's `--result` form, sorted by text). */
import { type Line, seg } from '../lines.js';
import type { UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { printable } from '../../values/printable.js';
import type { LineSource } from './common.js';

const EMPTY: Line = [seg('(empty)', { dim: true })];

/** The fold toward the step, as a percentage of its way, or undefined once the result is there. */
function folding(s: UiState): number | undefined {
  const view = stepView(s.session.timeline, s.step);
  if (view.resultRows !== undefined) return undefined;
  const f = view.resultFold();
  return f === undefined ? undefined : Math.floor(view.foldDone(f) * 100);
}

/** The pane's lines, built a window at a time (a big result has thousands, a pane shows a few). */
export function resultSource(s: UiState): LineSource {
  const rows = stepView(s.session.timeline, s.step).resultRows;
  if (rows === undefined) {
    const line: Line = [seg(`folding the changelog up to step ${s.step.toLocaleString('en-US')}: ${folding(s) ?? 0}%`, { dim: true })];
    return { length: 1, slice: (start, end) => [line].slice(start, end) };
  }
  if (rows.length === 0) return { length: 1, slice: (start, end) => [EMPTY].slice(start, end) };
  return { length: rows.length, slice: (start, end) => rows.slice(start, end).map((r) => [seg(printable(r))]) };
}

export function resultTitle(s: UiState): [string, string] {
  const rows = stepView(s.session.timeline, s.step).resultRows;
  if (rows === undefined) return ['result', `folding… ${folding(s) ?? 0}%`];
  const n = rows.length;
  return ['result', `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`];
}

/** Whether the result pane waits on a fold still on the way to the current step (App moves it in slices). */
export function resultFolding(s: UiState): boolean {
  const view = stepView(s.session.timeline, s.step);
  return (view.resultFold()?.left ?? 0) > 0;
}
