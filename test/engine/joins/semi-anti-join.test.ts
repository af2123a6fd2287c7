/**
 * StreamingSemiAntiJoinOperatorTest, translated (same inputs, TTL clock and expected sequences),
 * plus duplicates, NULL keys and the residual condition.
 */
import { describe, expect, it } from 'vitest';
import { createSemiAntiJoin } from '../../../src/engine/joins/regular/semi-anti-join.js';
import { binaryRowHash } from '../../../src/engine/state/flink-map-order.js';
import { JavaHashMapModel } from './java-hash-map-model.js';
import { call, col, Harness, INT, planOf, STR } from './regular-join-harness.js';

/** o1 and o2 of `plain` as their left state's HashMap (keyed by the whole row) iterates them. */
function o1o2InMapOrder(): [string, string] {
  const m = new JavaHashMapModel<string>((key) => {
    const [id, k, amount] = key.split(', ');
    return binaryRowHash([id as string, k as string, Number(amount)], [STR, STR, INT]);
  });
  m.put('o1, k, 1', 'o1, k, 1');
  m.put('o2, k, 2', 'o2, k, 2');
  const [a, b] = m.entries().map(([, v]) => v);
  return [a as string, b as string];
}

const A1 = '3 Bellevue Drive, Pottstown, PA 19464';

function harness(family: 'semi' | 'anti', ttl?: [number, number]) {
  const plan = planOf({
    family,
    joinType: 'inner',
    left: {
      alias: 'a',
      columns: [['order_id', STR], ['line_order_id', STR], ['shipping_address', STR]],
      layout: { kind: 'JoinKeyContainsUniqueKey', uniqueKey: [1] },
      ...(ttl ? { ttlMs: ttl[0] } : {}),
    },
    right: {
      alias: 'b',
      columns: [['line_order_id0', STR], ['line_order_ship_mode', STR]],
      layout: { kind: 'JoinKeyContainsUniqueKey', uniqueKey: [0] },
      ...(ttl ? { ttlMs: ttl[1] } : {}),
    },
    keys: [[1, 0]],
  });
  return new Harness(createSemiAntiJoin(plan), plan);
}

describe('StreamingSemiAntiJoinOperatorTest (translated)', () => {
  it('testLeftSemiJoinWithDifferentStateRetentionTime (4000 / 1000)', () => {
    const h = harness('semi', [4000, 1000]);
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmitNothing();
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmitNothing();
    h.setStateTtlProcessingTime(3001);
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}]`);
    h.processElement2('+U', 'LineOrd#2', 'TRUCK').shouldEmitNothing();
    h.processElement2('-D', 'LineOrd#2', 'TRUCK').shouldEmitNothing();
    // numOfAssociations is reduced to 1, retract the record
    h.processElement2('-D', 'LineOrd#2', 'AIR').shouldEmit(`-D[Ord#1, LineOrd#2, ${A1}]`);
    // the left side state of LineOrd#1 has expired
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#1', 'SHIP').shouldEmitNothing();
    // the right side state of LineOrd#1 has expired
    h.setStateTtlProcessingTime(5001);
    h.processElement1('+U', 'Ord#1', 'LineOrd#1', '7238 Marsh St., Birmingham, AL 35209').shouldEmitNothing();
  });

  it('testLeftSemiJoinWithStateRetentionDisabled', () => {
    const h = harness('semi');
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmitNothing();
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmitNothing();
    h.setStateTtlProcessingTime(3001);
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}]`);
    h.processElement2('+U', 'LineOrd#2', 'TRUCK').shouldEmitNothing();
    h.processElement2('-D', 'LineOrd#2', 'TRUCK').shouldEmitNothing();
    h.processElement2('-D', 'LineOrd#2', 'AIR').shouldEmit(`-D[Ord#1, LineOrd#2, ${A1}]`);
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#1', 'SHIP').shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}]`);
    h.setStateTtlProcessingTime(5001);
    h.processElement1('+U', 'Ord#1', 'LineOrd#1', '7238 Marsh St., Birmingham, AL 35209').shouldEmit('+U[Ord#1, LineOrd#1, 7238 Marsh St., Birmingham, AL 35209]');
  });

  it('testLeftAntiJoinWithDifferentStateRetentionTime (4000 / 1000)', () => {
    const h = harness('anti', [4000, 1000]);
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}]`);
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}]`);
    h.setStateTtlProcessingTime(3001);
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(`-D[Ord#1, LineOrd#2, ${A1}]`);
    // left side state of LineOrd#1 has expired
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#1', 'RAIL').shouldEmitNothing();
    // right side state of LineOrd#1 has expired
    h.setStateTtlProcessingTime(5001);
    h.processElement1('+U', 'Ord#1', 'LineOrd#1', '23 W. River Avenue, Port Orange, FL 32127').shouldEmit('+U[Ord#1, LineOrd#1, 23 W. River Avenue, Port Orange, FL 32127]');
  });

  it('testLeftAntiJoinWithStateRetentionTimeDisabled', () => {
    const h = harness('anti');
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}]`);
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}]`);
    h.setStateTtlProcessingTime(3001);
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(`-D[Ord#1, LineOrd#2, ${A1}]`);
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#1', 'RAIL').shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}]`);
    h.setStateTtlProcessingTime(5001);
    h.processElement1('+U', 'Ord#1', 'LineOrd#1', '23 W. River Avenue, Port Orange, FL 32127').shouldEmitNothing();
  });
});

