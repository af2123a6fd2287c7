/**
 * The app's frame while a big scenario is read, before there is a session to show: what is
 * read, how fast, about how long still, and that q quits. The file is read in slices
 * (load-in-slices.ts): `report` draws this frame between them, and q / Ctrl-C are read from
 * stdin as keys arrive. A file loaded the full way (synchronously: one the streamed reader does
 * not take to its end) is watched through the loader's per-event callback instead (`progress`),
 * with q / Ctrl-C read there from the terminal opened a second time without blocking (KeyPoll).
 * A big file enters the screen before it is read (reading and cutting tens of MB comes before
 * the first event); others only once loading has taken DELAY_MS, so that a small file's errors
 * still print on the normal screen.
 */
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { enterAltScreen } from './alt-screen.js';
import { frameText } from './ansi.js';
import { clipBox, type Line, seg } from './lines.js';
import type { Prepainted } from './prepaint.js';
import type { ScreenLayout } from './screen.js';
import { TerminalOutput } from './terminal-output.js';
import { makeTheme } from './theme.js';
import { printable } from '../values/printable.js';

const DELAY_MS = 333;
/** A scenario file this big takes longer than DELAY_MS to load: its loading frame comes at once. */
export const BIG_FILE_BYTES = 4 << 20;
const REDRAW_MS = 100;
/** The loader reports every event; the clock and the keys are read only every this many. */
const CHECK_EVERY = 1024;

export interface LoadingView {
  readonly file: string;
  readonly done: number;
  /** Events in all, when the loader knows it (inline events); absent for replayed files. */
  readonly total?: number;
  /** Events read per second. */
  readonly rate: number;
  /** The scenario file's size. */
  readonly bytes?: number;
}

const n = (x: number): string => x.toLocaleString('en-US');

/** Where a load stands, in words: the events read, how fast, about how long still. */
export function loadingText(v: Pick<LoadingView, 'done' | 'total' | 'rate'>): string {
  if (v.done === 0) return 'reading the file…';
  const count = v.total === undefined ? `${n(v.done)} events read` : `${n(v.done)} of ${n(v.total)} events read`;
  const left = v.total !== undefined && v.rate > 0 ? ` · about ${Math.max(1, Math.ceil((v.total - v.done) / v.rate))} s left` : '';
  return `${count} · ${n(Math.round(v.rate))}/s${left}`;
}

/** The loading frame: a pure function of what is read and the terminal's size. */
export function loadingLayout(v: LoadingView, columns: number, rows: number): ScreenLayout {
  const body = Math.max(1, rows - 3);
  const size = v.bytes === undefined ? '' : ` (${(v.bytes / (1 << 20)).toFixed(1)} MB)`;
  const read = `  ${loadingText(v)}`;
  const lines: Line[] = [[], [seg(`  loading ${printable(v.file)}${size}`, { bold: true })], [], [seg(read)]];
  if (v.total !== undefined && v.total > 0) {
    const width = Math.max(10, Math.min(60, columns - 12));
    const filled = Math.min(width, Math.floor((width * v.done) / v.total));
    lines.push([seg('  '), seg('█'.repeat(filled), { tone: 'insert' }), seg('░'.repeat(width - filled), { tone: 'muted' }), seg(` ${Math.floor((100 * v.done) / v.total)}%`)]);
  }
  lines.push([], [seg('  Then the run is computed in pieces: its first steps show as soon as they are ready.', { tone: 'muted' })]);
  const top: Line = [seg(' joinstep ', { inverse: true, bold: true }), seg(' loading… ', { bold: true }), seg(`│ ${printable(v.file)}`)];
  const bottom: Line = [seg(' q', { tone: 'key', bold: true }), seg(' quit ')];
  return { width: columns, top: clipBox([top], columns, 1), body, columns: [{ width: columns, lines: clipBox(lines, columns, body) }], bottom: clipBox([bottom], columns, 1) };
}

/** Keys typed while the event loop is busy, read without waiting. */
export interface KeyPoll {
  /** The bytes typed since the last call ('' when none). */
  read(): string;
  close(): void;
}

