/**
 * Practice mode in the app: the candidate predicts each asked step's rows before seeing them.
 * `revealed` is the furthest step shown; every move past it stops before the first unanswered
 * question (src/teach/practice-questions.ts) and asks it. The panes hide what lies ahead
 * (notes and flags of later steps in the timeline); the changelog, result and why panes only
 * ever show steps up to the cursor, which never passes `revealed`.
 */
import type { AnswerRow } from '../teach/practice-grade.js';
import { nextQuestion } from '../teach/practice-questions.js';
import { scoreReport, type ScoreReport } from '../teach/practice-score.js';
import type { CommandId } from './keymap.js';
import { goStep } from './navigate.js';
import type { UiState } from './state.js';
import { eventText } from './text.js';

export interface PracticeState {
  /** The furthest step whose output has been shown. */
  readonly revealed: number;
  /** The candidate's rows per answered step (empty: "nothing"). */
  readonly answers: Readonly<Record<number, readonly AnswerRow[]>>;
  /** Where the score JSON goes (`joinstep practice --score-out`). */
  readonly scoreOut?: string;
}

/** Keys that would add or change steps, or jump by what later steps do: off while practising. */
export const PRACTICE_OFF: readonly CommandId[] = ['watermark', 'idle', 'clock', 'runTo', 'insertEvent', 'deleteEvent', 'moveEarlier', 'moveLater', 'duplicateEvent', 'save'];

export function startPractice(s: UiState, scoreOut?: string): UiState {
  if (s.manual > 0 || s.edit !== undefined) return { ...s, message: 'practice runs the file as written: reload (r) first' };
  const practice: PracticeState = { revealed: s.step, answers: {}, ...(scoreOut !== undefined ? { scoreOut } : {}) };
  return { ...s, practice, playing: false, selected: undefined, message: `practice from step ${s.step}: n steps, and you predict every step that emits` };
}

/** A command in practice mode: handled here (blocked, end of run, toggle) or undefined = as usual. */
export function practiceCommand(s: UiState, c: CommandId): UiState | undefined {
  if (PRACTICE_OFF.includes(c)) return { ...s, message: 'not while practising (P shows the score and ends practice)' };
  if (c === 'practice') return { ...s, playing: false, mode: { k: 'score' }, effect: { kind: 'score', id: (s.effect?.id ?? 0) + 1 } };
  if (c === 'next' && s.step >= s.session.timeline.length) return { ...s, playing: false, mode: { k: 'score' }, effect: { kind: 'score', id: (s.effect?.id ?? 0) + 1 } };
  return undefined;
}

/** After any action: the cursor never passes an unanswered question; it stops before it and asks. */
export function guardPractice(s: UiState): UiState {
  const p = s.practice;
  if (p === undefined || s.mode.k === 'answer' || s.mode.k === 'score' || s.step <= p.revealed) return s;
  const tl = s.session.timeline;
  let from = p.revealed;
  for (;;) {
    const q = nextQuestion(tl, from, s.step);
    if (q === undefined) return { ...s, practice: { ...p, revealed: s.step } };
    if (p.answers[q] === undefined) {
      const before = goStep(s, q - 1);
      return { ...before, playing: false, practice: { ...p, revealed: q - 1 }, mode: askMode(q, s.session.info.outputNames.length) };
    }
    from = q;
  }
}

export function askMode(step: number, columns: number): UiState['mode'] {
  return { k: 'answer', step, rows: [], field: 0, values: Array.from({ length: columns + 1 }, () => '') };
}

/** The candidate's answer for `step` is in: record it and show the step. */
export function submitAnswer(s: UiState, step: number, rows: readonly AnswerRow[]): UiState {
  const p = s.practice;
  if (p === undefined) return s;
  const practice = { ...p, answers: { ...p.answers, [step]: rows }, revealed: Math.max(p.revealed, step) };
  return { ...goStep({ ...s, practice, mode: { k: 'normal' } }, step), selected: undefined };
}

export function practiceScore(s: UiState): ScoreReport | undefined {
  const p = s.practice;
  if (p === undefined) return undefined;
  const info = s.session.info;
  return scoreReport({
    name: info.name,
    file: info.file,
    timeline: s.session.timeline,
    outputTypes: info.outputTypes,
    valueCtx: { dateMs: info.dateMs, timeZone: info.timeZone },
    answers: p.answers,
    eventLabel: (ev) => eventText(ev, info),
  });
}

/** Whether step `i` of the timeline is still hidden from the candidate. */
export function hiddenStep(s: UiState, i: number): boolean {
  return s.practice !== undefined && i > s.practice.revealed;
}
