/**
 * The app drawing its own frames (the way startApp runs it) against the app drawn by Ink: after
 * every key, resize and settle, the frame handed to the sink is the frame Ink printed for the
 * same app, and while the app draws itself Ink's own output stays empty.
 */
import chalk from 'chalk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App.js';
import type { Session } from '../../src/ui/session.js';
import { loadSession } from '../../src/ui/session-load.js';
import type { FrameSink } from '../../src/ui/terminal-output.js';
import { storySession } from './fake-timeline.js';
import { frame, KEY, press, render, type Rendered, resize, unmount } from './helpers.js';
import { EUR_EXAMPLE } from './whatif-helpers.js';

class FrameLog implements FrameSink {
  frames: string[] = [];
  draws = 0;
  draw(rows: readonly string[], widths: readonly number[], columns: number): void {
    this.draws++;
    expect(widths).toHaveLength(rows.length);
    for (const w of widths) expect(w).toBeLessThanOrEqual(columns);
    this.frames.push(rows.join('\n'));
  }
  get last(): string {
    return this.frames[this.frames.length - 1] ?? '';
  }
}

async function pair(session: Session, size: { columns: number; rows: number }): Promise<{ ink: Rendered; direct: Rendered; log: FrameLog }> {
  const log = new FrameLog();
  const ink = await render(<App session={session} />, size);
  const direct = await render(<App session={session} output={log} />, size);
  return { ink, direct, log };
}

async function both(p: { ink: Rendered; direct: Rendered }, ...keys: string[]): Promise<void> {
  await press(p.ink, ...keys);
  await press(p.direct, ...keys);
}

describe('the app drawing its own frames', () => {
  let level: typeof chalk.level;
  beforeAll(() => {
    level = chalk.level;
    chalk.level = 3;
  });
  afterAll(() => {
    chalk.level = level;
  });

  it('hands the sink the frame Ink prints, key after key, and leaves Ink nothing to print', async () => {
    const p = await pair(storySession(), { columns: 100, rows: 30 });
    const steps: [string, string[]][] = [
      ['start', []],
      ['step', ['n', 'n']],
      ['focus', [KEY.tab, KEY.tab]],
      ['select a row', ['k']],
      ['help', ['?']],
      ['help closed', [KEY.esc]],
      ['prompt', [':', '3']],
      ['go', [KEY.enter]],
      ['mono', ['c']],
    ];
    for (const [what, keys] of steps) {
      await both(p, ...keys);
      expect(p.log.last, what).toBe(frame(p.ink));
      expect(frame(p.direct), what).toBe('');
    }
    expect(p.log.draws).toBeGreaterThanOrEqual(steps.length);
    await unmount(p.ink);
    await unmount(p.direct);
  });

  it('follows a resize, down to the too-small message and back', async () => {
    const p = await pair(storySession(), { columns: 120, rows: 40 });
    for (const size of [{ columns: 200, rows: 60 }, { columns: 70, rows: 20 }, { columns: 80, rows: 24 }]) {
      await resize(p.ink, size);
      await resize(p.direct, size);
      expect(p.log.last, `${size.columns}x${size.rows}`).toBe(frame(p.ink));
      expect(p.log.last.split('\n')).toHaveLength(size.rows - 1);
    }
    await unmount(p.ink);
    await unmount(p.direct);
  });

  it('draws the real engine run the same way (state, watermark and why panes)', async () => {
    const loaded = await loadSession(EUR_EXAMPLE);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const p = await pair(loaded.session, { columns: 200, rows: 60 });
    for (const keys of [['n', 'n', 'n'], ['e'], [KEY.left], ['k', 'k']]) {
      await both(p, ...keys);
      expect(p.log.last, keys.join(' ')).toBe(frame(p.ink));
    }
    await unmount(p.ink);
    await unmount(p.direct);
  });
});
