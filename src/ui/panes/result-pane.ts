/** The materialized result after the current step (Flink's `--result` form, sorted by text). */
import { type Line, seg } from '../lines.js';
import type { UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { printable } from '../../values/printable.js';
import type { LineSource } from './common.js';

const EMPTY: Line = [seg('(empty)', { dim: true })];

/** The pane's lines, built a window at a time (a big result has thousands, a pane shows a few). */
export function resultSource(s: UiState): LineSource {
  const rows = stepView(s.session.timeline, s.step).result;
  if (rows.length === 0) return { length: 1, slice: (start, end) => [EMPTY].slice(start, end) };
  return { length: rows.length, slice: (start, end) => rows.slice(start, end).map((r) => [seg(printable(r))]) };
}

export function resultTitle(s: UiState): [string, string] {
  const n = stepView(s.session.timeline, s.step).result.length;
  return ['result', `${n} row${n === 1 ? '' : 's'}`];
}
