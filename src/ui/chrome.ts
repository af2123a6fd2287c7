/**
 * The frame around the panes: the status line (scenario, step i/n, processing time, join
 * watermark, play state) and the key bar, which is generated from the keymap table and
 * doubles as the input line in the prompt, pick and run-to modes, and shows the last message.
 */
import { KEYMAP, keyLabel } from './keymap.js';
import { clip, type Line, type Segment, seg } from './lines.js';
import { pickTargets } from './reducer-input.js';
import { procTimeAt } from './session.js';
import { SPEEDS, type UiState } from './state.js';
import { stepView } from './step-view.js';
import { isDirty } from './whatif.js';
import { formFields } from './whatif-form.js';
import type { Mode } from './state.js';
import { clock } from './text.js';
import { printable } from '../values/printable.js';
import { answerBar } from './practice-bar.js';
import { PRACTICE_OFF } from './practice.js';

export function statusLine(s: UiState): Line {
  const { info, timeline: tl } = s.session;
  const wm = stepView(tl, s.step).watermarks;
  // The scenario name goes last: on a narrow terminal it is what gets clipped, never the step.
  const parts: Segment[] = [
    seg(' joinstep ', { inverse: true, bold: true }),
    seg(` step ${s.step}/${stepsText(s)} `, { bold: true }),
    ...computingSegments(s),
    seg(`│ proc ${clock(procTimeAt(tl, info.dateMs, s.step), info)} `),
    seg(`│ wm ${clock(wm.join, info)} `, { tone: 'wm' }),
    seg(`│ ${s.playing ? '▶ playing' : '❚❚ paused'} ${SPEEDS[s.speed] ?? 1}/s `, s.playing ? { tone: 'insert' } : { tone: 'muted' }),
  ];
  if (s.mono) parts.push(seg('│ mono '));
  if (s.manual > 0) parts.push(seg(`│ ${s.manual} manual `, { tone: 'key' }));
  if (s.edit !== undefined) parts.push(seg(`│ what-if${isDirty(s) ? ' (unsaved)' : ''} `, { tone: 'warn' }));
  if (s.practice !== undefined) parts.push(seg(`│ practice `, { tone: 'key', bold: true }));
  if (s.compare !== undefined) parts.push(seg(`│ vs ${s.compare.version} `, { tone: 'key' }));
  if (s.comparing !== undefined) {
    const pct = s.comparing.total > 0 ? Math.floor((100 * s.comparing.ready) / s.comparing.total) : 0;
    parts.push(seg(`│ running ${s.comparing.version} for V: ${pct}% `, { tone: 'warn' }));
  }
  parts.push(seg(`│ ${printable(info.name)}`, { bold: true }));
  return parts;
}

/** The run's steps: all of them, or as many as known while the file is still read (`1,000,000` or `400,000+`). */
function stepsText(s: UiState): string {
  const c = s.computing;
  if (c === undefined) return String(s.session.timeline.length);
  return c.reading !== undefined && c.reading.total === undefined ? `${c.total}+` : String(c.reading?.total ?? c.total);
}

/** While the run is computed in pieces: how far, how fast, how long still (or where it stopped). */
function computingSegments(s: UiState): Segment[] {
  const c = s.computing;
  if (c === undefined) return [];
  const n = (x: number): string => x.toLocaleString('en-US');
  if (c.error !== undefined) return [seg(`│ run stopped after step ${n(c.ready)} (error) `, { tone: 'warn', bold: true })];
  const r = c.reading;
  if (r !== undefined) {
    // Both at once: the file read so far, and the steps of it already computed.
    const of = r.total === undefined ? `${n(r.done)} events` : `${n(r.done)} of ${n(r.total)} events (${r.total > 0 ? Math.floor((100 * r.done) / r.total) : 100}%)`;
    const left = r.total !== undefined && r.rate > 0 ? ` · about ${Math.max(1, Math.ceil((r.total - r.done) / r.rate))} s left to read` : '';
    return [seg(`│ reading ${of} · ${n(Math.round(r.rate))}/s${left} · ${n(c.ready)} steps ready `, { tone: 'warn' })];
  }
  const pct = c.total > 0 ? Math.floor((100 * c.ready) / c.total) : 100;
  const rate = c.rate > 0 ? ` · ${n(Math.round(c.rate))}/s · about ${Math.max(1, Math.ceil((c.total - c.ready) / c.rate))} s left` : '';
  return [seg(`│ computing ${n(c.ready)} ready (${pct}%)${rate} `, { tone: 'warn' })];
}

const PROMPTS = { goto: 'go to step', search: 'search changelog', clock: 'advance processing time by (e.g. 5 s, 30 min)', wmTime: 'watermark to (enter = generated, max, or a time)' } as const;

