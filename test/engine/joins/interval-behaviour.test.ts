/**
 * Interval-join rules beyond Flink's harness tests, each derived from TimeIntervalJoin's code
 * (notes §4, §9.1-9.2): exact timer times, eager expiry, the operator-wide expiration field,
 * negative windows, null keys, watermark delay, and the state pane.
 */
import { describe, expect, it } from 'vitest';
import { createIntervalJoin } from '../../../src/engine/joins/interval/interval-join.js';
import { timerList } from '../../../src/engine/state/timer-service.js';
import type { IntervalState } from '../../../src/engine/state/interval-state.js';
import type { JoinType } from '../../../src/planner/plan.js';
import type { SqlType } from '../../../src/values/types.js';
import { Harness, makePlan } from './interval-temporal-harness.js';

const BIGINT: SqlType = { kind: 'BIGINT', nullable: true };
const STRING: SqlType = { kind: 'STRING', nullable: true };

function harness(joinType: JoinType, lowerMs: number, upperMs: number, minCleanupMs = 0): Harness<IntervalState> {
  const plan = makePlan({ family: 'interval', joinType, keyIdx: 1, timeIdx: 0, interval: { lowerMs, upperMs, minCleanupMs } });
  return new Harness(createIntervalJoin(plan), [BIGINT, STRING, BIGINT, STRING]);
}

const timerTimes = (h: Harness<IntervalState>) => timerList(h.state.timers).map((t) => t.time);

describe('interval join: cleanup timing', () => {
  it('with min-cleanup-interval 0, a left row at t is padded exactly when the watermark reaches t - lower + 1', () => {
    const h = harness('left', -5, 9);
    h.el1([1, 'k1']);
    expect(timerTimes(h)).toEqual([7]);
    h.wm1(6).wm2(6);
    expect(h.records()).toEqual([]);
    h.wm1(7).wm2(7);
    expect(h.records()).toEqual(['+I[1, k1, null, null]']);
    expect(timerTimes(h)).toEqual([]);
  });

  it('min-cleanup-interval delays the timer, but a right row scanning the cache expires the row eagerly', () => {
    const h = harness('left', -5, 9, 7);
    h.el1([1, 'k1']);
    expect(timerTimes(h)).toEqual([14]);
    h.wm1(8).wm2(8);
    expect(h.records()).toEqual([]); // the timer at 14 has not fired
    h.el2([20, 'k1']); // scans the left cache: 1 <= 8 - 5 - 1, so the row is padded and removed now
    expect(h.records()).toEqual(['+I[1, k1, null, null]']);
    h.wm1(14).wm2(14);
    expect(h.records()).toEqual(['+I[1, k1, null, null]']); // no second padding when the timer fires
  });

  it('the timer is re-armed for the earliest remaining row', () => {
    const h = harness('left', -5, 9);
    h.el1([1, 'k1']).el1([10, 'k1']);
    expect(timerTimes(h)).toEqual([7]);
    h.wm1(7).wm2(7);
    expect(h.records()).toEqual(['+I[1, k1, null, null]']);
    expect(timerTimes(h)).toEqual([16]);
  });

  it('a left cleanup timer and a right cleanup timer at the same time fire as one Flink timer, right cache first', () => {
    // Bounds (2, 5): relSize(left) = -2, relSize(right) = 5. Left 20 and right 13 do not match
    // (right must be within [15, 18]) and both cleanup timers fall on 19.
    const h = harness('full', 2, 5);
    h.el1([20, 'k']).el2([13, 'k']);
    expect(timerTimes(h)).toEqual([19]);
    h.wm1(19).wm2(19);
    expect(h.records()).toEqual(['+I[null, null, 13, k]', '+I[20, k, null, null]']);
    expect(timerTimes(h)).toEqual([]);
  });
});

