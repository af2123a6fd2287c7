/**
 * The event timeline: past steps dimmed, the current one inverse, the next ones plain; each line
 * carries the step's flags (E emitted, R retracted, L late drop, W watermark moved, X expired),
 * late drops are flagged LATE, manual actions ✎, notes are shown in their own colour.
 */
import { STEP_EMIT, STEP_EXPIRE, STEP_LATE_DROP, STEP_RETRACT, STEP_WATERMARK } from '../../engine/types.js';
import { type Line, type Segment, seg, windowStart } from '../lines.js';
import { hiddenStep } from '../practice.js';
import { isManual } from '../session.js';
import type { UiState } from '../state.js';
import { clock, eventText } from '../text.js';
import { printable } from '../../values/printable.js';

const FLAG_LETTERS: readonly [number, string][] = [
  [STEP_EMIT, 'E'],
  [STEP_RETRACT, 'R'],
  [STEP_LATE_DROP, 'L'],
  [STEP_WATERMARK, 'W'],
  [STEP_EXPIRE, 'X'],
];

export function flagText(flags: number): string {
  return FLAG_LETTERS.map(([bit, letter]) => ((flags & bit) !== 0 ? letter : '·')).join('');
}

export function timelineLines(s: UiState, height: number): Line[] {
  const tl = s.session.timeline;
  const total = tl.length + 1;
  // Keep a few upcoming steps in view: the cursor sits at about a third of the pane.
  const start = windowStart(total, height, s.step, s.step - Math.floor(height / 3));
  const digits = String(tl.length).length;
  const out: Line[] = [];
  for (let i = start; i < Math.min(total, start + height); i++) out.push(stepLine(s, i, digits));
  return out;
}

function stepLine(s: UiState, i: number, digits: number): Line {
  const { info, timeline: tl } = s.session;
  const current = i === s.step;
  const base = current ? { inverse: true, bold: true } : i < s.step ? { dim: true } : {};
  const num = String(i).padStart(digits);
  const mark = current ? '▶' : ' ';
  if (i === 0) return [seg(`${mark}${num} ····· start (before the first event)`, base)];
  const ev = tl.events[i - 1];
  if (ev === undefined) return [seg(`${mark}${num}`, base)];
  // Practice: what a step does (its flags, a late drop, the note narrating it) stays hidden until it is shown.
  if (hiddenStep(s, i)) {
    const at = ev.at === undefined ? [] : [seg(`@${clock(ev.at, info)} `, { ...base, tone: 'muted' })];
    return [seg(`${mark}${num} ····· `, base), ...at, seg(ev.kind === 'note' ? 'note' : eventText(ev, info), base)];
  }
  const flags = tl.flagsAt(i);
  const parts: Segment[] = [seg(`${mark}${num} ${flagText(flags)} `, base)];
  if ((flags & STEP_LATE_DROP) !== 0) parts.push(seg('LATE ', { ...base, tone: 'late', bold: true }));
  if (ev.at !== undefined) parts.push(seg(`@${clock(ev.at, info)} `, { ...base, tone: 'muted' }));
  if (isManual(ev)) parts.push(seg('✎ ', { ...base, tone: 'key' }));
  parts.push(seg(eventText(ev, info), ev.kind === 'note' ? { ...base, tone: 'note' } : base));
  if (ev.note !== undefined && ev.kind !== 'note') parts.push(seg(` — ${printable(ev.note)}`, { ...base, tone: 'note' }));
  return parts;
}
