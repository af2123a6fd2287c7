/**
 * The pane registry: each pane's title and content as a pure function of the state and its box.
 * Scrolling panes are windowed by the state's scroll offset: the state and result panes build
 * only the visible lines (a big run has thousands), the small panes build all theirs; the
 * timeline and changelog window themselves (they can be 100k long).
 */
import { type Line, seg } from '../lines.js';
import type { PaneId, UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { changelogLines, changelogTitle } from './changelog-pane.js';
import { type LineSource, scrolled, scrolledWindow, titleLine } from './common.js';
import { isSideBySide, sideBySideBox } from './side-by-side.js';
import { resultSource, resultTitle } from './result-pane.js';
import { stateSource, stateTitle } from './state-pane.js';
import { timelineLines } from './timeline-pane.js';
import { watermarkLines } from './watermark-pane.js';
import { whyLines, whyTitle } from './why-pane.js';
import { compareBox } from './compare-pane.js';
import { practiceLines, practiceShown, practiceTitle } from './practice-pane.js';

const WAIT: Line[] = [[seg('… shown when the keys pause', { dim: true })]];
const WAITING: LineSource = { length: 1, slice: (start, end) => WAIT.slice(start, end) };

/** A pane that needs a slow engine query draws it only once the step is settled. */
function heavyReady(s: UiState, query: 'result' | 'state0' | 'state1'): boolean {
  return s.settled !== false || stepView(s.session.timeline, s.step).ready(query);
}

/** Whether some pane of this step waits for a slow query (so App must settle the step). */
export function hasDeferred(s: UiState): boolean {
  const view = stepView(s.session.timeline, s.step);
  return !view.ready('result') || !view.ready('state0') || !view.ready('state1');
}

interface PaneDef {
  title(s: UiState): [string, string];
  /** All lines, for panes that scroll by offset. */
  lines?(s: UiState, width: number): Line[];
  /** The same, for panes whose lines can be built a window at a time (only what shows is built). */
  source?(s: UiState, width: number): LineSource;
  /** Exactly the visible lines, for panes that window themselves. */
  view?(s: UiState, width: number, height: number): Line[];
}

export const PANE_DEFS: Readonly<Record<PaneId, PaneDef>> = {
  timeline: {
    title: (s) => ['timeline', `step ${s.step}/${s.session.timeline.length}`],
    view: (s, _w, h) => timelineLines(s, h),
  },
  left: { title: (s) => [stateTitle(s, 0), ''], source: (s) => (heavyReady(s, 'state0') ? stateSource(s, 0) : WAITING) },
  right: { title: (s) => [stateTitle(s, 1), ''], source: (s) => (heavyReady(s, 'state1') ? stateSource(s, 1) : WAITING) },
  watermarks: { title: () => ['watermarks', ''], lines: (s) => watermarkLines(s) },
  changelog: { title: changelogTitle, view: (s, _w, h) => changelogLines(s, h) },
  result: { title: (s) => (heavyReady(s, 'result') ? resultTitle(s) : ['result', '…']), source: (s) => (heavyReady(s, 'result') ? resultSource(s) : WAITING) },
  // While practising, the why pane holds the question, then the answer beside the real rows.
  why: {
    title: (s) => [practiceShown(s) ? practiceTitle(s) : whyTitle(s), ''],
    lines: (s, w) => (practiceShown(s) ? practiceLines(s, w) : whyLines(s, w)),
  },
};

/** A pane's full box: its title line then `height - 1` content lines. */
export function renderPane(s: UiState, id: PaneId, width: number, height: number): Line[] {
  if (id === 'changelog' && s.compare !== undefined) return compareBox(s, width, height);
  if (id === 'changelog' && isSideBySide(s)) return sideBySideBox(s, width, height);
  const def = PANE_DEFS[id];
  const [title, extra] = def.title(s);
  const inner = Math.max(0, height - 1);
  const offset = s.scroll[id] ?? 0;
  const body =
    def.view !== undefined ? def.view(s, width, inner)
    : def.source !== undefined ? scrolledWindow(def.source(s, width), inner, offset)
    : scrolled(def.lines?.(s, width) ?? [], inner, offset);
  // One cell of margin between the column separator and the text.
  return [titleLine(title, s.focus === id, extra), ...body.map((l) => [seg(' '), ...l])];
}

/** How many lines a scrolling pane has (0 for self-windowing panes). */
export function paneLength(s: UiState, id: PaneId, width: number): number {
  const def = PANE_DEFS[id];
  return def.source?.(s, width).length ?? def.lines?.(s, width).length ?? 0;
}
