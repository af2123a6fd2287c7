/**
 * Which steps practice mode asks about: every step that emits or retracts a row, and every step
 * the scenario marks with `ask:` (so "nothing" can be the right answer); `ask: false` opts out.
 */
import { STEP_EMIT, STEP_RETRACT, type Timeline } from '../engine/types.js';
import type { ScenarioEvent } from '../scenario/types.js';

export function isQuestion(timeline: Timeline, step: number): boolean {
  const ev = timeline.events[step - 1];
  if (ev === undefined) return false;
  if (ev.ask === false) return false;
  if (ev.ask !== undefined) return true;
  return (timeline.flagsAt(step) & (STEP_EMIT | STEP_RETRACT)) !== 0;
}

/** The first question step in (after, upTo], if any. */
export function nextQuestion(timeline: Timeline, after: number, upTo: number): number | undefined {
  for (let i = after + 1; i <= Math.min(upTo, timeline.length); i++) if (isQuestion(timeline, i)) return i;
  return undefined;
}

export function questionSteps(timeline: Timeline): number[] {
  const out: number[] = [];
  for (let i = 1; i <= timeline.length; i++) if (isQuestion(timeline, i)) out.push(i);
  return out;
}

/** The question to show: the scenario's own text, or the default one. */
export function questionText(ev: ScenarioEvent | undefined): string {
  return typeof ev?.ask === 'string' ? ev.ask : 'Which rows does the join emit when this event arrives?';
}
