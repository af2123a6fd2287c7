/** Moving the cursor: shared by the reducer and its input modes. */
import type { UiState } from './state.js';

/** Moves to step `n` (clamped); a changelog selection past the new step's changelog is dropped. */
export function goStep(s: UiState, n: number): UiState {
  const tl = s.session.timeline;
  const step = Math.max(0, Math.min(n, tl.length));
  const selected = s.selected !== undefined && s.selected < tl.changelogSize(step) ? s.selected : undefined;
  return { ...s, step, selected };
}
