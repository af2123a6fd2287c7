/**
 * The emitted changelog up to the current step, newest in view: each row with its number, the
 * step that emitted it and its kind (+I -U +U -D, colour-coded; the kind text itself tells them
 * apart in monochrome). Rows of the current step are bold; the selected row (for Why) inverse.
 */
import type { Emitted } from '../../engine/types.js';
import { type Line, seg, windowStart } from '../lines.js';
import type { UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { emittedText } from '../text.js';
import { kindTone } from '../theme.js';

export function changelogLines(s: UiState, height: number): Line[] {
  const tl = s.session.timeline;
  const size = stepView(tl, s.step).changelogSize;
  if (size === 0) return [[seg('(nothing emitted yet)', { dim: true })]];
  const focus = s.selected ?? size - 1;
  // Following the newest row: the window ends at the newest row.
  const start = s.selected === undefined ? Math.max(0, size - height) : windowStart(size, height, focus);
  const rows = tl.changelogRange(s.step, start, Math.min(size, start + height));
  const numWidth = String(size).length;
  const stepWidth = String(s.step).length;
  return rows.map((e, i) => rowLine(s, e, start + i, numWidth, stepWidth));
}

function rowLine(s: UiState, e: Emitted, index: number, numWidth: number, stepWidth: number): Line {
  const selected = index === s.selected;
  const fresh = e.step === s.step;
  const base = { ...(selected ? { inverse: true } : {}), ...(fresh ? { bold: true } : {}) };
  const text = emittedText(e, s.session.info);
  return [
    seg(`${selected ? '▶' : ' '}${String(index + 1).padStart(numWidth)} `, base),
    seg(`s${String(e.step).padEnd(stepWidth)} `, { ...base, tone: 'muted' }),
    seg(e.kind, { ...base, tone: kindTone(e.kind), bold: true }),
    seg(text.slice(e.kind.length), base),
  ];
}

export function changelogTitle(s: UiState): [string, string] {
  const view = stepView(s.session.timeline, s.step);
  const size = view.changelogSize;
  const here = view.record.emitted.length;
  return ['changelog', `${size} row${size === 1 ? '' : 's'}${here > 0 ? `, ${here} this step` : ''}`];
}
