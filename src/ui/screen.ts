/**
 * The whole frame as a pure function of (state, columns, rows): exactly `rows - 1` lines, each
 * exactly `columns` cells. Ink only prints these lines, so nothing can wrap, overflow or tear.
 */
import { helpLines, keyBar, statusLine } from './chrome.js';
import { layout } from './layout.js';
import { box, type Line, type Segment, seg } from './lines.js';
import { wrap } from './panes/common.js';
import { renderPane } from './panes/index.js';
import type { UiState } from './state.js';

export function screenLines(s: UiState, columns: number, rows: number): Segment[][] {
  const l = layout(columns, rows);
  if (l.tooSmall) return box(tooSmallLines(columns, rows), columns, l.height);
  const body = s.mode.k === 'help' ? box(helpLines(columns, l.body), columns, l.body) : composeColumns(s, l.columns, l.body);
  return [...box([statusLine(s)], columns, 1), ...body, ...box([keyBar(s)], columns, 1)];
}

function composeColumns(s: UiState, columns: ReturnType<typeof layout>['columns'], height: number): Segment[][] {
  const blocks = columns.map((c) => box(c.panes.flatMap((p) => box(renderPane(s, p.id, c.width, p.height), c.width, p.height)), c.width, height));
  const out: Segment[][] = [];
  for (let y = 0; y < height; y++) {
    const line: Segment[] = [];
    blocks.forEach((b, i) => {
      if (i > 0) line.push(seg('│', { tone: 'muted' }));
      line.push(...(b[y] ?? []));
    });
    out.push(line);
  }
  return out;
}

function tooSmallLines(columns: number, rows: number): Line[] {
  const msg = `joinstep needs a terminal of at least 80x24; this one is ${columns}x${rows}. Enlarge the window (or press q to quit).`;
  return wrap(msg, Math.max(1, columns - 1)).map((t) => [seg(t, { bold: true })]);
}
