/**
 * The practice pane (in place of the why pane while practising): the question being answered,
 * with its hint and the rows typed so far; after the answer, the candidate's rows beside the
 * real ones (✓ matched, ✗ not), the verdict, and the why text that decided each real row.
 */
import { gradeStep, answerText, type AnswerRow } from '../../teach/practice-grade.js';
import { questionText } from '../../teach/practice-questions.js';
import { type Line, seg } from '../lines.js';
import { procTimeAt } from '../session.js';
import type { Mode, UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { emittedText, eventText } from '../text.js';
import { printable } from '../../values/printable.js';
import { kindTone } from '../theme.js';
import { reasonText, whyNot } from '../why.js';
import { pad, wrap } from './common.js';

export const VERDICT_TEXT = { right: '✓ right', order: '½ the right rows, in another order', wrong: '✗ not this', unanswered: '· not answered' } as const;

/** Whether the practice pane has something to show (else the why pane shows as usual). */
export function practiceShown(s: UiState): boolean {
  const p = s.practice;
  if (p === undefined) return false;
  return s.mode.k === 'answer' || (p.answers[s.step] !== undefined && s.selected === undefined);
}

export function practiceTitle(s: UiState): string {
  return s.mode.k === 'answer' ? `practice · predict step ${s.mode.step}` : `practice · step ${s.step}: you / real`;
}

export function practiceLines(s: UiState, width: number): Line[] {
  const w = Math.max(10, width - 2);
  const text = (t: string, style = {}): Line[] => wrap(t, w, '  ').map((l) => [seg(l, style)]);
  if (s.mode.k === 'answer') return questionLines(s, s.mode, text);
  const answer = s.practice?.answers[s.step];
  return answer === undefined ? [] : revealLines(s, answer, w, text);
}

function questionLines(s: UiState, mode: Extract<Mode, { k: 'answer' }>, text: (t: string, style?: object) => Line[]): Line[] {
  const ev = s.session.timeline.events[mode.step - 1];
  const out: Line[] = [];
  if (ev !== undefined) out.push(...text(`next event: ${eventText(ev, s.session.info)}`, { bold: true }));
  out.push(...text(printable(questionText(ev)), { tone: 'key' }));
  if (ev?.hint !== undefined) out.push(...text(`hint: ${printable(ev.hint)}`, { tone: 'note' }));
  out.push([seg(`columns: ${s.session.info.outputNames.map(printable).join(', ')}`, { tone: 'muted' })]);
  if (mode.rows.length === 0) out.push([seg('your rows: none yet', { dim: true })]);
  else {
    out.push([seg('your rows:', { bold: true })]);
    for (const r of mode.rows) out.push([seg(`  ${printable(answerText(r))}`, { tone: kindTone(r.kind) })]);
  }
  if (mode.error !== undefined) out.push(...text(printable(mode.error), { tone: 'warn', bold: true }));
  out.push(...text('type a row field by field below (or whole, +I[a, b]); empty kind + enter hands the rows in; `nothing` if no row comes out', { dim: true }));
  return out;
}

function revealLines(s: UiState, answer: readonly AnswerRow[], w: number, text: (t: string, style?: object) => Line[]): Line[] {
  const { info, timeline: tl } = s.session;
  const view = stepView(tl, s.step);
  const real = view.record.emitted;
  const grade = gradeStep(answer, real, info.outputTypes, { dateMs: info.dateMs, timeZone: info.timeZone });
  const out: Line[] = [[seg(VERDICT_TEXT[grade.verdict], { bold: true, inverse: true, tone: grade.verdict === 'right' ? 'insert' : grade.verdict === 'order' ? 'changed' : 'warn' })]];
  const lefts = answer.length === 0 ? ['  nothing'] : answer.map((a, i) => `${grade.answerMatched[i] ? '✓' : '✗'} ${printable(answerText(a))}`);
  const rights = real.length === 0 ? ['  nothing'] : real.map((r, i) => `${grade.realMatched[i] ? '✓' : '✗'} ${emittedText(r, info)}`);
  const leftStyle = (i: number) => (answer[i] === undefined ? {} : { tone: grade.answerMatched[i] ? ('insert' as const) : ('warn' as const) });
  const rightStyle = (i: number) => (real[i] === undefined ? {} : { tone: kindTone(real[i]!.kind), bold: true });
  const half = Math.max(8, Math.floor((w - 3) / 2));
  if (Math.max(...lefts.map((t) => t.length), ...rights.map((t) => t.length)) <= half) {
    out.push([seg(pad('you', half), { bold: true }), seg(' │ ', { tone: 'muted' }), seg('real', { bold: true })]);
    for (let i = 0; i < Math.max(lefts.length, rights.length); i++) {
      out.push([seg(pad(lefts[i] ?? '', half), leftStyle(i)), seg(' │ ', { tone: 'muted' }), seg(rights[i] ?? '', rightStyle(i))]);
    }
  } else {
    // Too wide for two columns: the answer above the real rows, each row whole.
    out.push([seg('you', { bold: true })], ...lefts.map((t, i) => [seg(t, leftStyle(i))]));
    out.push([seg('real', { bold: true })], ...rights.map((t, i) => [seg(t, rightStyle(i))]));
  }
  out.push([seg('why', { bold: true })]);
  if (real.length > 0) for (const e of real) out.push(...text(`${emittedText(e, info)}: ${printable(e.why.text)}`, { tone: 'muted' }));
  else {
    const reasons = whyNot(view.record, view.watermarks, info, procTimeAt(tl, info.dateMs, s.step));
    if (reasons.length === 0) out.push(...text('this event changed nothing the join can see', { tone: 'muted' }));
    for (const r of reasons) out.push(...text(reasonText(r), { tone: 'muted' }));
  }
  const note = view.record.event?.note;
  if (note !== undefined) out.push(...text(`note: ${printable(note)}`, { tone: 'note' }));
  return out;
}
