/**
 * Where each pane goes for a terminal size: a pure function, so every size from 80x24 to 250x70
 * (and every resize) gets a layout that adds up to exactly the frame, never more.
 */
import type { PaneId } from './state.js';

export const MIN_COLUMNS = 80;
export const MIN_ROWS = 24;

export interface PaneBox {
  readonly id: PaneId;
  /** Total lines, including the pane's title line. */
  readonly height: number;
}

export interface Column {
  readonly width: number;
  readonly panes: readonly PaneBox[];
}

export interface Layout {
  /** Lines Ink may draw: one less than the terminal (a full-height frame makes Ink clear the scrollback). */
  readonly height: number;
  readonly width: number;
  readonly tooSmall: boolean;
  readonly body: number;
  readonly columns: readonly Column[];
}

type Spec = readonly { readonly share: number; readonly panes: readonly (readonly [PaneId, number])[] }[];

const WIDE: Spec = [
  { share: 0.3, panes: [['timeline', 3], ['watermarks', 2]] },
  { share: 0.35, panes: [['left', 1], ['right', 1]] },
  { share: 0.35, panes: [['changelog', 4], ['result', 2], ['why', 3]] },
];

const NARROW: Spec = [
  { share: 0.45, panes: [['timeline', 4], ['watermarks', 3], ['why', 3]] },
  { share: 0.55, panes: [['left', 2], ['right', 2], ['changelog', 3], ['result', 2]] },
];

/** Side by side (several queries): the changelog columns get the most width. */
const WIDE_SIDE: Spec = [
  { share: 0.2, panes: [['timeline', 3], ['watermarks', 2]] },
  { share: 0.2, panes: [['left', 1], ['right', 1], ['why', 1]] },
  { share: 0.6, panes: [['changelog', 4], ['result', 2]] },
];

const NARROW_SIDE: Spec = [
  { share: 0.35, panes: [['timeline', 4], ['watermarks', 3], ['why', 3]] },
  { share: 0.65, panes: [['left', 2], ['right', 2], ['changelog', 4], ['result', 1]] },
];

/** Practice: the why pane holds the question and the answers, so it gets room. */
const WIDE_PRACTICE: Spec = [
  { share: 0.3, panes: [['timeline', 3], ['watermarks', 2]] },
  { share: 0.3, panes: [['left', 1], ['right', 1]] },
  { share: 0.4, panes: [['why', 5], ['changelog', 3], ['result', 2]] },
];

const NARROW_PRACTICE: Spec = [
  { share: 0.45, panes: [['timeline', 4], ['watermarks', 2], ['left', 2], ['right', 2]] },
  { share: 0.55, panes: [['why', 6], ['changelog', 3], ['result', 2]] },
];

/** Splits `total` by weights into integers that add up to exactly `total`, each at least `min`. */
export function split(total: number, weights: readonly number[], min: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(min, Math.floor((total * w) / sum)));
  let rest = total - sizes.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0; i = (i + 1) % sizes.length, rest--) sizes[i] = (sizes[i] ?? 0) + 1;
  for (let i = sizes.length - 1; rest < 0 && i >= 0; i--) {
    const take = Math.min(-rest, (sizes[i] ?? 0) - min);
    sizes[i] = (sizes[i] ?? 0) - take;
    rest += take;
  }
  return sizes;
}

export function layout(columns: number, rows: number, sideBySide = false, practice = false): Layout {
  const height = Math.max(1, rows - 1);
  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  const body = Math.max(0, height - 2);
  if (tooSmall) return { height, width: columns, tooSmall, body, columns: [] };
  const spec = practice ? (columns >= 150 ? WIDE_PRACTICE : NARROW_PRACTICE) : columns >= 150 ? (sideBySide ? WIDE_SIDE : WIDE) : sideBySide ? NARROW_SIDE : NARROW;
  const seps = spec.length - 1;
  const widths = split(columns - seps, spec.map((c) => c.share), 20);
  return {
    height,
    width: columns,
    tooSmall,
    body,
    columns: spec.map((col, i) => {
      const heights = split(body, col.panes.map(([, w]) => w), 2);
      return { width: widths[i] ?? 20, panes: col.panes.map(([id], j) => ({ id, height: heights[j] ?? 2 })) };
    }),
  };
}

/** The box of one pane in a layout (content lines = height - 1). */
export function paneBox(l: Layout, id: PaneId): { width: number; height: number } | undefined {
  for (const c of l.columns) {
    const p = c.panes.find((b) => b.id === id);
    if (p !== undefined) return { width: c.width, height: p.height };
  }
  return undefined;
}
