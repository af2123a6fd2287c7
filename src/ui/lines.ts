/**
 * Styled text lines: the one intermediate form every pane produces. A pane is a pure function
 * (data, width, height) -> Line[]; the screen composes panes side by side, so what reaches Ink is
 * exactly `rows - 1` lines, none wider than the terminal (no wrapping, no garbage).
 */
import type { Tone } from './theme.js';

export interface Style {
  readonly tone?: Tone;
  readonly bold?: boolean;
  readonly inverse?: boolean;
  readonly dim?: boolean;
}

export interface Segment extends Style {
  readonly text: string;
}

export type Line = readonly Segment[];

export function seg(text: string, style: Style = {}): Segment {
  return { text, ...style };
}

/** Terminal cell width of one code point: wide East Asian and emoji ranges take two cells. */
function cellWidth(cp: number): number {
  if (cp < 0x1100) return 1;
  if (
    (cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += cellWidth(ch.codePointAt(0) ?? 0);
  return w;
}

/** Cuts text to at most `width` cells, marking the cut with an ellipsis. */
export function clip(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = cellWidth(ch.codePointAt(0) ?? 0);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Fits a line to exactly `width` cells: clipped when longer, padded with spaces when shorter. */
export function fit(line: Line, width: number, pad: Style = {}): Segment[] {
  const out = clipLine(line, width);
  const left = width - out.reduce((w, s) => w + textWidth(s.text), 0);
  if (left > 0) out.push({ ...pad, text: ' '.repeat(left) });
  return out;
}

/** Clips a line to at most `width` cells, marking a cut with an ellipsis. */
export function clipLine(line: Line, width: number): Segment[] {
  const out: Segment[] = [];
  let left = width;
  for (const s of line) {
    if (left <= 0) break;
    const w = textWidth(s.text);
    if (w <= left) {
      out.push(s);
      left -= w;
    } else {
      out.push({ ...s, text: clip(s.text, left) });
      break;
    }
  }
  return out;
}

/**
 * Exactly `height` lines of at most `width` cells, not padded: what Ink draws, where every
 * padding space would cost its per-character work (stack-spike §3) for nothing.
 */
export function clipBox(lines: readonly Line[], width: number, height: number): Segment[][] {
  const out: Segment[][] = [];
  for (let i = 0; i < height; i++) out.push(clipLine(lines[i] ?? [], width));
  return out;
}

/** Exactly `height` lines of exactly `width` cells. */
export function box(lines: readonly Line[], width: number, height: number): Segment[][] {
  const out: Segment[][] = [];
  for (let i = 0; i < height; i++) out.push(fit(lines[i] ?? [], width));
  return out;
}

export function plain(line: Line): string {
  return line.map((s) => s.text).join('');
}

/** A window of `height` items that keeps index `focus` visible, preferring `offset`. */
export function windowStart(total: number, height: number, focus: number, offset?: number): number {
  if (total <= height) return 0;
  let start = offset ?? focus - Math.floor(height / 2);
  if (focus < start) start = focus;
  if (focus >= start + height) start = focus - height + 1;
  return Math.max(0, Math.min(start, total - height));
}
