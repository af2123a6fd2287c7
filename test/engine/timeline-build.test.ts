import { describe, expect, it, vi } from 'vitest';
vi.mock('../../src/values/eval.js', async () => ({ compileExpr: (await import('./mock-eval.js')).miniCompile }));
import { CHECKPOINT_EVERY, startTimelineWith } from '../../src/engine/timeline-core.js';
import type { ScenarioEvent } from '../../src/scenario/types.js';
import { CONFIG, ev, fakeOperator, mixedScript, ordersRates, plan, scenario } from './fixtures.js';
import { runSteps } from './helpers.js';

const { orders, rates } = ordersRates();
const P = plan(orders, rates);

const script = (n: number): ScenarioEvent[] => mixedScript(n, { keys: 5, idle: false });

const sc = (events: ScenarioEvent[]) => scenario(P, events, { config: { ...CONFIG, idleTimeoutMs: 100 } });
const factory = fakeOperator({ ttlMs: 150 });

describe('a timeline computed in pieces', () => {
  const events = script(3 * CHECKPOINT_EVERY + 29);
  const direct = runSteps(sc(events), factory);

  it('has no steps but the start before the first piece, and grows by each piece', () => {
    const b = startTimelineWith(sc(events), 0, factory);
    expect(b.timeline.length).toBe(0);
    expect(() => b.timeline.at(1)).toThrow(RangeError);
    expect(b.advance(10)).toBe(false);
    expect(b.timeline.length).toBe(10);
    expect(() => b.timeline.flagsAt(11)).toThrow(RangeError);
    expect(b.advance(1e9)).toBe(true);
    expect(b.timeline.length).toBe(events.length);
  });

  it('answers every ready step as the direct run does, between pieces of odd sizes', () => {
    const b = startTimelineWith(sc(events), 0, factory);
    const tl = b.timeline;
    // Piece ends that fall on, just before and just after checkpoints, with reads in between
    // (the reads run replays in transient edits of their own between two pieces).
    for (const piece of [1, 62, 1, 2, 37, CHECKPOINT_EVERY, 5, 1000]) {
      b.advance(piece);
      const n = tl.length;
      for (const i of [1, Math.floor(n / 2), n - 1, n]) {
        if (i < 1) continue;
        expect(tl.at(i)).toEqual(direct.recs[i - 1]);
        expect(tl.flagsAt(i)).toBe(direct.recs[i - 1]!.flags);
        expect(tl.changelogSize(i)).toBe(direct.recs[i - 1]!.snapshot.changelog.n);
      }
      const rows = direct.recs.slice(0, n).flatMap((r) => r.emitted);
      expect(tl.changelogRange(n, 0, 1e9).map((e) => [e.kind, e.row, e.step])).toEqual(rows.map((e) => [e.kind, e.row, e.step]));
    }
    expect(tl.length).toBe(events.length);
    expect(tl.result(events.length).length).toBeGreaterThan(0);
  });

  it('answers the newest step and the one before it, read first after pieces of any size, as the direct run does', () => {
    // Read first (a new timeline for each list of pieces, so no record read earlier is at hand),
    // the newest step and the one before it start from the run's snapshot two steps back.
    const pieces = [1, 1, 1, 2, 59, 2, CHECKPOINT_EVERY - 1, 1, 37, 1000];
    for (let last = 0; last < pieces.length; last++) {
      const b = startTimelineWith(sc(events), 0, factory);
      const tl = b.timeline;
      for (const piece of pieces.slice(0, last + 1)) b.advance(piece);
      const n = tl.length;
      expect(tl.at(n)).toEqual(direct.recs[n - 1]);
      if (n > 1) expect(tl.at(n - 1)).toEqual(direct.recs[n - 2]);
    }
  });

  it('an edit on a partly computed timeline computes the edited script to the end', () => {
    const b = startTimelineWith(sc(events), 0, factory);
    b.advance(100);
    const extra = ev.row('rates', ['k1', 5, 99]);
    const ins = b.timeline.insert(50, extra);
    const edited = [...events.slice(0, 50), extra, ...events.slice(50)];
    const fresh = runSteps(sc(edited), factory);
    expect(ins.length).toBe(edited.length);
    for (const i of [1, 50, 51, 52, ins.length]) expect(ins.at(i)).toEqual(fresh.recs[i - 1]);
  });
});

describe('a timeline computed while its events are still read', () => {
  const events = script(5 * CHECKPOINT_EVERY + 17);
  const direct = runSteps(sc(events), factory);

  it('answers every ready step as the direct run does while the list grows between pieces', () => {
    const growing: ScenarioEvent[] = [];
    // The count is unknown while reading (a replayed file): K is chosen from what is expected.
    const b = startTimelineWith(sc(growing), 0, factory, Infinity);
    const tl = b.timeline;
    let read = 0;
    for (const [more, piece] of [[3, 10], [40, 1], [0, 100], [200, 7], [1, 1000], [1000, 64], [0, 1e9]] as const) {
      for (const e of events.slice(read, read + more)) growing.push(e);
      read = growing.length;
      // Complete only when it has caught up with what is read so far.
      expect(b.advance(piece)).toBe(tl.length === growing.length);
      expect(tl.length).toBeLessThanOrEqual(growing.length);
      const n = tl.length;
      for (const i of [1, Math.floor(n / 2), n - 1, n]) {
        if (i < 1) continue;
        expect(tl.at(i)).toEqual(direct.recs[i - 1]);
        expect(tl.flagsAt(i)).toBe(direct.recs[i - 1]!.flags);
        expect(tl.changelogSize(i)).toBe(direct.recs[i - 1]!.snapshot.changelog.n);
      }
    }
    expect(tl.length).toBe(events.length);
    const rows = direct.recs.flatMap((r) => r.emitted);
    expect(tl.changelogRange(tl.length, 0, 1e9).map((e) => [e.kind, e.row, e.step])).toEqual(rows.map((e) => [e.kind, e.row, e.step]));
  });
});