export function keyBar(s: UiState): Line {
  const mode = s.mode;
  if (mode.k === 'prompt') {
    const target = mode.target === undefined ? '' : ` ${mode.target.table}[${mode.target.partition}]`;
    return [seg(` ${PROMPTS[mode.purpose]}${target}: `, { tone: 'key', bold: true }), seg(printable(mode.text)), seg('█'), seg('  enter ok · esc cancel', { tone: 'muted' })];
  }
  if (mode.k === 'form') return formBar(s, mode);
  if (mode.k === 'answer') return answerBar(s, mode);
  if (mode.k === 'confirmQuit') {
    return [seg(' unsaved what-if edits: quit anyway? ', { tone: 'warn', bold: true, inverse: true }), seg(' q / y quit · any other key stays (s saves)', { tone: 'muted' })];
  }
  if (mode.k === 'pick') {
    const targets = pickTargets(s);
    const parts: Segment[] = [seg(` ${mode.purpose === 'idle' ? 'toggle idle' : 'watermark'} on: `, { tone: 'key', bold: true })];
    targets.forEach((t, i) => {
      const label = `${t.table}[${t.partition}]${mode.purpose === 'idle' ? (t.idle ? ' idle' : ' active') : ''}`;
      parts.push(seg(i === mode.index ? `[${label}]` : ` ${label} `, i === mode.index ? { inverse: true, bold: true } : {}), seg(' '));
    });
    parts.push(seg(' ↑↓ choose · enter ok · esc cancel', { tone: 'muted' }));
    return parts;
  }
  const prefix = mode.k === 'prefix' ? mode.prefix : undefined;
  const parts: Segment[] = prefix === undefined ? [] : [seg(` run to the next… `, { tone: 'key', bold: true })];
  // A message (result of the last key) takes the front of the bar until the next key.
  if (s.message !== undefined) parts.push(seg(` ${printable(s.message)} `, { tone: 'warn', bold: true, inverse: true }), seg(' '));
  // `?` and `q` first: on a narrow terminal the bar is clipped at the right, and these two must stay.
  const first = (c: string): number => (c === 'help' ? 0 : c === 'quit' ? 1 : 2);
  const ordered = [...KEYMAP].sort((x, y) => first(x.command) - first(y.command));
  for (const b of ordered) {
    if (b.prefix !== prefix || (prefix === undefined && b.bar === undefined)) continue;
    // While practising, the keys that are off are not offered.
    if (s.practice !== undefined && PRACTICE_OFF.includes(b.command)) continue;
    const key = keyLabel(b.keys[0] ?? '');
    parts.push(seg(` ${key}`, { tone: 'key', bold: true }), seg(` ${prefix === undefined ? (b.bar ?? '') : b.help} `));
  }
  return parts;
}

/**
 * The `?` overlay: every binding of the keymap table in table order, in as many columns as the
 * height needs (so the whole table is visible at 80x24).
 */
export function helpLines(width: number, height: number): Line[] {
  const entries = KEYMAP.map((b) => ({ keys: keysText(b.keys, b.prefix), help: b.help }));
  const perColumn = Math.max(1, height - 2);
  const columns = Math.ceil(entries.length / perColumn);
  const colWidth = Math.floor(width / columns);
  const keyWidth = Math.max(...entries.map((e) => e.keys.length));
  const out: Line[] = [[seg(' keys (any key closes this help)', { bold: true })], []];
  for (let row = 0; row < Math.min(perColumn, entries.length); row++) {
    const line: Segment[] = [];
    for (let c = 0; c < columns; c++) {
      const e = entries[c * perColumn + row];
      if (e === undefined) continue;
      const help = clip(e.help, colWidth - keyWidth - 4);
      line.push(seg(`  ${e.keys.padEnd(keyWidth)} `, { tone: 'key', bold: true }), seg(help.padEnd(colWidth - keyWidth - 3)));
    }
    out.push(line);
  }
  return out;
}

function keysText(keys: readonly string[], prefix?: string): string {
  const list = keys.map(keyLabel).join(' ');
  return prefix === undefined ? list : `${prefix} ${list}`;
}

/** The insert form in the key bar: the fields so far, the current one being typed, its hint. */
function formBar(s: UiState, mode: Extract<Mode, { k: 'form' }>): Line {
  const fields = formFields(s, mode.values);
  const parts: Segment[] = [seg(` insert after step ${s.step}: `, { tone: 'key', bold: true })];
  // The loader's complaint goes first: a long form is clipped at the right, the error must show.
  if (mode.error !== undefined) parts.push(seg(` ${printable(mode.error)} `, { tone: 'warn', bold: true, inverse: true }), seg(' '));
  fields.forEach((f, i) => {
    if (i > mode.index) return;
    const value = printable(mode.values[f.name] ?? '');
    if (i < mode.index) parts.push(seg(`${f.label}=${value} `, { tone: 'muted' }));
    else parts.push(seg(`${f.label}: `, { bold: true }), seg(value), seg('█'), seg(` (${f.hint}) `, { tone: 'muted' }));
  });
  parts.push(seg(' enter next/ok · ↑ back · esc cancel', { tone: 'muted' }));
  return parts;
}
