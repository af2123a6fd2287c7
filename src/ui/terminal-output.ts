/**
 * Draws the app's frames on the terminal ourselves, past Ink (see ansi.ts for why): each row is
 * put at its place with an absolute cursor move and only rows that changed since the last frame
 * are written, inside one synchronized-output block (DEC 2026) so the terminal shows whole frames.
 * Ink still runs React, the keys and the picker; while the app draws, Ink's own output is empty,
 * so it writes nothing, and when it does write (the picker it erases, a resize) the next frame
 * is drawn whole.
 */
import { EventEmitter } from 'node:events';

const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';
const HIDE_CURSOR = '\x1b[?25l';
const CLEAR = '\x1b[H\x1b[2J';
const ERASE_LINE_END = '\x1b[K';

export interface FrameSink {
  /** Shows a frame: rows and widths as frameText made them, on a terminal `columns` wide. */
  draw(rows: readonly string[], widths: readonly number[], columns: number): void;
}

export interface Writable {
  write(data: string): boolean;
}

export class TerminalOutput implements FrameSink {
  private last: readonly string[] = [];
  private lastWidths: readonly number[] = [];
  private columns = -1;
  private whole = true;
  private redrawPending = false;
  private closed = false;

  constructor(private readonly out: Writable) {}

  /**
   * Someone else wrote to the terminal: draw the last frame again, whole, once their writes are
   * done (Ink writes a frame in several pieces, synchronously).
   */
  invalidate(): void {
    this.whole = true;
    if (this.redrawPending || this.columns < 0) return;
    this.redrawPending = true;
    setImmediate(() => {
      this.redrawPending = false;
      if (this.whole) this.draw(this.last, this.lastWidths, this.columns);
    });
  }

  /** Draws nothing more: the app has ended (a redraw after leaving the alternate screen would land on the user's screen). */
  close(): void {
    this.closed = true;
  }

  draw(rows: readonly string[], widths: readonly number[], columns: number): void {
    if (this.closed) return;
    const whole = this.whole || columns !== this.columns || rows.length !== this.last.length;
    let text = '';
    for (let y = 0; y < rows.length; y++) {
      const row = rows[y]!;
      if (!whole && row === this.last[y]) continue;
      // A row as wide as the terminal leaves the cursor on its last cell: erasing from there
      // would take that cell too, and there is nothing after it to erase.
      text += `\x1b[${y + 1};1H${row}${(widths[y] ?? 0) < columns ? ERASE_LINE_END : ''}`;
    }
    this.last = rows;
    this.lastWidths = widths;
    this.columns = columns;
    if (text === '' && !whole) return;
    this.out.write(`${BSU}${whole ? HIDE_CURSOR + CLEAR : ''}${text}${ESU}`);
    this.whole = false;
  }
}

/**
 * The stdout Ink is given while the app draws itself: the real one, except that any write by
 * Ink (erasing the picker, clearing on resize) tells `onWrite`, and resize events are passed on.
 */
export function inkStdout(real: NodeJS.WriteStream, onWrite: () => void): NodeJS.WriteStream {
  const proxy = new EventEmitter() as EventEmitter & Record<string, unknown>;
  // What Ink reads of its stdout (size, TTY-ness, and whether it can still write on exit).
  for (const name of ['columns', 'rows', 'isTTY', 'writable', 'writableEnded', 'writableLength', 'destroyed'] as const) {
    Object.defineProperty(proxy, name, { get: () => real[name] });
  }
  proxy['write'] = (data: string, ...rest: unknown[]): boolean => {
    if (data !== '') onWrite();
    return (real.write as (d: string, ...r: unknown[]) => boolean)(data, ...rest);
  };
  const forward = (): void => void proxy.emit('resize');
  real.on('resize', forward);
  return proxy as unknown as NodeJS.WriteStream;
}
