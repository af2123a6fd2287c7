/**
 * Why: for the selected changelog row, its recorded `Why`; otherwise for the current step, the
 * rows it emitted with their reasons, or, when nothing came out, why not (from the trace).
 */
import { type Line, seg } from '../lines.js';
import { procTimeAt } from '../session.js';
import type { UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { emittedText } from '../text.js';
import { printable } from '../../values/printable.js';
import { kindTone } from '../theme.js';
import { equalTimersNote, reasonText, whyNot } from '../why.js';
import { wrap } from './common.js';

export function whyLines(s: UiState, width: number): Line[] {
  const tl = s.session.timeline;
  const info = s.session.info;
  const w = Math.max(10, width - 2);
  const text = (t: string, style = {}): Line[] => wrap(t, w, '  ').map((l) => [seg(l, style)]);
  if (s.selected !== undefined) {
    const e = tl.changelogRange(s.step, s.selected, s.selected + 1)[0];
    if (e !== undefined) {
      const out: Line[] = [[seg(`row ${s.selected + 1}, emitted at step ${e.step}: `), seg(emittedText(e, info), { tone: kindTone(e.kind), bold: true })]];
      out.push(...text(`rule ${printable(e.why.rule)}: ${printable(e.why.text)}`));
      for (const r of e.why.rows ?? []) out.push(...text(`· ${printable(r)}`, { tone: 'muted' }));
      return out;
    }
  }
  const view = stepView(tl, s.step);
  const rec = view.record;
  const out: Line[] = [];
  if (rec.event?.note !== undefined) out.push(...text(`note: ${printable(rec.event.note)}`, { tone: 'note' }));
  if (s.step === 0) return [...out, ...text('step 0: nothing has happened yet; n steps forward.', { dim: true })];
  if (rec.emitted.length > 0) {
    out.push([seg(`step ${s.step} emitted ${rec.emitted.length} row${rec.emitted.length === 1 ? '' : 's'}:`, { bold: true })]);
    for (const e of rec.emitted) {
      out.push([seg(emittedText(e, info), { tone: kindTone(e.kind), bold: true })]);
      out.push(...text(`  ${printable(e.why.text)}`, { tone: 'muted' }));
    }
    const order = equalTimersNote(rec, info);
    if (order !== undefined) out.push(...text(order, { tone: 'muted' }));
    return out;
  }
  const reasons = whyNot(rec, view.watermarks, info, procTimeAt(tl, info.dateMs, s.step));
  out.push([seg(`nothing came out of step ${s.step}`, { bold: true })]);
  if (reasons.length === 0) out.push(...text('this event changed nothing the join can see'));
  for (const r of reasons) out.push(...text(reasonText(r), r.kind === 'dropped' || r.kind === 'expired' ? { tone: 'warn' } : {}));
  return out;
}

export function whyTitle(s: UiState): string {
  return s.selected !== undefined ? `why · row ${s.selected + 1}` : `why · step ${s.step}`;
}
