/** The materialized result after the current step (Flink's `--result` form, sorted by text). */
import { type Line, seg } from '../lines.js';
import type { UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { escapeControl } from '../text.js';

export function resultLines(s: UiState): Line[] {
  const rows = stepView(s.session.timeline, s.step).result;
  if (rows.length === 0) return [[seg('(empty)', { dim: true })]];
  return rows.map((r) => [seg(escapeControl(r))]);
}

export function resultTitle(s: UiState): [string, string] {
  const n = stepView(s.session.timeline, s.step).result.length;
  return ['result', `${n} row${n === 1 ? '' : 's'}`];
}
