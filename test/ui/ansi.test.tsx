/**
 * The frame text we build (ansi.ts) against the text Ink builds from the same screen through
 * <Frame>: byte for byte equal, with colours (chalk level 3), without (level 0) and in mono,
 * over every scenario of scenarios/ at several steps, sizes, focuses and modes.
 */
import { vi } from 'vitest';

// Ink reads CI once, when it is first imported: in CI mode it writes a frame only at unmount, so
// lastFrame() would be an earlier render than the one compared. Compare with Ink's live frames.
vi.hoisted(() => {
  process.env['CI'] = 'false';
});

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import chalk from 'chalk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameString, frameText } from '../../src/ui/ansi.js';
import { Frame } from '../../src/ui/Frame.js';
import { reduce } from '../../src/ui/reducer.js';
import { screenLayout } from '../../src/ui/screen.js';
import { loadSession } from '../../src/ui/session-load.js';
import { initialState, type UiState } from '../../src/ui/state.js';
import { makeTheme } from '../../src/ui/theme.js';
import { REPO_ROOT } from '../paths.js';
import { frame, render, unmount } from './helpers.js';

const SIZES = [
  [80, 24],
  [120, 40],
  [200, 60],
  [60, 20],
] as const;

async function inkFrame(s: UiState, columns: number, rows: number, mono: boolean): Promise<string> {
  const r = await render(<Frame screen={screenLayout(s, columns, rows)} theme={makeTheme(mono)} />, { columns, rows });
  const text = frame(r);
  await unmount(r);
  return text;
}

const keys = (s: UiState, ...ks: string[]): UiState => ks.reduce((acc, key) => reduce(acc, { t: 'key', key }), s);

/** A handful of states per scenario: start, middle (another focus), the end with a row selected, help. */
function statesOf(s0: UiState): UiState[] {
  const n = s0.session.timeline.length;
  const mid = { ...s0, step: Math.floor(n / 2) };
  const end = { ...s0, step: n };
  return [s0, keys(mid, '\t', '\t'), keys(end, 'k'), keys(mid, '?')];
}

describe('frame text built without Ink', () => {
  let level: typeof chalk.level;
  beforeAll(() => {
    level = chalk.level;
  });
  afterAll(() => {
    chalk.level = level;
  });

  const files = readdirSync(join(REPO_ROOT, 'scenarios')).filter((f) => f.endsWith('.yaml')).sort();

  it('has scenarios to compare', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  // Each scenario at one size (in turn): every state in colour; the middle one also in mono and
  // with no colour support at all (chalk level 0 prints no codes, not even bold).
  files.forEach((file, k) => {
    const [columns, rows] = SIZES[k % SIZES.length]!;
    it(`equals Ink's frame for ${file} at ${columns}x${rows}`, async () => {
      const loaded = await loadSession(join(REPO_ROOT, 'scenarios', file));
      // A scenario that shows a planner rejection has no app to draw.
      if (!loaded.ok) return;
      const s0 = { ...initialState(loaded.session, { columns, rows }), settled: true };
      const cases: [UiState, 0 | 3, boolean][] = statesOf(s0).map((s) => [s, 3, false]);
      cases.push([cases[1]![0], 3, true], [cases[1]![0], 0, false]);
      for (const [s, lvl, mono] of cases) {
        chalk.level = lvl;
        const mine = frameString(screenLayout(s, columns, rows), makeTheme(mono));
        const ink = await inkFrame(s, columns, rows, mono);
        expect(mine, `step ${s.step} focus ${s.focus} mode ${s.mode.k} level ${lvl} mono ${mono}`).toBe(ink);
      }
    });
  });

  it('counts each row in cells as printed, never wider than the terminal', async () => {
    const loaded = await loadSession(join(REPO_ROOT, 'scenarios', files[0]!));
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    chalk.level = 3;
    const s = { ...initialState(loaded.session, { columns: 120, rows: 40 }), step: 2, settled: true };
    const { rows, widths } = frameText(screenLayout(s, 120, 40), makeTheme(false));
    expect(rows).toHaveLength(39);
    rows.forEach((row, i) => {
      // eslint-disable-next-line no-control-regex
      const visible = row.replace(/\x1b\[[0-9;]*m/g, '');
      expect(widths[i]).toBe([...visible].length);
      expect(widths[i]).toBeLessThanOrEqual(120);
    });
  });
});

describe('a control character that slipped past the panes', () => {
  it('never reaches the terminal raw, and keeps its one cell', () => {
    const level = chalk.level;
    chalk.level = 3;
    try {
      const screen = { width: 40, top: [[{ text: 'a\u001b[2Jb\u009bc\u0007', bold: true }]], body: 0, columns: [], bottom: [] };
      const { rows, widths } = frameText(screen, makeTheme(false));
      // eslint-disable-next-line no-control-regex
      expect(rows[0]!.replace(/\u001b\[[0-9;]*m/g, '')).toBe('a\ufffd[2Jb\ufffdc\ufffd');
      expect(widths[0]).toBe(9);
    } finally {
      chalk.level = level;
    }
  });
});
