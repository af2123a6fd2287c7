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
import { type ChangelogDiff, diffOf } from '../diff.js';

/** `compact` (side by side): no row number or step column, so narrow columns keep the row text. */
export function changelogLines(s: UiState, height: number, diff: ChangelogDiff | undefined = diffOf(s), compact = false): Line[] {
  const gone = removedLines(diff, height);
  const rowsHeight = height - gone.length;
  const tl = s.session.timeline;
  const size = stepView(tl, s.step).changelogSize;
  if (size === 0) return [[seg('(nothing emitted yet)', { dim: true })], ...gone];
  const focus = s.selected ?? size - 1;
  // Following the newest row: the window ends at the newest row.
  const start = s.selected === undefined ? Math.max(0, size - rowsHeight) : windowStart(size, rowsHeight, focus);
  const rows = tl.changelogRange(s.step, start, Math.min(size, start + rowsHeight));
  const numWidth = String(size).length;
  const stepWidth = String(s.step).length;
  return [...rows.map((e, i) => rowLine(s, e, start + i, numWidth, stepWidth, diff, compact)), ...gone];
}

/** The original run's rows that the edited run no longer emits, at the pane's foot (a third at most). */
function removedLines(diff: ChangelogDiff | undefined, height: number): Line[] {
  const removed = diff?.removed ?? [];
  if (removed.length === 0) return [];
  const room = Math.max(1, Math.floor(height / 3));
  const shown = removed.length <= room ? removed : removed.slice(0, room - 1);
  const lines: Line[] = shown.map((t) => [seg('−', { tone: 'delete', bold: true }), seg(` ${t}`, { dim: true })]);
  if (shown.length < removed.length) lines.push([seg(`− … ${removed.length - shown.length} more no longer emitted`, { tone: 'delete', dim: true })]);
  return lines;
}

function rowLine(s: UiState, e: Emitted, index: number, numWidth: number, stepWidth: number, diff: ChangelogDiff | undefined, compact: boolean): Line {
  const selected = index === s.selected;
  const fresh = e.step === s.step;
  const base = { ...(selected ? { inverse: true } : {}), ...(fresh ? { bold: true } : {}) };
  const text = emittedText(e, s.session.info);
  const mark: Line = diff === undefined ? [] : diff.added[index] === true ? [seg('+', { ...base, tone: 'insert', bold: true })] : [seg(' ', base)];
  const where = compact
    ? [seg(selected ? '▶' : '', base)]
    : [seg(`${selected ? '▶' : ' '}${String(index + 1).padStart(numWidth)} `, base), seg(`s${String(e.step).padEnd(stepWidth)} `, { ...base, tone: 'muted' })];
  return [
    ...mark,
    ...where,
    seg(e.kind, { ...base, tone: kindTone(e.kind), bold: true }),
    seg(text.slice(e.kind.length), base),
  ];
}

export function changelogTitle(s: UiState, diff: ChangelogDiff | undefined = diffOf(s), name = 'changelog'): [string, string] {
  const view = stepView(s.session.timeline, s.step);
  const size = view.changelogSize;
  const here = view.record.emitted.length;
  const added = diff?.added.filter((a) => a).length ?? 0;
  const vs = diff === undefined ? '' : `, +${added} −${diff.removed.length} vs original`;
  return [name, `${size} row${size === 1 ? '' : 's'}${here > 0 ? `, ${here} this step` : ''}${vs}`];
}
