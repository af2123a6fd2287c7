/** Moving the cursor: shared by the reducer and its input modes. */
import type { UiState } from './state.js';

/** Moves to step `n` (clamped); a changelog selection past the new step's changelog is dropped. */
export function goStep(s: UiState, n: number): UiState {
  const tl = s.session.timeline;
  const step = Math.max(0, Math.min(n, tl.length));
  const selected = s.selected !== undefined && s.selected < tl.changelogSize(step) ? s.selected : undefined;
  return { ...s, step, selected };
}

/**
 * Moves to step `n`, or as far as the run is computed and says so: while a big run is still
 * computed in pieces, a step past the ready ones does not exist yet (the key never waits for it).
 */
export function goStepOrSay(s: UiState, n: number): UiState {
  const moved = goStep(s, n);
  const c = s.computing;
  if (c === undefined || n <= s.session.timeline.length) return moved;
  const why = c.error !== undefined ? 'the run stopped on an error before it' : `still computing: ${readyText(s)}`;
  return { ...moved, message: `step ${n.toLocaleString('en-US')} is not computed (${why})` };
}

/** `120,000 of 1,000,000 steps ready` */
export function readyText(s: UiState): string {
  const c = s.computing;
  if (c === undefined) return `${s.session.timeline.length.toLocaleString('en-US')} steps`;
  const r = c.reading;
  if (r !== undefined) return `${c.ready.toLocaleString('en-US')} steps ready, ${r.done.toLocaleString('en-US')}${r.total !== undefined ? ` of ${r.total.toLocaleString('en-US')}` : ''} events read`;
  return `${c.ready.toLocaleString('en-US')} of ${c.total.toLocaleString('en-US')} steps ready`;
}
