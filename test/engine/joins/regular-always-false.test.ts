/**
 * A regular join whose condition folds to FALSE (Plan.alwaysFalse): Flink has no join operator,
 * only a Calc over the preserved side (LEFT / RIGHT) or an empty Values (INNER).
 */
import { describe, expect, it } from 'vitest';
import { createRegularJoin } from '../../../src/engine/joins/regular/regular-join.js';
import type { JoinType } from '../../../src/planner/plan.js';
import { flinkBasePlan, Harness } from './regular-join-harness.js';

function harness(joinType: JoinType) {
  const plan = { ...flinkBasePlan(joinType), alwaysFalse: true };
  return new Harness(createRegularJoin(plan), plan);
}

describe('a regular join on FALSE', () => {
  it('LEFT: pads the left rows in their own kinds and never reads the right', () => {
    const h = harness('left');
    h.processElement1('+I', 'Ord#1', 'LineOrd#1', 'A').shouldEmit('+I[Ord#1, LineOrd#1, A, null, null]');
    h.processElement2('+I', 'LineOrd#1', 'AIR').shouldEmitNothing();
    h.processElement1('-U', 'Ord#1', 'LineOrd#1', 'A').shouldEmit('-U[Ord#1, LineOrd#1, A, null, null]');
    h.processElement1('+U', 'Ord#1', 'LineOrd#1', 'B').shouldEmit('+U[Ord#1, LineOrd#1, B, null, null]');
    h.processElement1('-D', 'Ord#1', 'LineOrd#1', 'B').shouldEmit('-D[Ord#1, LineOrd#1, B, null, null]');
  });

  it('RIGHT: pads the right rows; INNER: nothing at all', () => {
    const r = harness('right');
    r.processElement1('+I', 'Ord#1', 'LineOrd#1', 'A').shouldEmitNothing();
    r.processElement2('+U', 'LineOrd#1', 'AIR').shouldEmit('+U[null, null, null, LineOrd#1, AIR]');
    const i = harness('inner');
    i.processElement1('+I', 'Ord#1', 'LineOrd#1', 'A').shouldEmitNothing();
    i.processElement2('+I', 'LineOrd#1', 'AIR').shouldEmitNothing();
  });

  it('emits no join watermark (there is no join operator)', () => {
    expect(createRegularJoin({ ...flinkBasePlan('left'), alwaysFalse: true }).noOutputWatermark).toBe(true);
    expect(createRegularJoin(flinkBasePlan('left')).noOutputWatermark).toBeUndefined();
  });
});
