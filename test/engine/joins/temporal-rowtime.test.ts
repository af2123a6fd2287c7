/**
 * Flink's TemporalRowTimeJoinOperatorTest, translated: rows are (time BIGINT, key STRING,
 * payload STRING) keyed by field 1, condition true. Flink 2.3 semantics unless stated (these
 * tests feed late probe rows, which 2.4 drops: see the last cases).
 */
import { describe, expect, it } from 'vitest';
import { createTemporalJoin } from '../../../src/engine/joins/temporal/temporal-join.js';
import { temporalStateEntries, type TemporalState } from '../../../src/engine/state/temporal-state.js';
import { pmValues } from '../../../src/engine/collections/pmap.js';
import { nextSeqOf, timerOf } from '../../../src/engine/state/temporal-state.js';
import type { FlinkVersion, JoinType } from '../../../src/planner/plan.js';
import type { SqlType } from '../../../src/values/types.js';
import { Harness, makePlan } from './interval-temporal-harness.js';

const BIGINT: SqlType = { kind: 'BIGINT', nullable: true };
const STRING: SqlType = { kind: 'STRING', nullable: true };
const ROW = [BIGINT, STRING, STRING] as const;

function harness(joinType: JoinType, opts: { ttl?: number; version?: FlinkVersion } = {}): Harness<TemporalState> {
  const plan = makePlan({
    family: 'temporal',
    joinType,
    keyIdx: 1,
    timeIdx: 0,
    types: [ROW, ROW],
    stateTtlMs: opts.ttl ?? 0,
    flinkVersion: opts.version ?? '2.3',
  });
  return new Harness(createTemporalJoin(plan), [...ROW, ...ROW]);
}

/** testRowTimeTemporalJoin's script (inner and left share it). */
function script(h: Harness<TemporalState>): Harness<TemporalState> {
  h.wm1(1).wm2(1);
  h.el1([1, 'k1', '1a1']).el2([2, 'k1', '1a2']);
  h.wm1(2).wm2(2);
  h.el1([1, 'k1', '1a1']).el1([3, 'k1', '1a3']).el2([4, 'k2', '2a4']);
  h.wm1(5).wm2(5);
  h.el1([6, 'k2', '2a3']).el2([7, 'k2', '2a4'], '-U').el2([7, 'k2', '2a5'], '+U');
  h.wm1(8).wm2(9);
  h.el1([9, 'k2', '5a11']).el1([11, 'k2', '5a12']).el2([9, 'k2', '2a5'], '-D').el2([10, 'k2', '2a6']);
  h.wm1(13).wm2(13);
  return h;
}

/** The same script over an upsert source (no -U rows, the probe side sends a +U). */
function upsertScript(h: Harness<TemporalState>): Harness<TemporalState> {
  h.wm1(1).wm2(1);
  h.el1([1, 'k1', '1a1']).el2([2, 'k1', '1a2']);
  h.wm1(2).wm2(2);
  h.el1([3, 'k1', '1a3'], '+U').el2([4, 'k2', '2a4']);
  h.wm1(5).wm2(5);
  h.el1([6, 'k2', '2a3']).el2([7, 'k2', '2a5'], '+U');
  h.wm1(8).wm2(9);
  h.el1([9, 'k2', '5a11']).el1([11, 'k2', '5a12']).el2([9, 'k2', '2a5'], '-D').el2([10, 'k2', '2a6']);
  h.wm1(13).wm2(13);
  return h;
}