/** The controlling terminal opened again, non-blocking (fd 0 itself stays as Ink expects it). */
export function terminalKeyPoll(): KeyPoll | undefined {
  let fd: number;
  try {
    fd = openSync('/dev/tty', constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined; // no controlling terminal (or no /dev/tty): q works once the load is done
  }
  const buf = Buffer.alloc(64);
  let open = true;
  return {
    read(): string {
      if (!open) return '';
      try {
        const got = readSync(fd, buf, 0, buf.length, null);
        return buf.toString('latin1', 0, got);
      } catch {
        return ''; // EAGAIN: nothing typed
      }
    },
    close(): void {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

export interface LoadingOptions {
  readonly file: string;
  /** The file's size: a big one shows the loading frame at `start`. */
  readonly bytes?: number;
  readonly mono: boolean;
  readonly delayMs?: number;
  readonly now?: () => number;
  /** Enters the screen (alternate screen, raw mode) and gives the sink to draw on. */
  readonly enter?: () => Prepainted;
  /** Keys for a load that holds the event loop (`progress`). */
  readonly keys?: () => KeyPoll | undefined;
  /** Keys as they arrive between slices (`report`): `onKey` gets each chunk and says whether it used it; returns the unsubscribe. */
  readonly listen?: (onKey: (data: string) => boolean) => () => void;
  readonly size?: () => { columns: number; rows: number };
  /** q or Ctrl-C while loading; the screen is already left. Default: exit the process. */
  readonly onQuit?: () => void;
}

/** Watches a load through its progress callback; enters the screen only for a long one. */
export class LoadingScreen {
  private readonly now: () => number;
  private readonly started: number;
  private painted: Prepainted | undefined;
  private poll: KeyPoll | undefined;
  private unlisten: (() => void) | undefined;
  private lastDraw = -Infinity;
  /** The first report: the rate is measured from it (reading the file before it is not events). */
  private first: { t: number; done: number } | undefined;

  constructor(private readonly options: LoadingOptions) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
  }

  /** Before the load: a big file's loading frame is drawn at once. */
  begin(): void {
    if ((this.options.bytes ?? 0) < BIG_FILE_BYTES) return;
    this.enter();
    this.draw(0, undefined, this.now());
  }

  /** Where a load in slices stands: called between slices, with the event loop free. */
  readonly report = (p: { readonly done: number; readonly total?: number }): void => {
    const t = this.now();
    this.first ??= { t, done: p.done };
    if (this.painted === undefined) {
      if (t - this.started < (this.options.delayMs ?? DELAY_MS)) return;
      this.enter();
    }
    if (t - this.lastDraw >= REDRAW_MS) this.draw(p.done, p.total, t);
  };

  /** The full loader's per-event callback (a load that holds the event loop). */
  readonly progress = (done: number, total?: number): void => {
    if (done % CHECK_EVERY !== 0) return;
    if (this.painted !== undefined) {
      this.poll ??= (this.options.keys ?? terminalKeyPoll)();
      const keys = this.poll?.read() ?? '';
      if (keys.includes('q') || keys.includes('\x03')) {
        this.quit();
        return;
      }
    }
    this.report(total === undefined ? { done } : { done, total });
  };

  private enter(): void {
    this.painted = (this.options.enter ?? enterScreen)();
    this.unlisten = (this.options.listen ?? listenStdin)((data) => {
      if (!data.includes('q') && !data.includes('\x03')) return false;
      this.quit();
      return true;
    });
  }

  private draw(done: number, total: number | undefined, t: number): void {
    if (this.painted === undefined) return;
    this.lastDraw = t;
    const size = (this.options.size ?? terminalSize)();
    const rate = this.first !== undefined && t > this.first.t ? ((done - this.first.done) * 1000) / (t - this.first.t) : 0;
    const view = { file: this.options.file, done, ...(total !== undefined ? { total } : {}), rate, ...(this.options.bytes !== undefined ? { bytes: this.options.bytes } : {}) };
    const text = frameText(loadingLayout(view, size.columns, size.rows), makeTheme(this.options.mono));
    this.painted.output.draw(text.rows, text.widths, size.columns);
  }

  /** The loading frame is up (a big file, or a load past DELAY_MS). */
  get entered(): boolean {
    return this.painted !== undefined;
  }

  /** The screen, when the load took long enough to enter it (the app goes on drawing there). */
  finish(): Prepainted | undefined {
    this.poll?.close();
    this.poll = undefined;
    this.unlisten?.();
    this.unlisten = undefined;
    return this.painted;
  }

  /** Leaves the screen (e.g. to print the load's errors on the normal one). */
  leave(): void {
    this.finish();
    this.painted?.screen.leave();
    if (this.painted !== undefined && process.stdin.isTTY === true) process.stdin.setRawMode(false);
    this.painted = undefined;
  }

  private quit(): void {
    this.leave();
    (this.options.onQuit ?? (() => process.exit(0)))();
  }
}

function enterScreen(): Prepainted {
  const screen = enterAltScreen();
  if (process.stdin.isTTY === true) process.stdin.setRawMode(true);
  return { screen, output: new TerminalOutput(process.stdout) };
}

/**
 * Keys from stdin while the file is read in slices. Other keys than q are handed back to the
 * stream when the load ends, so the app (Ink) gets them as if typed after its first frame.
 */
function listenStdin(onKey: (data: string) => boolean): () => void {
  const stdin = process.stdin;
  const kept: Buffer[] = [];
  const onData = (chunk: Buffer | string): void => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (!onKey(b.toString('latin1'))) kept.push(b);
  };
  stdin.on('data', onData);
  return () => {
    stdin.off('data', onData);
    stdin.pause();
    if (kept.length > 0) stdin.unshift(Buffer.concat(kept));
  };
}

function terminalSize(): { columns: number; rows: number } {
  return { columns: process.stdout.columns || 80, rows: process.stdout.rows || 24 };
}
