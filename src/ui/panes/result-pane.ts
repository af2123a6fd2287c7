/** The materialized result after the current step (Flink's `--result` form, sorted by text). */
import { type Line, seg } from '../lines.js';
import type { UiState } from '../state.js';
import { escapeControl } from '../text.js';

export function resultLines(s: UiState): Line[] {
  const rows = s.session.timeline.result(s.step);
  if (rows.length === 0) return [[seg('(empty)', { dim: true })]];
  return rows.map((r) => [seg(escapeControl(r))]);
}

export function resultTitle(s: UiState): [string, string] {
  const n = s.session.timeline.result(s.step).length;
  return ['result', `${n} row${n === 1 ? '' : 's'}`];
}
