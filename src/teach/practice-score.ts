/**
 * The score of a practice run: per question, what was asked, the candidate's rows, the real ones
 * and the verdict; overall, the points over the questions. The same object is shown at the end
 * and written as JSON (`joinstep practice --score-out FILE`).
 */
import type { Timeline } from '../engine/types.js';
import type { ScenarioEvent } from '../scenario/types.js';
import { formatRow } from '../values/format.js';
import type { ValueContext } from '../values/literal.js';
import type { SqlType } from '../values/types.js';
import { answerText, gradeStep, type AnswerRow, type Verdict } from './practice-grade.js';
import { questionSteps, questionText } from './practice-questions.js';

export interface QuestionScore {
  readonly step: number;
  readonly event: string;
  readonly question: string;
  /** The candidate's rows as typed (empty: "nothing"); null when never answered. */
  readonly answer: readonly string[] | null;
  readonly expected: readonly string[];
  readonly verdict: Verdict | 'unanswered';
  readonly points: number;
}

export interface ScoreReport {
  readonly scenario: string;
  readonly file: string;
  readonly questions: readonly QuestionScore[];
  readonly asked: number;
  readonly answered: number;
  readonly points: number;
  /** points / asked, as a whole percentage (0 when nothing was asked). */
  readonly percent: number;
}

export interface ScoreInput {
  readonly name: string;
  readonly file: string;
  readonly timeline: Timeline;
  readonly outputTypes: readonly SqlType[];
  readonly valueCtx: ValueContext;
  readonly answers: Readonly<Record<number, readonly AnswerRow[]>>;
  readonly eventLabel: (ev: ScenarioEvent) => string;
}

export function scoreReport(input: ScoreInput): ScoreReport {
  const { timeline } = input;
  const questions = questionSteps(timeline).map((step): QuestionScore => {
    const ev = timeline.events[step - 1];
    const real = timeline.at(step).emitted;
    const answer = input.answers[step];
    const grade = answer === undefined ? undefined : gradeStep(answer, real, input.outputTypes, input.valueCtx);
    return {
      step,
      event: ev === undefined ? '' : input.eventLabel(ev),
      question: questionText(ev),
      answer: answer === undefined ? null : answer.map(answerText),
      expected: real.map((e) => formatRow(e.kind, e.row, input.outputTypes)),
      verdict: grade?.verdict ?? 'unanswered',
      points: grade?.points ?? 0,
    };
  });
  const points = questions.reduce((n, q) => n + q.points, 0);
  return {
    scenario: input.name,
    file: input.file,
    questions,
    asked: questions.length,
    answered: questions.filter((q) => q.answer !== null).length,
    points,
    percent: questions.length === 0 ? 0 : Math.round((100 * points) / questions.length),
  };
}
