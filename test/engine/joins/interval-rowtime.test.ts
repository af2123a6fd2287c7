/**
 * Flink's RowTimeIntervalJoinTest, translated: rows are (time BIGINT, key STRING) keyed by the
 * key, bounds (lower, upper) and min-cleanup-interval as the Flink test passes them. Output lists
 * records and forwarded watermarks in order, as Flink's assertOutputEquals does.
 */
import { describe, expect, it } from 'vitest';
import { createIntervalJoin } from '../../../src/engine/joins/interval/interval-join.js';
import { timerCount } from '../../../src/engine/state/timer-service.js';
import { keyedStateEntries, type IntervalState } from '../../../src/engine/state/interval-state.js';
import type { JoinType } from '../../../src/planner/plan.js';
import type { SqlType } from '../../../src/values/types.js';
import { Harness, makePlan } from './interval-temporal-harness.js';

const BIGINT: SqlType = { kind: 'BIGINT', nullable: true };
const STRING: SqlType = { kind: 'STRING', nullable: true };
const OUT = [BIGINT, STRING, BIGINT, STRING];

function harness(joinType: JoinType, lowerMs: number, upperMs: number, minCleanupMs: number): Harness<IntervalState> {
  const plan = makePlan({ family: 'interval', joinType, keyIdx: 1, timeIdx: 0, interval: { lowerMs, upperMs, minCleanupMs } });
  return new Harness(createIntervalJoin(plan), OUT);
}

const entries = (h: Harness<IntervalState>) => keyedStateEntries(h.state);
const timers = (h: Harness<IntervalState>) => timerCount(h.state.timers);

describe('RowTimeIntervalJoinTest', () => {
  it('testRowTimeInnerJoinWithCommonBounds: a >= b - 10 and a <= b + 20', () => {
    const h = harness('inner', -10, 20, 15);
    h.wm1(1).wm2(1);
    h.el1([1, 'k1']); // late, yet cached
    expect(timers(h)).toBe(1);
    h.el1([2, 'k1']).el2([2, 'k1']);
    expect(timers(h)).toBe(2);
    expect(entries(h)).toBe(4);
    h.el1([5, 'k1']).el2([15, 'k1']);
    h.wm1(20).wm2(20);
    expect(entries(h)).toBe(4);
    h.el1([35, 'k1']);
    h.wm1(38).wm2(38);
    h.el1([40, 'k2']).el2([39, 'k2']);
    expect(entries(h)).toBe(6);
    h.wm1(61).wm2(61);
    expect(entries(h)).toBe(4);
    expect(h.output).toEqual([
      'WM(-19)',
      '+I[1, k1, 2, k1]',
      '+I[2, k1, 2, k1]',
      '+I[5, k1, 2, k1]',
      '+I[5, k1, 15, k1]',
      'WM(0)',
      '+I[35, k1, 15, k1]',
      'WM(18)',
      '+I[40, k2, 39, k2]',
      'WM(41)',
    ]);
  });

  it('testRowTimeInnerJoinWithNegativeBounds: a >= b - 10 and a <= b - 7', () => {
    const h = harness('inner', -10, -7, 0);
    h.wm1(1).wm2(1);
    h.el2([2, 'k1']); // not cached: 2 - 7 < watermark
    expect(entries(h)).toBe(0);
    h.wm1(2).wm2(2);
    h.el1([3, 'k1']).el2([3, 'k1']);
    h.el2([13, 'k1']); // -10 boundary: 13 - 10 = 3
    h.el1([6, 'k1']); // -7 boundary: 13 - 7 = 6
    expect(entries(h)).toBe(4);
    h.wm1(10).wm2(10);
    expect(entries(h)).toBe(2);
    h.wm1(18).wm2(18);
    expect(entries(h)).toBe(0);
    expect(h.output).toEqual(['WM(-9)', 'WM(-8)', '+I[3, k1, 13, k1]', '+I[6, k1, 13, k1]', 'WM(0)', 'WM(8)']);
  });

  it('testRowTimeInnerJoinRealtimeCleanUp: a LEFT row at 1 is padded once the watermark reaches 7 = 1 + 5 + 1', () => {
    const h = harness('left', -5, 9, 0);
    h.el1([1, 'k1']).el2([1, 'k2']);
    expect(timers(h)).toBe(2);
    expect(entries(h)).toBe(4);
    h.wm1(7).wm2(7);
    expect(timers(h)).toBe(1);
    expect(entries(h)).toBe(2);
    expect(h.output).toEqual(['+I[1, k1, null, null]', 'WM(-2)']);
  });

  /** The shared script of the left / right / full outer tests (bounds -5, 9; min cleanup 7). */
  function outerScript(joinType: JoinType): Harness<IntervalState> {
    const h = harness(joinType, -5, 9, 7);
    h.el1([1, 'k1']).el2([1, 'k2']);
    expect(timers(h)).toBe(2);
    expect(entries(h)).toBe(4);
    h.wm1(14).wm2(14); // left row 1 expires: 14 = 1 + 5 + 7 + 1
    expect(timers(h)).toBe(1);
    expect(entries(h)).toBe(2);
    h.wm1(18).wm2(18); // right row 1 expires: 18 = 1 + 9 + 7 + 1
    expect(timers(h)).toBe(0);
    expect(entries(h)).toBe(0);
    h.el1([2, 'k1']).el2([2, 'k2']); // late: not cached, padded at once on an outer side
    expect(entries(h)).toBe(0);
    expect(timers(h)).toBe(0);
    h.el1([19, 'k1']).el1([20, 'k1']).el2([26, 'k1']).el2([25, 'k1']).el1([21, 'k1']);
    h.el2([39, 'k2']).el2([40, 'k2']).el1([50, 'k2']).el1([49, 'k2']).el2([41, 'k2']);
    h.wm1(100).wm2(100);
    return h;
  }

  const inner = ['+I[20, k1, 25, k1]', '+I[21, k1, 25, k1]', '+I[21, k1, 26, k1]', '+I[49, k2, 40, k2]', '+I[49, k2, 41, k2]', '+I[50, k2, 41, k2]'];

  it('testRowTimeLeftOuterJoin', () => {
    expect(outerScript('left').output).toEqual(['+I[1, k1, null, null]', 'WM(5)', 'WM(9)', '+I[2, k1, null, null]', ...inner, '+I[19, k1, null, null]', 'WM(91)']);
  });

  it('testRowTimeRightOuterJoin', () => {
    expect(outerScript('right').output).toEqual(['WM(5)', '+I[null, null, 1, k2]', 'WM(9)', '+I[null, null, 2, k2]', ...inner, '+I[null, null, 39, k2]', 'WM(91)']);
  });

  it('testRowTimeFullOuterJoin', () => {
    expect(outerScript('full').output).toEqual([
      '+I[1, k1, null, null]',
      'WM(5)',
      '+I[null, null, 1, k2]',
      'WM(9)',
      '+I[2, k1, null, null]',
      '+I[null, null, 2, k2]',
      ...inner,
      '+I[19, k1, null, null]',
      '+I[null, null, 39, k2]',
      'WM(91)',
    ]);
  });
});