describe('interval join: late rows', () => {
  it('a late row joins what is still cached and is padded at once on an outer side when it matched nothing', () => {
    const h = harness('left', -5, 9, 100);
    h.el2([10, 'k1']);
    h.wm1(30).wm2(30);
    h.el1([12, 'k1']); // late (window end 12 + 5 < 30), but right 10 is still cached
    h.el1([13, 'k2']); // late, nothing to join: padded immediately
    expect(h.records()).toEqual(['+I[12, k1, 10, k1]', '+I[13, k2, null, null]']);
    expect(h.trace.filter((e) => e.t === 'state.add' && e.side === 0)).toEqual([]);
  });

  it('the expiration time is one field for all keys: a late row of another key skips a cache Flink thinks is clean', () => {
    // k2's right row at 10 is still cached (its timer is far away), so only the operator-wide
    // leftExpirationTime decides whether a late k2 row probes it.
    const run = (k1First: boolean) => {
      const h = harness('inner', -5, 9, 100);
      h.el1([10, 'k2']);
      h.wm1(30).wm2(30);
      if (k1First) h.el2([40, 'k1']); // sets leftExpirationTime = 30 - 5 - 1 = 24
      h.el2([12, 'k2']); // window end 12 + 9 = 21
      return h.records();
    };
    expect(run(false)).toEqual(['+I[10, k2, 12, k2]']);
    expect(run(true)).toEqual([]);
  });
});

describe('interval join: other rules', () => {
  it('several matches come out in ascending time, then arrival', () => {
    const h = harness('inner', -10, 10);
    h.el2([5, 'k']).el2([3, 'k']).el2([5, 'k']).el2([4, 'k']);
    h.el1([4, 'k']);
    expect(h.emissions.map((e) => e.row[2])).toEqual([3, 4, 5, 5]);
  });

  it('a negative window keeps no state: outer rows are padded at once, inner rows dropped', () => {
    const h = harness('left', 5, 3);
    h.el1([1, 'k']).el2([1, 'k']).el1([2, 'k']);
    expect(h.records()).toEqual(['+I[1, k, null, null]', '+I[2, k, null, null]']);
    expect(h.op.outputWatermarkDelay).toBe(0);
    expect(h.op.describe(h.state, 0, { procTime: 0, watermark: 0 }).entries).toEqual([]);
  });

  it('null join keys never match (= is not null-safe); both rows are padded at expiry in a FULL join', () => {
    const h = harness('full', -5, 5);
    h.el1([1, null]).el2([1, null]);
    h.wm1(100).wm2(100);
    expect(h.records()).toEqual(['+I[null, null, 1, null]', '+I[1, null, null, null]']);
  });

  it('the non-equi condition decides a match: a row it rejects stays unjoined and is padded at expiry', () => {
    const BOOL: SqlType = { kind: 'BOOLEAN', nullable: true };
    const col = (index: number) => ({ k: 'col' as const, type: BIGINT, index, name: `c${index}` });
    const residual = { k: 'call' as const, type: BOOL, fn: '<>', args: [col(0), col(2)] }; // l.time <> r.time
    const plan = makePlan({ family: 'interval', joinType: 'left', keyIdx: 1, timeIdx: 0, interval: { lowerMs: -5, upperMs: 5, minCleanupMs: 0 }, residual });
    const h = new Harness(createIntervalJoin(plan), [BIGINT, STRING, BIGINT, STRING]);
    h.el2([5, 'k']).el1([5, 'k']).el1([6, 'k']);
    expect(h.records()).toEqual(['+I[6, k, 5, k]']);
    h.wm1(100).wm2(100);
    expect(h.records()).toEqual(['+I[6, k, 5, k]', '+I[5, k, null, null]']);
  });

  it('holds the output watermark back by max(-lower, upper)', () => {
    expect(harness('inner', -10, 20).op.outputWatermarkDelay).toBe(20);
    expect(harness('inner', -30, 5).op.outputWatermarkDelay).toBe(30);
    expect(harness('inner', 5, 10).op.outputWatermarkDelay).toBe(10);
  });

  it('describes each cache with flags and expiry', () => {
    const h = harness('left', -5, 9);
    h.el1([1, 'k1']).el1([2, 'k1']).el2([3, 'k1']);
    const left = h.op.describe(h.state, 0, { procTime: 0, watermark: 0 });
    expect(left.entries.map((e) => [e.key, e.row, e.tags.includes('joined'), e.expiresAt])).toEqual([
      ['k1', '+I[1, k1]', true, 7],
      ['k1', '+I[2, k1]', true, 8],
    ]);
    const right = h.op.describe(h.state, 1, { procTime: 0, watermark: 0 });
    expect(right.entries.map((e) => [e.row, e.expiresAt, e.expiryDomain])).toEqual([['+I[3, k1]', 13, 'event']]);
  });

  it('states are never mutated: an old state replays to the same output', () => {
    const h = harness('left', -5, 9);
    h.el1([1, 'k1']);
    const snapshot = h.state;
    const json = JSON.stringify(snapshot);
    h.el2([3, 'k1']).wm1(50).wm2(50);
    expect(JSON.stringify(snapshot)).toBe(json);
  });
});
