/**
 * Flink's ProcTimeIntervalJoinTest, translated. Rows are (key BIGINT, payload STRING) keyed by
 * field 0; a row's time is the processing time at arrival. The Flink test predates the
 * min-cleanup-interval option, when the delay was (leftRelativeSize + rightRelativeSize) / 2:
 * 15 for (-10, 20) and 2 for (-10, -5); we pass those values explicitly.
 */
import { describe, expect, it } from 'vitest';
import { createIntervalJoin } from '../../../src/engine/joins/interval/interval-join.js';
import { timerCount } from '../../../src/engine/state/timer-service.js';
import { keyedStateEntries, type IntervalState } from '../../../src/engine/state/interval-state.js';
import type { SqlType } from '../../../src/values/types.js';
import { Harness, makePlan } from './interval-temporal-harness.js';

const BIGINT: SqlType = { kind: 'BIGINT', nullable: true };
const STRING: SqlType = { kind: 'STRING', nullable: true };
const LTZ: SqlType = { kind: 'TIMESTAMP_LTZ', nullable: false, precision: 3 };
const TYPES = [BIGINT, STRING, LTZ] as const;

function harness(lowerMs: number, upperMs: number, minCleanupMs: number): Harness<IntervalState> {
  // Column 2 is the PROCTIME() attribute; its value in the row is never read.
  const plan = makePlan({ family: 'interval', joinType: 'inner', keyIdx: 0, timeIdx: 2, timeKind: 'proctime', types: [TYPES, TYPES], interval: { lowerMs, upperMs, minCleanupMs } });
  return new Harness(createIntervalJoin(plan), [BIGINT, STRING, LTZ, BIGINT, STRING, LTZ]);
}

const entries = (h: Harness<IntervalState>) => keyedStateEntries(h.state);
const timers = (h: Harness<IntervalState>) => timerCount(h.state.timers);
/** The printed records without the (unread) proctime columns. */
const pairs = (h: Harness<IntervalState>) => h.emissions.map((e) => `${e.row[0]}, ${e.row[1]}, ${e.row[3]}, ${e.row[4]}`);

describe('ProcTimeIntervalJoinTest', () => {
  it('testProcTimeInnerJoinWithCommonBounds: a >= b - 10 and a <= b + 20', () => {
    const h = harness(-10, 20, 15);
    h.setProc(1).el1([1, '1a1', null]);
    expect(timers(h)).toBe(1);
    h.setProc(2).el1([2, '2a2', null]);
    expect(timers(h)).toBe(2);
    h.setProc(3).el1([1, '1a3', null]);
    expect(entries(h)).toBe(4);
    expect(timers(h)).toBe(2);
    h.el2([1, '1b3', null]);
    h.setProc(4).el2([2, '2b4', null]);
    expect(entries(h)).toBe(8);
    expect(timers(h)).toBe(4);
    h.setProc(13).el2([1, '1b13', null]); // the left row 1a1 (time 1) is eagerly removed: 1 <= 13 - 10 - 1
    h.setProc(33);
    expect(entries(h)).toBe(4);
    expect(timers(h)).toBe(2);
    h.el1([1, '1a33', null]).el1([2, '2a33', null]).el2([2, '2b33', null]);
    expect(pairs(h)).toEqual(['1, 1a1, 1, 1b3', '1, 1a3, 1, 1b3', '2, 2a2, 2, 2b4', '1, 1a3, 1, 1b13', '1, 1a33, 1, 1b13', '2, 2a33, 2, 2b33']);
  });

  it('testProcTimeInnerJoinWithNegativeBounds: a >= b - 10 and a <= b - 5', () => {
    const h = harness(-10, -5, 2);
    h.setProc(1).el1([1, '1a1', null]);
    h.setProc(2).el1([2, '2a2', null]);
    h.setProc(3).el1([1, '1a3', null]);
    expect(entries(h)).toBe(4);
    expect(timers(h)).toBe(2);
    h.el2([1, '1b3', null]); // right rows are never cached: 3 - 5 < now
    expect(entries(h)).toBe(4);
    expect(timers(h)).toBe(2);
    h.setProc(7).el2([2, '2b7', null]); // joined, not cached
    expect(entries(h)).toBe(4);
    expect(timers(h)).toBe(2);
    h.setProc(12).el2([1, '1b12', null]); // left 1a1 eagerly removed
    h.setProc(13); // the cleanup delay: no timer yet
    expect(entries(h)).toBe(4);
    expect(timers(h)).toBe(2);
    h.setProc(14); // key 1's timer: 1 + 10 + 2 + 1; removes 1a3
    expect(entries(h)).toBe(2);
    expect(timers(h)).toBe(1);
    h.setProc(16);
    expect(entries(h)).toBe(0);
    expect(timers(h)).toBe(0);
    expect(pairs(h)).toEqual(['2, 2a2, 2, 2b7', '1, 1a3, 1, 1b12']);
  });

  it('adds no watermark delay and registers processing-time timers only', () => {
    const h = harness(-10, 20, 0);
    expect(h.op.outputWatermarkDelay).toBe(0);
    h.setProc(5).el1([1, 'a', null]);
    expect(h.op.nextProcessingTimer(h.state)).toBe(5 + 10 + 0 + 1);
    expect(h.trace.some((e) => e.t === 'timer.register' && e.domain === 'proc' && e.time === 16)).toBe(true);
  });
});
