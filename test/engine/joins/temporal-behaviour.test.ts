/**
 * Temporal-join rules derived from TemporalRowTimeJoinOperator's code (notes §2.3-2.5, §9.8):
 * arrival-order emission, version overwrite and cleanup, late build rows, no revisions, the
 * state pane, and retention timers.
 */
import { describe, expect, it } from 'vitest';
import { createTemporalJoin } from '../../../src/engine/joins/temporal/temporal-join.js';
import { timerList } from '../../../src/engine/state/timer-service.js';
import type { TemporalState } from '../../../src/engine/state/temporal-state.js';
import type { JoinType } from '../../../src/planner/plan.js';
import type { SqlType } from '../../../src/values/types.js';
import { Harness, makePlan } from './interval-temporal-harness.js';

const BIGINT: SqlType = { kind: 'BIGINT', nullable: true };
const STRING: SqlType = { kind: 'STRING', nullable: true };
const ROW = [BIGINT, STRING, STRING] as const;

function harness(joinType: JoinType, ttl = 0): Harness<TemporalState> {
  const plan = makePlan({ family: 'temporal', joinType, keyIdx: 1, timeIdx: 0, types: [ROW, ROW], stateTtlMs: ttl });
  return new Harness(createTemporalJoin(plan), [...ROW, ...ROW]);
}

const wm = (h: Harness<TemporalState>, v: number) => h.wm1(v).wm2(v);

