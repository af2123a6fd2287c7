/**
 * The interval join's time maps chain the times of one HashMap bucket in the order they were put
 * (state/interval-state.ts, IntervalStateView.putBefore). The view records only the rows put out
 * of time order; here its answer is checked against a model that numbers every put, after random
 * arrivals (in and out of time order, onto existing times or new ones) and expiries of the
 * earliest times, across edits and from kept states (a replay of the same events).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';
import { cacheSize, EMPTY_INTERVAL_STATE, IntervalStateView, layoutOf, timeAt, type IntervalState } from '../../../src/engine/state/interval-state.js';
import type { Row } from '../../../src/values/types.js';

type Op = { k: 'add'; time: number } | { k: 'expire'; upTo: number } | { k: 'edit' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ k: fc.constant('add' as const), time: fc.integer({ min: 0, max: 60 }) }), weight: 8 },
  { arbitrary: fc.record({ k: fc.constant('expire' as const), upTo: fc.integer({ min: 0, max: 60 }) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('edit' as const) }), weight: 1 },
);

/** Times present (ascending) with the number of the put that brought each in. */
type Model = Map<number, number>;

/** Apply ops to the view's state and the model; rows are made once per op index (replays reuse them). */
function apply(v: IntervalStateView, state: IntervalState, model: Model, ops: readonly Op[], rows: Row[], from: number, puts: { n: number }): IntervalState {
  let edit = newEdit();
  useEdit(edit);
  for (let i = from; i < ops.length; i++) {
    const o = ops[i] as Op;
    if (o.k === 'edit') {
      edit = newEdit();
      useEdit(edit);
      continue;
    }
    v.open(state);
    const stored = v.takeKey('k');
    let ks = stored;
    if (o.k === 'add') {
      const row = (rows[i] ??= [`r${i}`, o.time]);
      ks = v.cacheRow(ks, 0, o.time, row, false, 1000);
      if (!model.has(o.time)) model.set(o.time, puts.n++);
    } else if (ks !== undefined) {
      const n = cacheSize(ks, 0);
      let cut = 0;
      while (cut < n && timeAt(ks, 0, cut) <= o.upTo) cut++;
      ks = cut === n ? v.clearKey() : v.expireFirst(ks, 0, cut);
    }
    if (o.k === 'expire') for (const t of [...model.keys()]) if (t <= o.upTo) model.delete(t);
    v.storeKey('k', stored, ks);
    state = v.close();
  }
  useEdit(null);
  return state;
}

/** For every pair of runs (i < j), whether the view says i's time was put first, and the model's answer. */
function answers(v: IntervalStateView, state: IntervalState, model: Model): [boolean[], boolean[]] {
  v.open(state);
  const got: boolean[] = [];
  const want: boolean[] = [];
  const ks = v.takeKey('k');
  if (ks !== undefined) {
    const starts: number[] = [];
    for (let i = 0; i < cacheSize(ks, 0); i++) if (i === 0 || timeAt(ks, 0, i) !== timeAt(ks, 0, i - 1)) starts.push(i);
    expect(starts.map((i) => timeAt(ks, 0, i))).toEqual([...model.keys()].sort((a, b) => a - b));
    for (let x = 0; x < starts.length; x++) {
      for (let y = x + 1; y < starts.length; y++) {
        const i = starts[x] as number;
        const j = starts[y] as number;
        got.push(v.putBefore(ks, 0, i, j));
        want.push((model.get(timeAt(ks, 0, i)) as number) < (model.get(timeAt(ks, 0, j)) as number));
      }
    }
  }
  v.storeKey('k', ks, ks);
  v.close();
  return [got, want];
}

describe('interval time maps: put order of row times', () => {
  it('matches a model that numbers every put, in a run and in a replay from a kept state', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), fc.nat(), (ops, at) => {
        const v = new IntervalStateView(layoutOf(false, false));
        const rows: Row[] = [];
        const puts = { n: 0 };
        // The whole run, keeping the state and model after the first `mid` ops.
        const mid = at % (ops.length + 1);
        const model: Model = new Map();
        const kept = apply(v, EMPTY_INTERVAL_STATE, model, ops.slice(0, mid), rows, 0, puts);
        const keptModel = new Map(model);
        const end = apply(v, kept, model, ops, rows, mid, puts);
        const [got, want] = answers(v, end, model);
        expect(got).toEqual(want);
        // A replay from the kept state: the same rows again, same answers.
        const again = apply(v, kept, keptModel, ops, rows, mid, { n: puts.n });
        const [got2, want2] = answers(v, again, keptModel);
        expect(got2).toEqual(want2);
      }),
      { numRuns: 300 },
    );
  });

  it('tells a late put from an earlier time: 30 then 10 then 20, with 40 after', () => {
    const v = new IntervalStateView(layoutOf(false, false));
    const model: Model = new Map();
    const ops: Op[] = [30, 10, 20, 40].map((time) => ({ k: 'add', time }));
    const s = apply(v, EMPTY_INTERVAL_STATE, model, ops, [], 0, { n: 0 });
    const [got, want] = answers(v, s, model);
    // pairs (10,20) (10,30) (10,40) (20,30) (20,40) (30,40)
    expect(want).toEqual([true, false, true, false, true, true]);
    expect(got).toEqual(want);
  });
});
