/**
 * On a big run some engine queries (the materialized result, a large state) take longer than a
 * frame: while keys arrive they are deferred, and drawn once the step is settled.
 */
import { describe, expect, it } from 'vitest';
import { WM_MIN } from '../../src/engine/types.js';
import { plain } from '../../src/ui/lines.js';
import { renderPane } from '../../src/ui/panes/index.js';
import { fakeTimeline, INFO, storySteps, wmView } from './fake-timeline.js';
import { stateAt } from './state-helpers.js';

/** A timeline whose result() costs ~12 ms of CPU, like a 100k-row result. */
function slowResultSession() {
  const tl = fakeTimeline(storySteps(), wmView(WM_MIN, WM_MIN, WM_MIN));
  const result = (i: number): readonly string[] => {
    const end = performance.now() + 12;
    while (performance.now() < end) {
      // CPU-bound on purpose: the pane must learn that this query is slow.
    }
    return tl.result(i);
  };
  return { info: INFO, timeline: { ...tl, result } };
}

describe('slow engine queries wait for the keys to pause', () => {
  it('computes inline until a query proves slow, then defers it while unsettled', () => {
    const session = slowResultSession();
    const first = renderPane({ ...stateAt(6, session), settled: false }, 'result', 60, 4).map(plain);
    expect(first.join('\n')).toContain('[o1, 2026-10-01T09:30, 110.000000]');
    const moving = renderPane({ ...stateAt(7, session), settled: false }, 'result', 60, 4).map(plain);
    expect(moving.join('\n')).toContain('… shown when the keys pause');
    expect(moving[0]).toContain('result  …');
    const settled = renderPane({ ...stateAt(7, session), settled: true }, 'result', 60, 4).map(plain);
    expect(settled.join('\n')).toContain('[o1, 2026-10-01T09:30, null]');
    // once computed, the step's result is reused even while unsettled
    const again = renderPane({ ...stateAt(7, session), settled: false }, 'result', 60, 4).map(plain);
    expect(again.join('\n')).toContain('[o1, 2026-10-01T09:30, null]');
  });

  it('fast queries never wait', () => {
    const lines = renderPane({ ...stateAt(7), settled: false }, 'result', 60, 4).map(plain);
    expect(lines.join('\n')).toContain('[o1, 2026-10-01T09:30, null]');
  });
});