describe('temporal join', () => {
  it('emits the rows released by one watermark in arrival order, not time order', () => {
    const h = harness('inner');
    h.el2([1, 'k', 'v1']).el2([4, 'k', 'v4']);
    h.el1([5, 'k', 'second-in-time']).el1([3, 'k', 'first-in-time']);
    wm(h, 10);
    expect(h.records()).toEqual(['+I[5, k, second-in-time, 4, k, v4]', '+I[3, k, first-in-time, 1, k, v1]']);
  });

  it('uses the latest version at or before the probe time (a version at exactly that time counts)', () => {
    const h = harness('inner');
    h.el2([1, 'k', 'v1']).el2([5, 'k', 'v5']).el1([5, 'k', 'at5']).el1([4, 'k', 'at4']);
    wm(h, 9);
    expect(h.records()).toEqual(['+I[5, k, at5, 5, k, v5]', '+I[4, k, at4, 1, k, v1]']);
  });

  it('a second build row with the same time overwrites the version: the last arrival wins', () => {
    const h = harness('inner');
    h.el2([1, 'k', 'first']).el2([1, 'k', 'second']).el1([2, 'k', 'p']);
    wm(h, 5);
    expect(h.records()).toEqual(['+I[2, k, p, 1, k, second]']);
  });

  it('a -D version means no row from then on: LEFT pads, INNER emits nothing', () => {
    for (const [joinType, expected] of [
      ['left', ['+I[6, k, p, null, null, null]']],
      ['inner', []],
    ] as const) {
      const h = harness(joinType);
      h.el2([1, 'k', 'v1']).el2([5, 'k', 'v1'], '-D').el1([6, 'k', 'p']);
      wm(h, 10);
      expect(h.records()).toEqual(expected);
    }
  });

  it('a version rejected by the non-equi condition gives nulls for LEFT', () => {
    const BOOL: SqlType = { kind: 'BOOLEAN', nullable: true };
    const col = (index: number) => ({ k: 'col' as const, type: STRING, index, name: `c${index}` });
    const residual = { k: 'call' as const, type: BOOL, fn: '<>', args: [col(2), col(5)] }; // payloads differ
    const plan = makePlan({ family: 'temporal', joinType: 'left', keyIdx: 1, timeIdx: 0, types: [ROW, ROW], residual });
    const h = new Harness(createTemporalJoin(plan), [...ROW, ...ROW]);
    h.el2([1, 'k', 'same']).el1([2, 'k', 'same']).el1([3, 'k', 'other']);
    wm(h, 5);
    expect(h.records()).toEqual(['+I[2, k, same, null, null, null]', '+I[3, k, other, 1, k, same]']);
  });

  it('a late build row still changes probe rows that have not gone out yet', () => {
    const h = harness('inner');
    h.el2([1, 'k', 'v1']).el1([20, 'k', 'p']);
    wm(h, 10);
    h.el2([8, 'k', 'v8']); // time 8 <= watermark 10, never dropped
    wm(h, 20);
    expect(h.records()).toEqual(['+I[20, k, p, 8, k, v8]']);
  });

  it('never revises emitted rows when the build side changes afterwards', () => {
    const h = harness('left');
    h.el1([5, 'k', 'p']);
    wm(h, 5);
    h.el2([1, 'k', 'v1']);
    wm(h, 10);
    expect(h.output).toEqual(['+I[5, k, p, null, null, null]', 'WM(5)', 'WM(10)']);
  });

  it('keeps the last version <= watermark and everything newer, marked in the state pane', () => {
    const h = harness('inner');
    h.el2([1, 'k', 'v1']).el2([3, 'k', 'v3']).el2([9, 'k', 'v9']).el1([4, 'k', 'p']);
    wm(h, 5);
    const time = { procTime: 0, watermark: 5 };
    const versions = h.op.describe(h.state, 1, time).entries;
    expect(versions.map((e) => [e.row, e.tags.includes('in use at the watermark'), e.tags.includes('newer than the watermark')])).toEqual([
      ['+I[3, k, v3]', true, false],
      ['+I[9, k, v9]', false, true],
    ]);
  });

  it('shows buffered probe rows until the watermark passes them', () => {
    const h = harness('inner');
    h.el1([7, 'k', 'p']);
    h.el2([1, 'k', 'v1']).el2([9, 'k', 'v9']);
    const before = h.op.describe(h.state, 0, { procTime: 0, watermark: WM0 });
    expect(before.entries.map((e) => e.row)).toEqual(['+I[7, k, p]']);
    const versions = h.op.describe(h.state, 1, { procTime: 0, watermark: WM0 }).entries;
    expect(versions.map((e) => e.tags.some((t) => t.startsWith('picked by 1 buffered probe row')))).toEqual([true, false]);
    wm(h, 7);
    expect(h.op.describe(h.state, 0, { procTime: 0, watermark: 7 }).entries).toEqual([]);
  });

  it('keeps one event-time timer per key, at the smallest time seen', () => {
    const h = harness('inner');
    h.el1([9, 'k', 'a']).el2([4, 'k', 'v']).el1([6, 'k', 'b']);
    expect(timerList(h.state.eventTimers).map((t) => t.time)).toEqual([4]);
    wm(h, 5); // fires at 4: nothing to release, re-arms at the earliest buffered probe (6)
    expect(timerList(h.state.eventTimers).map((t) => t.time)).toEqual([6]);
  });

  it('retention: a cleanup timer at now + 1.5 ttl, moved only when now + ttl passes it', () => {
    const h = harness('left', 10);
    h.setProc(100).el2([1, 'k', 'v']);
    expect(h.op.nextProcessingTimer(h.state)).toBe(115);
    h.setProc(104).el1([2, 'k', 'p']); // 104 + 10 <= 115: not moved
    expect(h.op.nextProcessingTimer(h.state)).toBe(115);
    h.setProc(106).el1([3, 'k', 'q']); // 106 + 10 > 115: moved to 106 + 15
    expect(timerList(h.state.procTimers).map((t) => t.time)).toEqual([121]);
    h.setProc(121);
    expect(h.trace.filter((e) => e.t === 'state.expire').length).toBe(3);
    wm(h, 50);
    expect(h.records()).toEqual([]); // the probe rows were cleared with the state
  });
});

const WM0 = -Number.MAX_SAFE_INTEGER;
