/**
 * The time diagram as SVG, the picture people draw on a whiteboard: event time across, arrival
 * (step, with its processing time) down; each row a mark of its table's shape, the join
 * watermark as a staircase line, late rows ringed, dropped rows crossed out, what each step
 * emitted written at its right, and the current step banded (later steps faded). Shapes and
 * dash patterns carry every distinction, so the monochrome form reads as well as the colour one.
 */
import { WM_MAX, WM_MIN } from '../engine/types.js';
import { formatClock } from '../values/time.js';
import type { DiagramData, DiagramMark, DiagramStep } from './diagram-data.js';
import { xmlText } from './xml-text.js';

export interface DiagramOptions {
  readonly mono?: boolean;
}

interface Palette {
  readonly lanes: readonly string[];
  readonly laneFill: readonly string[];
  readonly watermark: string;
  readonly late: string;
  readonly dropped: string;
  readonly insert: string;
  readonly retract: string;
  readonly band: string;
  readonly ink: string;
  readonly muted: string;
  readonly grid: string;
}

const COLOUR: Palette = {
  lanes: ['#1f5fa8', '#d9631e', '#2a8a3e', '#7a4eb0'],
  laneFill: ['#1f5fa8', '#d9631e', '#2a8a3e', '#7a4eb0'],
  watermark: '#8e2a9e',
  late: '#d99a00',
  dropped: '#c62828',
  insert: '#1a6e33',
  retract: '#b3261e',
  band: '#fff1b8',
  ink: '#1b1b1b',
  muted: '#6b6b6b',
  grid: '#e3e3e3',
};

const MONO: Palette = {
  lanes: ['#000000', '#000000', '#000000', '#000000'],
  // Hollow stays for retractions: the first table is grey, not white.
  laneFill: ['#9a9a9a', '#000000', '#ffffff', '#9a9a9a'],
  watermark: '#000000',
  late: '#000000',
  dropped: '#000000',
  insert: '#000000',
  retract: '#000000',
  band: '#e6e6e6',
  ink: '#000000',
  muted: '#555555',
  grid: '#dddddd',
};

const FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif';
const MONO_FONT = 'DejaVu Sans Mono, Menlo, Consolas, monospace';

/** Layout, in SVG user units (px). */
export const GEOMETRY = {
  width: 1100,
  gutter: 96,
  plotLeft: 290,
  plotRight: 720,
  noTimeWidth: 50,
  notesLeft: 750,
  top: 96,
  lineHeight: 22,
  legendHeight: 64,
} as const;

const TICKS_MS = [1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000];

function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const finite = (ms: number): boolean => ms > WM_MIN && ms < WM_MAX;

const DAY_MS = 86_400_000;

/**
 * A tick of 1, 2 or 5 times a power of ten days, for a range longer than eight days: at most
 * eight ticks however far apart the times are (rows in 1970 and in 9999 would otherwise take
 * three million one-day ticks, and half a gigabyte of SVG).
 */
function dayTick(span: number): number {
  for (let days = 1; ; days *= 10) {
    for (const k of [1, 2, 5]) if (span / (k * days * DAY_MS) <= 8) return k * days * DAY_MS;
  }
}

/** The event-time range shown: every mark's time and every finite watermark, padded. */
export function timeRange(data: DiagramData): { from: number; to: number; tick: number } | undefined {
  const times = [...data.marks.flatMap((m) => (m.time === undefined ? [] : [m.time])), ...data.steps.map((s) => s.watermark).filter(finite)];
  if (times.length === 0) return undefined;
  let lo = Math.min(...times);
  let hi = Math.max(...times);
  if (hi - lo < 60_000) {
    lo -= 30_000;
    hi += 30_000;
  }
  const pad = (hi - lo) * 0.06;
  const tick = TICKS_MS.find((t) => (hi - lo + 2 * pad) / t <= 8) ?? dayTick(hi - lo + 2 * pad);
  return { from: Math.floor((lo - pad) / tick) * tick, to: Math.ceil((hi + pad) / tick) * tick, tick };
}

/** The y of each step's first line, and its number of lines (a step with several emitted rows is taller). */
export function stepRows(data: DiagramData): Map<number, { y: number; lines: number }> {
  const rows = new Map<number, { y: number; lines: number }>();
  let y = GEOMETRY.top;
  for (const s of data.steps) {
    const lines = Math.max(1, s.emitted.length);
    rows.set(s.step, { y: y + GEOMETRY.lineHeight / 2, lines });
    y += lines * GEOMETRY.lineHeight;
  }
  return rows;
}

