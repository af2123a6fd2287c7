/**
 * The keyed timer queue (state/timer-service.ts) as the joins use it: timers registered ahead
 * of a moving clock over many keys, fired from the front, some registered again near the front
 * (the interval join's re-armed cleanup timers), a few deleted. Long runs fill and drain many
 * chunks, so every path of the fired-head offset is taken: appends past a full last chunk,
 * inserts and deletes in a first chunk with fired timers, in place and copied. Checked against a
 * plain model, and every queue kept at an edit boundary must never change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inEditRounds } from './edit-rounds.js';
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';
import { addTimer, deleteTimer, EMPTY_TIMERS, hasTimer, popDue, timerCount, timerList, type TimerQueue } from '../../../src/engine/state/timer-service.js';

type Op = { k: 'tick' } | { k: 'add'; key: number; ahead: number } | { k: 'del'; nth: number } | { k: 'pop' };

interface ModelTimer {
  time: number;
  key: string;
  seq: number;
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ k: 'tick' as const }) },
  // Mostly far ahead (appends), sometimes just ahead of the clock (inserts near the front).
  { weight: 4, arbitrary: fc.record({ k: fc.constant('add' as const), key: fc.integer({ min: 0, max: 60 }), ahead: fc.oneof(fc.integer({ min: 90, max: 100 }), fc.integer({ min: 0, max: 5 })) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('del' as const), nth: fc.nat(200) }) },
  { weight: 2, arbitrary: fc.constant({ k: 'pop' as const }) },
);

const sorted = (ts: ModelTimer[]) => [...ts].sort((a, b) => a.time - b.time || a.seq - b.seq);
const listOf = (q: TimerQueue) => timerList(q).map((t) => `${t.time}:${t.key}:${t.seq}`);
const modelList = (ts: ModelTimer[]) => sorted(ts).map((t) => `${t.time}:${t.key}:${t.seq}`);

describe('timer queue under a moving clock', () => {
  it('matches the model, and never changes a queue kept at an edit boundary', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 200, maxLength: 1500 }), fc.integer({ min: 1, max: 300 }), (ops, editEvery) => {
        let q = EMPTY_TIMERS;
        let model: ModelTimer[] = [];
        let seq = 0;
        let clock = 0;
        const kept = inEditRounds(ops, editEvery, 13, 5, () => ({ q, list: listOf(q) }), (op) => {
          if (op.k === 'tick') clock += 1;
          else if (op.k === 'add') {
            const key = `k${op.key}`;
            const time = clock + op.ahead;
            q = addTimer(q, key, time);
            if (!model.some((t) => t.key === key && t.time === time)) model.push({ time, key, seq: seq++ });
          } else if (op.k === 'del') {
            const victim = sorted(model)[op.nth % Math.max(1, model.length)];
            if (victim !== undefined) {
              q = deleteTimer(q, victim.key, victim.time);
              model = model.filter((t) => t !== victim);
            }
          } else {
            const due = popDue(q, clock);
            const first = sorted(model)[0];
            const expected = first !== undefined && first.time <= clock ? first : undefined;
            expect(due?.timer).toEqual(expected);
            if (due !== undefined) {
              q = due.rest;
              model = model.filter((t) => t !== expected);
            }
          }
          expect(timerCount(q)).toBe(model.length);
        });
        expect(listOf(q)).toEqual(modelList(model));
        for (const t of model) expect(hasTimer(q, t.key, t.time)).toBe(true);
        for (const k of kept) expect(listOf(k.q)).toEqual(k.list);
      }),
      { numRuns: 150 },
    );
  });

  it('inserts into a first chunk whose first timers have fired, in place', () => {
    const edit = newEdit();
    useEdit(edit);
    let q = EMPTY_TIMERS;
    try {
      for (let i = 0; i < 32; i++) q = addTimer(q, `k${i}`, i);
      for (let i = 0; i < 5; i++) q = popDue(q, 100)!.rest;
      q = addTimer(q, 'late', 50);
      q = addTimer(q, 'early', 6);
    } finally {
      useEdit(null);
    }
    expect(timerList(q).map((t) => t.key)).toEqual([...Array.from({ length: 27 }, (_, i) => `k${i + 5}`), 'late'].flatMap((k) => (k === 'k6' ? ['k6', 'early'] : [k])));
  });
});
