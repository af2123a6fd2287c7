/** Pure-state helpers for pane and reducer tests: build a state and drive it through keys. */
import { plain } from '../../src/ui/lines.js';
import { reduce } from '../../src/ui/reducer.js';
import { screenLines } from '../../src/ui/screen.js';
import type { Session } from '../../src/ui/session.js';
import { initialState, type UiState } from '../../src/ui/state.js';
import { storySession } from './fake-timeline.js';

export function stateAt(step: number, session: Session = storySession(), size = { columns: 100, rows: 30 }): UiState {
  return { ...initialState(session, size), step };
}

export function keys(s: UiState, ...ks: string[]): UiState {
  return ks.reduce((acc, key) => reduce(acc, { t: 'key', key }), s);
}

export function screenText(s: UiState, columns: number, rows: number): string[] {
  return screenLines({ ...s, columns, rows }, columns, rows).map(plain);
}
