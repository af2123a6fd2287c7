/**
 * StreamingJoinOperatorTest, translated: the same inputs, TTL clock moves and expected output
 * sequences (kinds included, in order). Tables: a(order_id, line_order_id, shipping_address) and
 * b(line_order_id0, line_order_ship_mode), joined on line_order_id, both JoinKeyContainsUniqueKey.
 * Flink tags: leftStateRetentionTime / rightStateRetentionTime -> ttl [left, right].
 */
import { describe, it } from 'vitest';
import { createRegularJoin } from '../../../src/engine/joins/regular/regular-join.js';
import type { FlinkVersion, JoinType } from '../../../src/planner/plan.js';
import { flinkBasePlan, Harness } from './regular-join-harness.js';

const A1 = '3 Bellevue Drive, Pottstown, PA 19464';
const A2 = '68 Manor Station Street, Honolulu, HI 96815';
const A3 = '3 North Winchester Drive, Haines City, FL 33844';

function harness(joinType: JoinType, ttl?: [number, number], flinkVersion?: FlinkVersion) {
  const plan = flinkBasePlan(joinType, { ...(ttl === undefined ? {} : { ttl }), ...(flinkVersion === undefined ? {} : { flinkVersion }) });
  return new Harness(createRegularJoin(plan), plan);
}

