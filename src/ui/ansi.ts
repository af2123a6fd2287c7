/**
 * The frame as terminal text, built by us instead of by Ink: Ink 6 turns every frame into a grid
 * of styled cells and back into a string (per character, on every key: most of a frame's time at
 * 200x60). Here each row is a few styled runs, and the codes between runs follow the same rules
 * as Ink's writer (the @alcalzone/ansi-tokenize diff it uses), so the text is byte for byte what
 * Ink printed for the same screen: test/ui/ansi.test.tsx holds the two side by side.
 */
import chalk from 'chalk';
import type { Segment } from './lines.js';
import { textWidth } from './lines.js';
import { type ScreenLayout, SEPARATOR } from './screen.js';
import type { Theme } from './theme.js';

/** One SGR code with the code that ends it (bold and dim share 22m). */
interface Code {
  readonly open: string;
  readonly close: string;
  readonly intensity: boolean;
}

type Styles = readonly Code[];

const NONE: Styles = [];
const DIM: Code = { open: '\x1b[2m', close: '\x1b[22m', intensity: true };
const BOLD: Code = { open: '\x1b[1m', close: '\x1b[22m', intensity: true };
const INVERSE: Code = { open: '\x1b[7m', close: '\x1b[27m', intensity: false };
const FG: Readonly<Record<string, number>> = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90 };
const colorCodes = new Map<string, Code>();

function colorCode(name: string): Code | undefined {
  const n = FG[name];
  if (n === undefined) return undefined;
  let code = colorCodes.get(name);
  if (code === undefined) colorCodes.set(name, (code = { open: `\x1b[${n}m`, close: '\x1b[39m', intensity: false }));
  return code;
}

/**
 * A segment's codes in the order Ink's <Text> nests them (dim innermost, then colour, bold,
 * inverse outermost), i.e. the order a tokenizer meets their openings. Cached: a frame has few
 * distinct styles.
 */
const stylesCache = new Map<string, Styles>();

function stylesOf(s: Segment, theme: Theme): Styles {
  // chalk at level 0 (not a colour terminal, or a pipe) writes no codes at all, not even bold.
  if (chalk.level === 0) return NONE;
  const color = theme.color(s.tone);
  const key = `${color ?? ''}|${s.dim === true ? 1 : 0}${s.bold === true ? 1 : 0}${s.inverse === true ? 1 : 0}`;
  let styles = stylesCache.get(key);
  if (styles === undefined) {
    const list: Code[] = [];
    if (s.inverse === true) list.push(INVERSE);
    if (s.bold === true) list.push(BOLD);
    const c = color === undefined ? undefined : colorCode(color);
    if (c !== undefined) list.push(c);
    if (s.dim === true) list.push(DIM);
    stylesCache.set(key, (styles = list));
  }
  return styles;
}

/** The codes that take a run from `from` to `to`, as ansi-tokenize's diffAnsiCodes + ansiCodesToString. */
function diff(from: Styles, to: Styles): string {
  if (from === to) return '';
  const out: string[] = [];
  for (let i = from.length - 1; i >= 0; i--) {
    const c = from[i]!;
    // Bold and dim end with the same code but may coexist: for them the opening decides.
    const kept = c.intensity ? to.some((t) => t.open === c.open) : to.some((t) => t.close === c.close);
    if (!kept && !out.includes(c.close)) out.push(c.close);
  }
  for (const c of to) if (!from.some((f) => f.open === c.open) && !out.includes(c.open)) out.push(c.open);
  return out.join('');
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** Builds one row from styled runs: what Ink's Output.get makes of the row's cells. */
class RowBuilder {
  private text = '';
  private styles: Styles = NONE;
  private started = false;
  width = 0;

  add(raw: string, styles: Styles): void {
    if (raw === '') return;
    // The panes escape every value (escapeControl); should one slip through, it must still not
    // reach the terminal raw (Ink stripped such sequences). One cell each, so widths still hold.
    const text = CONTROL.test(raw) ? raw.replace(CONTROLS, '\ufffd') : raw;
    this.text += this.started ? diff(this.styles, styles) : diff(NONE, styles);
    this.started = true;
    this.styles = styles;
    this.text += text;
    this.width += textWidth(text);
  }

  blank(cells: number): void {
    if (cells > 0) this.add(' '.repeat(cells), NONE);
  }

  /** The row as Ink prints it: the active styles ended, trailing unstyled blanks trimmed (and not counted). */
  done(): string {
    const full = this.text + diff(this.styles, NONE);
    const row = full.trimEnd();
    if (row.length < full.length) this.width -= textWidth(full.slice(row.length));
    return row;
  }
}

function lineInto(row: RowBuilder, line: readonly Segment[], theme: Theme): void {
  for (const s of line) row.add(s.text, stylesOf(s, theme));
}

export interface FrameText {
  /** `rows - 1` rows, each exactly as Ink would have printed it. */
  readonly rows: string[];
  /** Each row's width in cells as printed (at most the terminal's width). */
  readonly widths: number[];
}

/** The whole frame's rows: the status line, the pane columns side by side, the key bar. */
export function frameText(screen: ScreenLayout, theme: Theme): FrameText {
  const rows: string[] = [];
  const widths: number[] = [];
  const push = (row: RowBuilder): void => {
    rows.push(row.done()); // before reading the width: done() takes the trimmed blanks off it
    widths.push(row.width);
  };
  const full = (line: readonly Segment[]): void => {
    const row = new RowBuilder();
    lineInto(row, line, theme);
    push(row);
  };
  screen.top.forEach(full);
  const sep = stylesOf(SEPARATOR, theme);
  for (let y = 0; y < screen.body && screen.columns.length > 0; y++) {
    const row = new RowBuilder();
    screen.columns.forEach((c, i) => {
      if (i > 0) row.add(SEPARATOR.text, sep);
      const start = row.width;
      lineInto(row, c.lines[y] ?? [], theme);
      // Not past the last column: blanks there would only be trimmed again.
      if (i < screen.columns.length - 1) row.blank(c.width - (row.width - start));
    });
    push(row);
  }
  screen.bottom.forEach(full);
  return { rows, widths };
}

/** The frame as one string, as Ink wrote it (tests and the recorder compare it with Ink's). */
export function frameString(screen: ScreenLayout, theme: Theme): string {
  return frameText(screen, theme).rows.join('\n');
}