export function diagramSvg(data: DiagramData, options: DiagramOptions = {}): string {
  const p = options.mono === true ? MONO : COLOUR;
  const g = GEOMETRY;
  const range = timeRange(data);
  const hasNoTime = data.marks.some((m) => m.time === undefined);
  const plotLeft = hasNoTime ? g.plotLeft + g.noTimeWidth : g.plotLeft;
  const x = (ms: number): number => (range === undefined ? plotLeft : round(plotLeft + ((ms - range.from) / (range.to - range.from)) * (g.plotRight - plotLeft)));
  const rows = stepRows(data);
  const bodyBottom = g.top + data.steps.reduce((n, s) => n + Math.max(1, s.emitted.length), 0) * g.lineHeight;
  const height = bodyBottom + 24 + g.legendHeight;
  const out: string[] = [];
  const shown = data.steps.length === 0 ? 'no steps' : `steps ${data.steps[0]!.step}–${data.steps[data.steps.length - 1]!.step} of ${data.total}`;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${g.width}" height="${height}" viewBox="0 0 ${g.width} ${height}" role="img" aria-label="${xmlText(`time diagram: ${data.title}`)}" font-family="${FONT}" font-size="12">`,
    `<title>${xmlText(`${data.title}: event time across, arrival down (${shown}, current step ${data.current})`)}</title>`,
    `<rect x="0" y="0" width="${g.width}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="16" font-weight="bold" fill="${p.ink}">${xmlText(clipText(data.title, 110))}</text>`,
    `<text x="16" y="46" fill="${p.muted}">${xmlText(`event time →   arrival ↓ (step, processing time)   ·   ${shown}   ·   current step ${data.current}`)}</text>`,
  );
  // The current step's band first, under everything else.
  const cur = rows.get(data.current);
  if (cur !== undefined) {
    out.push(`<rect class="current" x="8" y="${cur.y - g.lineHeight / 2}" width="${g.width - 16}" height="${cur.lines * g.lineHeight}" fill="${p.band}" stroke="${p.ink}" stroke-width="0.8" stroke-dasharray="2 2"/>`);
  }
  // Axis: time ticks with grid lines, the no-time lane, column headings.
  out.push(`<g class="axis" fill="${p.muted}">`);
  if (range !== undefined) {
    for (let t = range.from; t <= range.to; t += range.tick) {
      const tx = x(t);
      out.push(`<line x1="${tx}" y1="${g.top - 14}" x2="${tx}" y2="${bodyBottom}" stroke="${p.grid}" stroke-width="1"/>`);
      out.push(`<text x="${tx}" y="${g.top - 20}" text-anchor="middle">${xmlText(formatClock(t, data.dateMs))}</text>`);
    }
  } else out.push(`<text x="${(plotLeft + g.plotRight) / 2}" y="${g.top - 20}" text-anchor="middle">no event times in this run</text>`);
  if (hasNoTime) {
    out.push(`<rect x="${g.plotLeft}" y="${g.top - 14}" width="${g.noTimeWidth - 8}" height="${bodyBottom - g.top + 14}" fill="none" stroke="${p.grid}" stroke-dasharray="3 3"/>`);
    out.push(`<text x="${g.plotLeft + (g.noTimeWidth - 8) / 2}" y="${g.top - 20}" text-anchor="middle">no time</text>`);
  }
  out.push(`<text x="36" y="${g.top - 20}" font-weight="bold" text-anchor="end">#</text>`, `<text x="44" y="${g.top - 20}" font-weight="bold">proc</text>`, `<text x="${g.gutter}" y="${g.top - 20}" font-weight="bold">event</text>`);
  out.push(`<text x="${g.notesLeft}" y="${g.top - 20}" font-weight="bold">emitted</text>`);
  out.push(`<line x1="${plotLeft - 4}" y1="${g.top - 12}" x2="${g.plotRight + 4}" y2="${g.top - 12}" stroke="${p.muted}"/>`);
  out.push('</g>');
  // Steps: the label at the left, emitted rows at the right; steps after the current one faded.
  for (const s of data.steps) {
    const r = rows.get(s.step)!;
    const after = s.step > data.current;
    out.push(`<g class="step" data-step="${s.step}"${after ? ' opacity="0.4"' : ''}>`);
    out.push(`<text x="36" y="${r.y + 4}" fill="${p.ink}" font-family="${MONO_FONT}" font-size="11" text-anchor="end">${s.step}</text>`);
    out.push(`<text x="44" y="${r.y + 4}" fill="${p.muted}" font-family="${MONO_FONT}" font-size="10">${xmlText(formatClock(s.procTime, data.dateMs))}</text>`);
    out.push(`<text x="${g.gutter}" y="${r.y + 4}" fill="${p.ink}" font-family="${MONO_FONT}" font-size="11">${xmlText(clipText(s.label, 28))}</text>`);
    s.emitted.forEach((row, k) => {
      const retract = row.startsWith('-');
      const ty = r.y + k * g.lineHeight + 4;
      out.push(`<text class="emitted" x="${g.notesLeft}" y="${ty}" fill="${retract ? p.retract : p.insert}" font-family="${MONO_FONT}" font-size="11"${retract ? ' font-style="italic"' : ' font-weight="bold"'}>${xmlText(clipText(row, 52))}</text>`);
    });
    if (s.emitted.length > 0) out.push(`<line x1="${g.plotRight + 6}" y1="${r.y}" x2="${g.notesLeft - 6}" y2="${r.y}" stroke="${p.muted}" stroke-width="1" marker-end="url(#arrow)"/>`);
    out.push('</g>');
  }
  out.push(watermarkPath(data, rows, x, p, bodyBottom));
  for (const m of data.marks) out.push(markSvg(m, rows, m.time === undefined ? g.plotLeft + (g.noTimeWidth - 8) / 2 : x(m.time), p, data.current));
  out.push(legend(data, bodyBottom + 24, p));
  out.push(`<defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="${p.muted}"/></marker></defs>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** The join watermark after each step, as a staircase: vertical within a step, across between steps. */
function watermarkPath(data: DiagramData, rows: Map<number, { y: number; lines: number }>, x: (ms: number) => number, p: Palette, bodyBottom: number): string {
  const g = GEOMETRY;
  const parts: string[] = [];
  let pen = false;
  let lastX = 0;
  let lastWm = WM_MIN;
  for (const s of data.steps) {
    const r = rows.get(s.step)!;
    const top = r.y - g.lineHeight / 2;
    const bottom = top + r.lines * g.lineHeight;
    if (!finite(s.watermark) && s.watermark !== WM_MAX) {
      pen = false;
      continue;
    }
    const wx = s.watermark === WM_MAX ? g.plotRight : x(s.watermark);
    parts.push(pen ? `H${wx} V${bottom}` : `M${wx},${top} V${bottom}`);
    pen = true;
    lastX = wx;
    lastWm = s.watermark;
  }
  if (parts.length === 0) return '<g class="watermark"></g>';
  return [
    '<g class="watermark">',
    `<path d="${parts.join(' ')}" fill="none" stroke="${p.watermark}" stroke-width="2.5" stroke-dasharray="7 4"/>`,
    // Named under the plot, where the line ends: the rows' labels never reach there.
    `<text x="${lastX}" y="${bodyBottom + 14}" fill="${p.watermark}" font-size="11" font-weight="bold" text-anchor="middle">${xmlText(`join watermark ${formatClock(lastWm, data.dateMs)}`)}</text>`,
    '</g>',
  ].join('\n');
}

function shape(lane: number, cx: number, cy: number, stroke: string, fill: string, dashed: boolean): string {
  const dash = dashed ? ' stroke-dasharray="2 2"' : '';
  const common = `stroke="${stroke}" stroke-width="1.8" fill="${fill}"${dash}`;
  switch (lane % 4) {
    case 0:
      return `<circle cx="${cx}" cy="${cy}" r="6" ${common}/>`;
    case 1:
      return `<rect x="${cx - 5.5}" y="${cy - 5.5}" width="11" height="11" ${common}/>`;
    case 2:
      return `<path d="M${cx},${cy - 7} L${cx + 7},${cy} L${cx},${cy + 7} L${cx - 7},${cy} z" ${common}/>`;
    default:
      return `<path d="M${cx},${cy - 7} L${cx + 7},${cy + 6} L${cx - 7},${cy + 6} z" ${common}/>`;
  }
}

function markSvg(m: DiagramMark, rows: Map<number, { y: number; lines: number }>, cx: number, p: Palette, current: number): string {
  const r = rows.get(m.step);
  if (r === undefined) return '';
  const cy = r.y;
  const retract = m.kind === '-D' || m.kind === '-U';
  const stroke = p.lanes[m.lane % p.lanes.length]!;
  // A retraction is drawn hollow and dashed: the row leaves rather than arrives.
  const fill = retract ? '#ffffff' : p.laneFill[m.lane % p.laneFill.length]!;
  const cls = ['row', m.late ? 'late' : '', m.dropped ? 'dropped' : ''].filter((c) => c !== '').join(' ');
  const parts = [`<g class="${cls}" data-step="${m.step}" data-table="${xmlText(m.table)}"${m.time === undefined ? '' : ` data-time="${m.time}"`}${m.step > current ? ' opacity="0.4"' : ''}>`];
  parts.push(`<title>${xmlText(`${m.table} ${m.text}${m.late ? ' (late)' : ''}${m.dropped ? ' (dropped)' : ''}`)}</title>`);
  if (m.late) parts.push(`<circle cx="${cx}" cy="${cy}" r="10.5" fill="none" stroke="${p.late}" stroke-width="2" stroke-dasharray="3 2"/>`);
  parts.push(shape(m.lane, cx, cy, stroke, fill, retract));
  if (m.dropped) parts.push(`<path d="M${cx - 9},${cy - 9} L${cx + 9},${cy + 9} M${cx - 9},${cy + 9} L${cx + 9},${cy - 9}" stroke="${p.dropped}" stroke-width="2.5"/>`);
  const tag = m.dropped ? ' dropped' : m.late ? ' late' : '';
  // The label goes to the side with more room, so it stays inside the plot.
  const right = cx < (GEOMETRY.plotLeft + GEOMETRY.plotRight) / 2 + 60;
  parts.push(`<text x="${right ? cx + 13 : cx - 13}" y="${cy + 4}" font-size="10" font-family="${MONO_FONT}" fill="${m.dropped ? p.dropped : p.ink}" stroke="#ffffff" stroke-width="3" paint-order="stroke"${right ? '' : ' text-anchor="end"'}>${xmlText(clipText(m.text, 34) + tag)}</text>`);
  parts.push('</g>');
  return parts.join('\n');
}

function legend(data: DiagramData, y: number, p: Palette): string {
  const out = [`<g class="legend" font-size="11" fill="${p.ink}">`];
  let x = 16;
  const item = (svg: string, label: string, width: number): void => {
    out.push(svg, `<text x="${x + 16}" y="${y + 4}">${xmlText(label)}</text>`);
    x += width;
  };
  data.tables.forEach((t, i) => item(shape(i, x + 5, y, p.lanes[i % p.lanes.length]!, p.laneFill[i % p.laneFill.length]!, false), `${clipText(t, 18)} row`, 40 + Math.min(18, t.length) * 7 + 30));
  item(shape(0, x + 5, y, p.lanes[0]!, '#ffffff', true), '-U / -D row (hollow)', 160);
  item(`<line x1="${x - 2}" y1="${y}" x2="${x + 12}" y2="${y}" stroke="${p.watermark}" stroke-width="2.5" stroke-dasharray="7 4"/>`, 'join watermark', 130);
  const y2 = y + 26;
  x = 16;
  const item2 = (svg: string, label: string, width: number): void => {
    out.push(svg, `<text x="${x + 16}" y="${y2 + 4}">${xmlText(label)}</text>`);
    x += width;
  };
  item2(`<circle cx="${x + 5}" cy="${y2}" r="8" fill="none" stroke="${p.late}" stroke-width="2" stroke-dasharray="3 2"/>`, 'late: at or below the watermark on arrival', 300);
  item2(`<path d="M${x - 2},${y2 - 7} L${x + 12},${y2 + 7} M${x - 2},${y2 + 7} L${x + 12},${y2 - 7}" stroke="${p.dropped}" stroke-width="2.5"/>`, 'dropped as late', 140);
  item2(`<rect x="${x - 3}" y="${y2 - 8}" width="16" height="16" fill="${p.band}" stroke="${p.ink}" stroke-width="0.8" stroke-dasharray="2 2"/>`, 'current step (later steps faded)', 240);
  out.push('</g>');
  return out.join('\n');
}