describe('StreamingJoinOperatorTest (translated)', () => {
  it('testInnerJoinWithDifferentStateRetentionTime (4000 / 1000)', () => {
    const h = harness('inner', [4000, 1000]);
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmitNothing();
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmitNothing();
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}, LineOrd#2, AIR]`);
    // the right side state of LineOrd#2 has expired
    h.setStateTtlProcessingTime(3000);
    h.processElement1('+U', 'Ord#1', 'LineOrd#2', A2).shouldEmitNothing();
    h.processElement2('+U', 'LineOrd#2', 'SHIP').shouldEmit(`+U[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`);
    // the left side state of LineOrd#1 has expired
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#1', 'TRUCK').shouldEmitNothing();
    h.processElement2('-D', 'LineOrd#2', 'SHIP').shouldEmit(`-D[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`);
    // the left side state of LineOrd#2 has expired
    h.setStateTtlProcessingTime(7000);
    h.processElement2('+I', 'LineOrd#2', 'RAIL').shouldEmitNothing();
  });

  it('testInnerJoinWithStateRetentionDisabled', () => {
    const h = harness('inner');
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmitNothing();
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmitNothing();
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}, LineOrd#2, AIR]`);
    h.setStateTtlProcessingTime(3000);
    h.processElement1('+U', 'Ord#1', 'LineOrd#2', A2).shouldEmit(`+U[Ord#1, LineOrd#2, ${A2}, LineOrd#2, AIR]`);
    h.processElement2('+U', 'LineOrd#2', 'SHIP').shouldEmit(`+U[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`);
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#1', 'TRUCK').shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, TRUCK]`);
    h.processElement2('-D', 'LineOrd#2', 'SHIP').shouldEmit(`-D[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`);
    h.setStateTtlProcessingTime(7000);
    h.processElement2('+I', 'LineOrd#2', 'RAIL').shouldEmit(`+I[Ord#1, LineOrd#2, ${A2}, LineOrd#2, RAIL]`);
  });

  it('testInnerJoinWithSameStateRetentionTime (4000 / 4000): expiry is inclusive', () => {
    const h = harness('inner', [4000, 4000]);
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmitNothing();
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmitNothing();
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}, LineOrd#2, AIR]`);
    // extend the expired time to 8000 for LineOrd#2
    h.setStateTtlProcessingTime(4000);
    h.processElement1('+U', 'Ord#1', 'LineOrd#2', A2).shouldEmit(`+U[Ord#1, LineOrd#2, ${A2}, LineOrd#2, AIR]`);
    // the state of LineOrd#1 has expired
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#1', 'TRUCK').shouldEmitNothing();
    // the expired time for left and right state of LineOrd#2 is 8000
    h.setStateTtlProcessingTime(7999);
    h.processElement2('+U', 'LineOrd#2', 'TRUCK').shouldEmit(`+U[Ord#1, LineOrd#2, ${A2}, LineOrd#2, TRUCK]`);
    h.setStateTtlProcessingTime(8000);
    h.processElement2('+U', 'LineOrd#2', 'RAIL').shouldEmitNothing();
  });

  it('testLeftOuterJoinWithDifferentStateRetentionTime (4000 / 1000)', () => {
    const h = harness('left', [4000, 1000]);
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, null, null]`);
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}, null, null]`);
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(
      `-D[Ord#1, LineOrd#2, ${A1}, null, null]`,
      `+I[Ord#1, LineOrd#2, ${A1}, LineOrd#2, AIR]`,
    );
    // the right side state of LineOrd#2 has expired
    h.setStateTtlProcessingTime(3000);
    h.processElement1('+U', 'Ord#1', 'LineOrd#2', A2).shouldEmit(`+I[Ord#1, LineOrd#2, ${A2}, null, null]`);
    h.processElement2('+U', 'LineOrd#2', 'SHIP').shouldEmit(
      `-D[Ord#1, LineOrd#2, ${A2}, null, null]`,
      `+I[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`,
    );
    // the left side state of LineOrd#1 has expired
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#1', 'TRUCK').shouldEmitNothing();
    h.processElement2('-D', 'LineOrd#2', 'SHIP').shouldEmit(
      `-D[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`,
      `+I[Ord#1, LineOrd#2, ${A2}, null, null]`,
    );
    // the left side state of LineOrd#2 has expired: its association update at 4001 was its last write
    h.setStateTtlProcessingTime(8001);
    h.processElement2('+I', 'LineOrd#2', 'RAIL').shouldEmitNothing();
  });

  for (const [version, repads] of [['2.4', true], ['2.3', false], ['2.0', false]] as const) {
    it(`testLeftOuterJoinWithStateRetentionDisabled (flink ${version}: ${repads ? 'no count inflation' : 'a bare +U inflates the count'})`, () => {
      const h = harness('left', undefined, version);
      h.setStateTtlProcessingTime(1);
      h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, null, null]`);
      h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}, null, null]`);
      h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(
        `-D[Ord#1, LineOrd#2, ${A1}, null, null]`,
        `+I[Ord#1, LineOrd#2, ${A1}, LineOrd#2, AIR]`,
      );
      h.setStateTtlProcessingTime(3000);
      h.processElement1('+U', 'Ord#1', 'LineOrd#2', A2).shouldEmit(`+I[Ord#1, LineOrd#2, ${A2}, LineOrd#2, AIR]`);
      h.processElement2('+U', 'LineOrd#2', 'SHIP').shouldEmit(`+I[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`);
      h.setStateTtlProcessingTime(4001);
      h.processElement2('+I', 'LineOrd#1', 'TRUCK').shouldEmit(
        `-D[Ord#1, LineOrd#1, ${A1}, null, null]`,
        `+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, TRUCK]`,
      );
      h.setStateTtlProcessingTime(8001);
      h.processElement2('-D', 'LineOrd#2', 'SHIP');
      if (repads) h.shouldEmit(`-D[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`, `+I[Ord#1, LineOrd#2, ${A2}, null, null]`);
      else h.shouldEmit(`-D[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`);
    });
  }

  it('testRightOuterJoinWithDifferentStateRetentionTime (4000 / 1000)', () => {
    const h = harness('right', [4000, 1000]);
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmitNothing();
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmitNothing();
    // left side state is expired
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit('+I[null, null, null, LineOrd#2, AIR]');
    h.processElement2('+I', 'LineOrd#1', 'TRUCK').shouldEmit('+I[null, null, null, LineOrd#1, TRUCK]');
    // the right side state has expired
    h.setStateTtlProcessingTime(5001);
    h.processElement1('+U', 'Ord#1', 'LineOrd#2', A2).shouldEmitNothing();
    h.processElement2('+U', 'LineOrd#2', 'SHIP').shouldEmit(`+I[Ord#1, LineOrd#2, ${A2}, LineOrd#2, SHIP]`);
    h.processElement2('+U', 'LineOrd#1', 'RAIL').shouldEmit('+I[null, null, null, LineOrd#1, RAIL]');
    h.setStateTtlProcessingTime(6000);
    h.processElement1('+U', 'Ord#1', 'LineOrd#1', A3).shouldEmit(
      '-D[null, null, null, LineOrd#1, RAIL]',
      `+I[Ord#1, LineOrd#1, ${A3}, LineOrd#1, RAIL]`,
    );
    // right side state has expired
    h.setStateTtlProcessingTime(7000);
    h.processElement1('-D', 'Ord#1', 'LineOrd#1', A3).shouldEmitNothing();
  });

  it('testRightOuterJoinWithDStateRetentionDisabled: a +U on the inner side becomes +I', () => {
    const h = harness('right');
    h.setStateTtlProcessingTime(1);
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmitNothing();
    h.processElement1('+I', 'Ord#1', 'LineOrd#2', A1).shouldEmitNothing();
    h.setStateTtlProcessingTime(4001);
    h.processElement2('+I', 'LineOrd#2', 'AIR').shouldEmit(`+I[Ord#1, LineOrd#2, ${A1}, LineOrd#2, AIR]`);
    h.setStateTtlProcessingTime(10000);
    h.processElement2('+I', 'LineOrd#1', 'TRUCK').shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, TRUCK]`);
    h.setStateTtlProcessingTime(20000);
    h.processElement1('+U', 'Ord#1', 'LineOrd#2', A2).shouldEmit(`+I[Ord#1, LineOrd#2, ${A2}, LineOrd#2, AIR]`);
  });

  for (const [version, restores] of [['2.4', true], ['2.3', false]] as const) {
    it(`testLeftOuterJoinInnerSideUpdateAfterThenDeleteRestoresNullPadding (flink ${version})`, () => {
      const h = harness('left', undefined, version);
      h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, null, null]`);
      h.processElement2('+I', 'LineOrd#1', 'AIR').shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}, null, null]`, `+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, AIR]`);
      h.processElement2('+U', 'LineOrd#1', 'SHIP').shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, SHIP]`);
      h.processElement2('-D', 'LineOrd#1', 'SHIP');
      if (restores) h.shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}, LineOrd#1, SHIP]`, `+I[Ord#1, LineOrd#1, ${A1}, null, null]`);
      else h.shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}, LineOrd#1, SHIP]`);
    });

    it(`testLeftOuterJoinInnerSideDuplicateInsertThenDeleteRestoresNullPadding (flink ${version})`, () => {
      const h = harness('left', undefined, version);
      h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, null, null]`);
      h.processElement2('+I', 'LineOrd#1', 'AIR').shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}, null, null]`, `+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, AIR]`);
      h.processElement2('+I', 'LineOrd#1', 'AIR').shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, AIR]`);
      h.processElement2('-D', 'LineOrd#1', 'AIR');
      if (restores) h.shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}, LineOrd#1, AIR]`, `+I[Ord#1, LineOrd#1, ${A1}, null, null]`);
      else h.shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}, LineOrd#1, AIR]`);
    });
  }

  it('testRightOuterJoinInnerSideUpdateAfterThenDeleteRestoresNullPadding (flink 2.4)', () => {
    const h = harness('right', undefined, '2.4');
    h.processElement2('+I', 'LineOrd#1', 'AIR').shouldEmit('+I[null, null, null, LineOrd#1, AIR]');
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit('-D[null, null, null, LineOrd#1, AIR]', `+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, AIR]`);
    h.processElement1('+U', 'Ord#1', 'LineOrd#1', A2).shouldEmit(`+I[Ord#1, LineOrd#1, ${A2}, LineOrd#1, AIR]`);
    h.processElement1('-D', 'Ord#1', 'LineOrd#1', A2).shouldEmit(`-D[Ord#1, LineOrd#1, ${A2}, LineOrd#1, AIR]`, '+I[null, null, null, LineOrd#1, AIR]');
  });

  it('full outer join, right side bare +U then -D (flink 2.4): padding restored on the left', () => {
    const h = harness('full', undefined, '2.4');
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, null, null]`);
    h.processElement2('+I', 'LineOrd#1', 'AIR').shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}, null, null]`, `+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, AIR]`);
    h.processElement2('+U', 'LineOrd#1', 'SHIP').shouldEmit(`+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, SHIP]`);
    // the right input is outer too: its retraction is sent as -D, and the left row is re-padded
    h.processElement2('-D', 'LineOrd#1', 'SHIP').shouldEmit(`-D[Ord#1, LineOrd#1, ${A1}, LineOrd#1, SHIP]`, `+I[Ord#1, LineOrd#1, ${A1}, null, null]`);
  });

  it('full outer join, left side bare +U then -D (flink 2.4): padding restored on the right', () => {
    const h = harness('full', undefined, '2.4');
    h.processElement2('+I', 'LineOrd#1', 'AIR').shouldEmit('+I[null, null, null, LineOrd#1, AIR]');
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', A1).shouldEmit('-D[null, null, null, LineOrd#1, AIR]', `+I[Ord#1, LineOrd#1, ${A1}, LineOrd#1, AIR]`);
    h.processElement1('+U', 'Ord#1', 'LineOrd#1', A2).shouldEmit(`+I[Ord#1, LineOrd#1, ${A2}, LineOrd#1, AIR]`);
    h.processElement1('-D', 'Ord#1', 'LineOrd#1', A2).shouldEmit(`-D[Ord#1, LineOrd#1, ${A2}, LineOrd#1, AIR]`, '+I[null, null, null, LineOrd#1, AIR]');
  });
});
