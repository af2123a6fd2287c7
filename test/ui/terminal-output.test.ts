/**
 * The terminal writer the app draws through: rows at absolute places, only changed rows after
 * the first frame, a whole redraw after someone else wrote, nothing after close, and the stdout
 * handed to Ink reporting Ink's writes and passing resizes on.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { inkStdout, TerminalOutput } from '../../src/ui/terminal-output.js';

class Sink {
  writes: string[] = [];
  write(data: string): boolean {
    this.writes.push(data);
    return true;
  }
}

const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';
/** Row y (1-based) as the writer places it. */
const at = (y: number, text: string): string => `\x1b[${y};1H${text}`;

/** Plays the writes onto a grid of `rows` x `columns` (enough of a terminal to check the picture). */
function screenOf(writes: readonly string[], columns: number, rows: number): string[] {
  const grid = Array.from({ length: rows }, () => ' '.repeat(columns));
  let y = 0;
  let x = 0;
  const put = (ch: string): void => {
    const line = grid[y]!;
    grid[y] = line.slice(0, x) + ch + line.slice(x + 1);
    x = Math.min(x + 1, columns - 1);
  };
  // eslint-disable-next-line no-control-regex
  const token = /\x1b\[\?\d+[hl]|\x1b\[(\d+);(\d+)H|\x1b\[H|\x1b\[2J|\x1b\[K|\x1b\[[\d;]*m|[^\x1b]/gu;
  for (const w of writes) {
    for (const m of w.matchAll(token)) {
      const t = m[0];
      if (m[1] !== undefined) {
        y = Number(m[1]) - 1;
        x = Number(m[2]) - 1;
      } else if (t === '\x1b[H') [y, x] = [0, 0];
      else if (t === '\x1b[2J') grid.fill(' '.repeat(columns));
      else if (t === '\x1b[K') grid[y] = grid[y]!.slice(0, x) + ' '.repeat(columns - x);
      else if (!t.startsWith('\x1b')) put(t);
    }
  }
  return grid.map((l) => l.trimEnd());
}

describe('TerminalOutput', () => {
  it('draws the first frame whole, in one synchronized write, with the cursor hidden', () => {
    const sink = new Sink();
    const out = new TerminalOutput(sink);
    out.draw(['top', 'middle', 'bottom'], [3, 6, 6], 10);
    expect(sink.writes).toHaveLength(1);
    const w = sink.writes[0]!;
    expect(w.startsWith(`${BSU}\x1b[?25l\x1b[H\x1b[2J`)).toBe(true);
    expect(w.endsWith(ESU)).toBe(true);
    expect(w).toContain(at(1, 'top\x1b[K'));
    expect(w).toContain(at(3, 'bottom\x1b[K'));
    expect(screenOf(sink.writes, 10, 4)).toEqual(['top', 'middle', 'bottom', '']);
  });

  it('then writes only the rows that changed, erasing what a shorter row leaves behind', () => {
    const sink = new Sink();
    const out = new TerminalOutput(sink);
    out.draw(['step 1', 'long row here', 'keys'], [6, 13, 4], 20);
    out.draw(['step 2', 'short', 'keys'], [6, 5, 4], 20);
    expect(sink.writes).toHaveLength(2);
    expect(sink.writes[1]).toBe(`${BSU}${at(1, 'step 2\x1b[K')}${at(2, 'short\x1b[K')}${ESU}`);
    expect(screenOf(sink.writes, 20, 4)).toEqual(['step 2', 'short', 'keys', '']);
  });

  it('writes nothing for an unchanged frame', () => {
    const sink = new Sink();
    const out = new TerminalOutput(sink);
    out.draw(['a', 'b'], [1, 1], 10);
    out.draw(['a', 'b'], [1, 1], 10);
    expect(sink.writes).toHaveLength(1);
  });

  it('does not erase after a row as wide as the terminal (the cursor sits on its last cell)', () => {
    const sink = new Sink();
    const out = new TerminalOutput(sink);
    out.draw(['x'.repeat(8), 'y'], [8, 1], 8);
    expect(sink.writes[0]).toContain(at(1, 'xxxxxxxx\x1b[2;1H'));
    expect(screenOf(sink.writes, 8, 3)).toEqual(['xxxxxxxx', 'y', '']);
  });

  it('draws whole again when the width or the number of rows changes', () => {
    const sink = new Sink();
    const out = new TerminalOutput(sink);
    out.draw(['a', 'b'], [1, 1], 10);
    out.draw(['a', 'b'], [1, 1], 12);
    out.draw(['a', 'b', 'c'], [1, 1, 1], 12);
    expect(sink.writes).toHaveLength(3);
    for (const w of sink.writes) expect(w).toContain('\x1b[2J');
  });

  it('after someone else wrote, draws the last frame again, whole, once their writes are done', async () => {
    const sink = new Sink();
    const out = new TerminalOutput(sink);
    out.draw(['status', 'body', 'keys'], [6, 4, 4], 10);
    // Ink erases what it drew before (two writes in a row): one redraw follows, not two.
    out.invalidate();
    sink.writes.push('\x1b[2K\x1b[1A\x1b[2K');
    out.invalidate();
    expect(sink.writes).toHaveLength(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.writes).toHaveLength(3);
    expect(sink.writes[2]).toContain('\x1b[2J');
    expect(screenOf(sink.writes, 10, 4)).toEqual(['status', 'body', 'keys', '']);
  });

  it('draws nothing once closed, not even a pending redraw', async () => {
    const sink = new Sink();
    const out = new TerminalOutput(sink);
    out.draw(['a'], [1], 10);
    out.invalidate();
    out.close();
    out.draw(['b'], [1], 10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.writes).toHaveLength(1);
  });
});

describe('inkStdout', () => {
  class FakeTty extends EventEmitter {
    readonly isTTY = true;
    columns = 100;
    rows = 30;
    written: string[] = [];
    write(data: string): boolean {
      this.written.push(data);
      return true;
    }
  }

  it('passes writes through and reports the non-empty ones', () => {
    const real = new FakeTty();
    let reported = 0;
    const proxy = inkStdout(real as unknown as NodeJS.WriteStream, () => reported++);
    proxy.write('');
    expect(reported).toBe(0);
    proxy.write('\x1b[2K');
    expect(reported).toBe(1);
    expect(real.written).toEqual(['', '\x1b[2K']);
  });

  it('shows the real size and passes resize events on', () => {
    const real = new FakeTty();
    const proxy = inkStdout(real as unknown as NodeJS.WriteStream, () => {});
    let resized = 0;
    proxy.on('resize', () => resized++);
    real.columns = 120;
    real.rows = 40;
    real.emit('resize');
    expect(resized).toBe(1);
    expect([proxy.columns, proxy.rows, proxy.isTTY]).toEqual([120, 40, true]);
  });
});
