/** Scroll limits, from the same layout and pane content the screen draws. */
import { sessionViews } from './session.js';
import { layout, paneBox } from './layout.js';
import { paneLength } from './panes/index.js';
import type { PaneId, UiState } from './state.js';

export function pageSize(s: UiState): number {
  const box = paneBox(layout(s.columns, s.rows, sessionViews(s.session).length > 1 || s.compare !== undefined, s.practice !== undefined), s.focus);
  return Math.max(1, (box?.height ?? 10) - 2);
}

export function maxScroll(s: UiState, id: PaneId): number {
  const box = paneBox(layout(s.columns, s.rows, sessionViews(s.session).length > 1 || s.compare !== undefined, s.practice !== undefined), id);
  if (box === undefined) return 0;
  return Math.max(0, paneLength(s, id, box.width) - (box.height - 1));
}
