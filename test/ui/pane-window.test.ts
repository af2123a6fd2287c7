/**
 * The state and result panes build only their visible lines: on a run with a big state and
 * result, every window (any height, any scroll offset, including past the end) is the window of
 * the full line list, with the key of a group that started above the window left blank, and the
 * ↑/↓ more markers where the full list continues.
 */
import { describe, expect, it } from 'vitest';
import { createTimeline } from '../../src/engine/timeline.js';
import { plain } from '../../src/ui/lines.js';
import { scrolled, scrolledWindow } from '../../src/ui/panes/common.js';
import { resultSource } from '../../src/ui/panes/result-pane.js';
import { stateSource } from '../../src/ui/panes/state-pane.js';
import { sessionInfo } from '../../src/ui/session.js';
import { initialState, type UiState } from '../../src/ui/state.js';
import { benchScenario } from '../../bench/scenarios.js';

const scenario = benchScenario('temporal', 3000);
const session = { info: sessionInfo(scenario), timeline: createTimeline(scenario) };
// The result folded up to the step first, as the app's fold slices leave it (a far step's pane
// shows the fold's progress until then).
const at = (step: number): UiState => {
  session.timeline.resultFold?.(step, Infinity);
  return { ...initialState(session, { columns: 200, rows: 60 }), step, settled: true };
};
const text = (lines: readonly (readonly { text: string }[])[]): string[] => lines.map(plain);

describe('panes built a window at a time', () => {
  it('has a state and a result big enough to need windows', () => {
    expect(stateSource(at(2000), 1).length).toBeGreaterThan(50);
    expect(resultSource(at(2000)).length).toBeGreaterThan(50);
  });

  for (const [name, source] of [
    ['left state', (s: UiState) => stateSource(s, 0)],
    ['right state', (s: UiState) => stateSource(s, 1)],
    ['result', resultSource],
  ] as const) {
    it(`${name}: every window equals the same window of all lines`, () => {
      for (const step of [0, 1, 1500, 3000]) {
        const src = source(at(step));
        const all = src.slice(0, src.length);
        expect(all).toHaveLength(src.length);
        for (const height of [1, 2, 7, 40]) {
          for (const offset of [0, 1, 3, Math.floor(src.length / 2), src.length - height, src.length + 5]) {
            const got = text(scrolledWindow(src, height, offset));
            expect(got, `step ${step} height ${height} offset ${offset}`).toEqual(text(scrolled(all, height, offset)));
            expect(got.length).toBe(Math.min(height, src.length));
          }
        }
      }
    });
  }

  it('prints a key once per group, also when the window starts inside a group', () => {
    // The left side buffers several probe rows per key: groups of more than one row.
    const src = stateSource(at(3000), 0);
    const all = text(src.slice(0, src.length));
    // A row whose key column is blank (after its mark) continues the group above it.
    const cont = all.findIndex((l, i) => i > 1 && /^[ *▸] {2,}\+I\[/.test(l));
    expect(cont).toBeGreaterThan(1);
    expect(all[cont - 1]).toMatch(/^[ *▸]\S+ \+I\[/);
    expect(text(src.slice(cont, cont + 1))).toEqual([all[cont]]);
    // Scrolled there, the window's first line gives way to the ↑ more marker; the next is that row.
    const window = text(scrolledWindow(src, src.length - (cont - 1), cont - 1));
    expect(window.slice(0, 2)).toEqual(['↑ more', all[cont]]);
  });
});
