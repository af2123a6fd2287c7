/**
 * On a big run some engine queries (the materialized result, a large state) take longer than a
 * frame: while keys arrive they are deferred, and drawn once the step is settled.
 */
import { describe, expect, it } from 'vitest';
import { WM_MIN } from '../../src/engine/types.js';
import { plain } from '../../src/ui/lines.js';
import { renderPane } from '../../src/ui/panes/index.js';
import { FAR_STATE_STEP, slowestQueryMs } from '../../src/ui/step-view.js';
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

  it('a far step\'s state waits for the keys to pause until a state as far was described fast', () => {
    const tl = fakeTimeline(storySteps(), wmView(WM_MIN, WM_MIN, WM_MIN));
    let described = 0;
    // The fake clamps steps to its own: a long run whose every state is the story's last one (fast).
    const session = { info: INFO, timeline: { ...tl, length: 10 * FAR_STATE_STEP, describeState: (i: number, side: 0 | 1) => (described++, tl.describeState(i, side)) } };
    const pane = (step: number, settled: boolean): string => renderPane({ ...stateAt(step, session), settled }, 'left', 60, 6).map(plain).join('\n');
    const far = 2 * FAR_STATE_STEP;
    expect(pane(3, false)).not.toContain('… shown when the keys pause');
    expect(pane(far, false)).toContain('… shown when the keys pause');
    const before = described;
    expect(pane(far, true)).not.toContain('… shown when the keys pause');
    expect(described).toBe(before + 1);
    // Measured fast that far: nearer steps are described at once, farther ones wait again.
    expect(pane(far - 1, false)).not.toContain('… shown when the keys pause');
    expect(pane(far + 1, false)).toContain('… shown when the keys pause');
  });

  it('remembers how long the slowest query took, for how long the keys must pause before a settled frame', () => {
    const session = slowResultSession();
    expect(slowestQueryMs(session.timeline)).toBe(0);
    renderPane({ ...stateAt(6, session), settled: false }, 'result', 60, 4);
    const slowest = slowestQueryMs(session.timeline);
    expect(slowest).toBeGreaterThanOrEqual(12);
    // A fast query leaves it as it was.
    renderPane({ ...stateAt(6, session), settled: false }, 'left', 60, 4);
    expect(slowestQueryMs(session.timeline)).toBe(slowest);
  });
});