describe('TemporalRowTimeJoinOperatorTest', () => {
  it('testRowTimeTemporalJoin', () => {
    expect(script(harness('inner')).output).toEqual([
      'WM(1)',
      'WM(2)',
      '+I[3, k1, 1a3, 2, k1, 1a2]',
      'WM(5)',
      '+I[6, k2, 2a3, 4, k2, 2a4]',
      'WM(8)',
      'WM(9)',
      '+I[11, k2, 5a12, 10, k2, 2a6]',
      'WM(13)',
    ]);
  });

  it('testRowTimeLeftTemporalJoin', () => {
    expect(script(harness('left')).output).toEqual([
      'WM(1)',
      '+I[1, k1, 1a1, null, null, null]',
      'WM(2)',
      '+I[1, k1, 1a1, null, null, null]',
      '+I[3, k1, 1a3, 2, k1, 1a2]',
      'WM(5)',
      '+I[6, k2, 2a3, 4, k2, 2a4]',
      'WM(8)',
      '+I[9, k2, 5a11, null, null, null]',
      'WM(9)',
      '+I[11, k2, 5a12, 10, k2, 2a6]',
      'WM(13)',
    ]);
  });

  it('testRowTimeTemporalJoinOnUpsertSource: the output kind is the probe row kind', () => {
    expect(upsertScript(harness('inner')).output).toEqual([
      'WM(1)',
      'WM(2)',
      '+U[3, k1, 1a3, 2, k1, 1a2]',
      'WM(5)',
      '+I[6, k2, 2a3, 4, k2, 2a4]',
      'WM(8)',
      'WM(9)',
      '+I[11, k2, 5a12, 10, k2, 2a6]',
      'WM(13)',
    ]);
  });

  it('testRowTimeLeftTemporalJoinOnUpsertSource', () => {
    expect(upsertScript(harness('left')).output).toEqual([
      'WM(1)',
      '+I[1, k1, 1a1, null, null, null]',
      'WM(2)',
      '+U[3, k1, 1a3, 2, k1, 1a2]',
      'WM(5)',
      '+I[6, k2, 2a3, 4, k2, 2a4]',
      'WM(8)',
      '+I[9, k2, 5a11, null, null, null]',
      'WM(9)',
      '+I[11, k2, 5a12, 10, k2, 2a6]',
      'WM(13)',
    ]);
  });

  it('testRowTimeTemporalJoinWithStateRetention: min 4, max 6', () => {
    const h = harness('left', { ttl: 4 });
    h.setProc(3).el2([3, 'k1', '0a3']);
    h.setProc(6).el1([6, 'k1', '0a6']);
    h.wm1(7).wm2(7);
    h.el2([3, 'k1', '0a3'], '-U').el2([3, 'k1', '0a5'], '+U');
    h.setProc(9).el1([9, 'k1', '7a9']);
    h.wm1(13).wm2(13);
    h.setProc(9 + 6).el1([15, 'k1', '13a15']); // the cleanup timer at 15 fired first: the versions are gone
    h.wm1(15).wm2(16);
    expect(h.output).toEqual([
      '+I[6, k1, 0a6, 3, k1, 0a3]',
      'WM(7)',
      '+I[9, k1, 7a9, 3, k1, 0a5]',
      'WM(13)',
      '+I[15, k1, 13a15, null, null, null]',
      'WM(15)',
    ]);
    const k1 = pmValues(h.state.keys)[0];
    expect(k1 && nextSeqOf(k1)).toBeUndefined();
    expect(k1 && timerOf(k1)).toBeUndefined();
    expect(temporalStateEntries(h.state)).toBe(0);
  });
});

describe('late probe rows by flink-version', () => {
  it('Flink 2.4 drops probe rows at or below the watermark, with no padding and a drop.late trace', () => {
    const h = script(harness('left', { version: '2.4' }));
    expect(h.records()).toEqual([
      '+I[3, k1, 1a3, 2, k1, 1a2]',
      '+I[6, k2, 2a3, 4, k2, 2a4]',
      '+I[9, k2, 5a11, null, null, null]',
      '+I[11, k2, 5a12, 10, k2, 2a6]',
    ]);
    expect(h.trace.filter((e) => e.t === 'drop.late').length).toBe(2);
  });

  it('Flink 2.3 keeps a late probe row and emits it at the next watermark advance', () => {
    const h = harness('inner');
    h.el2([1, 'k', 'v1']);
    h.wm1(10).wm2(10);
    h.el1([5, 'k', 'late']);
    expect(h.records()).toEqual([]);
    h.wm1(11).wm2(11);
    expect(h.records()).toEqual(['+I[5, k, late, 1, k, v1]']);
  });
});