/** o(id, k, amount) WHERE k [NOT] IN (SELECT k FROM r(k, min)), no unique keys. */
function plain(family: 'semi' | 'anti', residual?: ReturnType<typeof call>) {
  const plan = planOf({
    family,
    joinType: 'inner',
    left: { alias: 'o', columns: [['id', STR], ['k', STR], ['amount', INT]], layout: { kind: 'InputSideHasNoUniqueKey' } },
    right: { alias: 'r', columns: [['k', STR], ['min', INT]], layout: { kind: 'InputSideHasNoUniqueKey' } },
    keys: [[1, 0]],
    ...(residual ? { residual } : {}),
  });
  return new Harness(createSemiAntiJoin(plan), plan);
}

describe('semi / anti join rules', () => {
  it('semi: the first right row passes each left row once, with the right row kind; the last one retracts it', () => {
    const h = plain('semi');
    h.processElement1('+I', 'o1', 'k', 1).processElement1('+I', 'o2', 'k', 2).shouldEmitNothing();
    const [a, b] = o1o2InMapOrder();
    h.processElement2('+U', 'k', 0).shouldEmit(`+U[${a}]`, `+U[${b}]`);
    h.processElement2('+I', 'k', 5).shouldEmitNothing();
    expect(h.describe(0).entries.map((e) => e.tags)).toEqual([['count=1', 'assoc=2'], ['count=1', 'assoc=2']]);
    h.processElement2('-U', 'k', 0).shouldEmitNothing();
    h.processElement2('-D', 'k', 5).shouldEmit(`-D[${a}]`, `-D[${b}]`);
    // a left row with a match passes with its own kind, a retraction too
    h.processElement2('+I', 'k', 9).shouldEmit(`+I[${a}]`, `+I[${b}]`);
    h.processElement1('-U', 'o1', 'k', 1).shouldEmit('-U[o1, k, 1]');
    h.processElement1('+U', 'o1', 'k', 3).shouldEmit('+U[o1, k, 3]');
  });

  it('anti: left rows without a match pass; the first match sends -D, losing the last sends +I', () => {
    const h = plain('anti');
    h.processElement1('+I', 'o1', 'k', 1).shouldEmit('+I[o1, k, 1]');
    h.processElement2('+I', 'k', 0).shouldEmit('-D[o1, k, 1]');
    h.processElement1('+I', 'o2', 'k', 2).shouldEmitNothing();
    const [a, b] = o1o2InMapOrder();
    h.processElement2('-U', 'k', 0).shouldEmit(`+I[${a}]`, `+I[${b}]`);
  });

  it('anti: a NULL key never matches, so the row always passes', () => {
    const h = plain('anti');
    h.processElement2('+I', null, 0);
    h.processElement1('+I', 'o1', null, 1).shouldEmit('+I[o1, null, 1]');
  });

  it('the residual condition decides what matches', () => {
    const h = plain('semi', call('>', col(2, INT, 'amount'), col(4, INT, 'min')));
    h.processElement1('+I', 'o1', 'k', 5);
    h.processElement2('+I', 'k', 10).shouldEmitNothing();
    h.processElement2('+I', 'k', 1).shouldEmit('+I[o1, k, 5]');
    expect(h.emitted).toEqual([]);
  });

  it('duplicate left rows pass once each', () => {
    const h = plain('semi');
    h.processElement1('+I', 'o1', 'k', 1).processElement1('+I', 'o1', 'k', 1);
    h.processElement2('+I', 'k', 0).shouldEmit('+I[o1, k, 1]', '+I[o1, k, 1]');
    expect(h.describe(0).layout).toContain('row -> count + associations');
  });
});
