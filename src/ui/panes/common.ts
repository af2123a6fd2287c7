/** Pieces shared by the panes: the title line, scroll windows and word wrap. */
import { type Line, seg, textWidth } from '../lines.js';

/** The focused pane's title is inverse and marked with ▸, so focus shows without colour too. */
export function titleLine(title: string, focused: boolean, extra = ''): Line {
  return focused
    ? [seg(`▸${title} `, { tone: 'focus', inverse: true, bold: true }), seg(extra ? ` ${extra}` : '', { tone: 'muted' })]
    : [seg(` ${title} `, { tone: 'title', bold: true }), seg(extra ? ` ${extra}` : '', { tone: 'muted' })];
}

/** The visible part of `lines` for a scroll offset, clamped so the last page stays full. */
export function scrolled(lines: readonly Line[], height: number, offset: number): Line[] {
  return scrolledWindow({ length: lines.length, slice: (start, end) => lines.slice(start, end) }, height, offset);
}

/** Lines that can be built a window at a time: a big state or result builds only what shows. */
export interface LineSource {
  readonly length: number;
  /** Lines [start, end), clamped to [0, length) as Array.slice is. */
  slice(start: number, end: number): Line[];
}

/** `scrolled` over a line source: only the visible lines are built. */
export function scrolledWindow(lines: LineSource, height: number, offset: number): Line[] {
  const max = Math.max(0, lines.length - height);
  const start = Math.max(0, Math.min(offset, max));
  const out = lines.slice(start, Math.min(lines.length, start + height));
  if (start > 0 && out.length > 0) out[0] = [seg('↑ more', { tone: 'muted' })];
  if (start + height < lines.length && out.length > 0) out[out.length - 1] = [seg('↓ more', { tone: 'muted' })];
  return out;
}

/** Word wrap to `width` cells; words longer than a line are cut. */
export function wrap(text: string, width: number, indent = ''): string[] {
  if (width <= indent.length + 1) return [text];
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (textWidth(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') out.push(line);
    line = textWidth(indent + word) > width ? (indent + word).slice(0, width) : indent + word;
  }
  if (line !== '' || out.length === 0) out.push(line);
  return out;
}

export function pad(text: string, width: number): string {
  const w = textWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}
