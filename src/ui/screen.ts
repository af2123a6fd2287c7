/**
 * The whole frame as a pure function of (state, columns, rows): a status line, columns of pane
 * lines, a key bar; `rows - 1` lines in all, none wider than its column, so nothing can wrap,
 * overflow or tear. `screenLayout` is what Frame draws (unpadded: Ink places the columns);
 * `screenLines` is the same content composed into padded full-width lines (tests read it).
 */
import { helpLines, keyBar, statusLine } from './chrome.js';
import { layout } from './layout.js';
import { box, clipBox, type Line, type Segment, seg } from './lines.js';
import { wrap } from './panes/common.js';
import { renderPane } from './panes/index.js';
import { sessionViews } from './session.js';
import type { UiState } from './state.js';
import { practiceScore } from './practice.js';
import { scoreLines } from './practice-score-view.js';

export interface ScreenColumn {
  readonly width: number;
  readonly lines: readonly Segment[][];
}

export interface ScreenLayout {
  readonly width: number;
  readonly top: readonly Segment[][];
  /** Body height in lines; every column has exactly this many. */
  readonly body: number;
  readonly columns: readonly ScreenColumn[];
  readonly bottom: readonly Segment[][];
}

export function screenLayout(s: UiState, columns: number, rows: number): ScreenLayout {
  const l = layout(columns, rows, sessionViews(s.session).length > 1 || s.compare !== undefined, s.practice !== undefined);
  if (l.tooSmall) return { width: columns, top: clipBox(tooSmallLines(columns, rows), columns, l.height), body: 0, columns: [], bottom: [] };
  const top = clipBox([statusLine(s)], columns, 1);
  const bottom = clipBox([keyBar(s)], columns, 1);
  if (s.mode.k === 'score') return { width: columns, top, body: l.body, columns: [{ width: columns, lines: clipBox(scoreLines(practiceScore(s), columns, l.body, s.practice?.scoreOut), columns, l.body) }], bottom };
  if (s.mode.k === 'help') return { width: columns, top, body: l.body, columns: [{ width: columns, lines: clipBox(helpLines(columns, l.body), columns, l.body) }], bottom };
  const cols = l.columns.map((c) => ({ width: c.width, lines: c.panes.flatMap((p) => clipBox(renderPane(s, p.id, c.width, p.height), c.width, p.height)) }));
  return { width: columns, top, body: l.body, columns: cols, bottom };
}

export const SEPARATOR = seg('│', { tone: 'muted' });

export function screenLines(s: UiState, columns: number, rows: number): Segment[][] {
  const sl = screenLayout(s, columns, rows);
  const body: Segment[][] = [];
  const blocks = sl.columns.map((c) => box(c.lines, c.width, sl.body));
  for (let y = 0; y < sl.body; y++) {
    const line: Segment[] = [];
    blocks.forEach((b, i) => {
      if (i > 0) line.push(SEPARATOR);
      line.push(...(b[y] ?? []));
    });
    body.push(line);
  }
  const height = Math.max(1, rows - 1);
  return box([...sl.top, ...body, ...sl.bottom], columns, height);
}

function tooSmallLines(columns: number, rows: number): Line[] {
  const msg = `joinstep needs a terminal of at least 80x24; this one is ${columns}x${rows}. Enlarge the window (or press q to quit).`;
  return wrap(msg, Math.max(1, columns - 1)).map((t) => [seg(t, { bold: true })]);
}
