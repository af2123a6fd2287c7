/**
 * The keyed timer queue (state/timer-service.ts) against a plain model of Flink's
 * HeapPriorityQueueSet: a 1-based binary heap by timestamp only, dedup per (key, time), and the
 * moves of its add, poll and delete. The model is a plain array, written as directly as Flink's
 * algorithm reads, with no persistence; the queue must give the same firing order (ties included),
 * and every queue value must keep denoting the same heap: values kept at edit boundaries, values
 * reused after later operations (a replay that follows the log), and values taken in another
 * direction (a fork).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inEditRounds } from './edit-rounds.js';
import { ModelHeap, type Op, type T } from './flink-heap-model.js';
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';
import {
  addNewTimer,
  addTimer,
  deleteTimer,
  EMPTY_TIMERS,
  hasTimer,
  nextTimerTime,
  popDue,
  timerCount,
  timerList,
  type TimerQueue,
} from '../../../src/engine/state/timer-service.js';

function apply(q: TimerQueue, op: Op): { q: TimerQueue; popped?: T } {
  if (op.k === 'add') return { q: addTimer(q, op.key, op.time) };
  if (op.k === 'del') return { q: deleteTimer(q, op.key, op.time) };
  const due = popDue(q, op.upTo);
  return due === undefined ? { q } : { q: due.rest, popped: { time: due.timer.time, key: due.timer.key } };
}

// Few distinct times, so that ties are the rule.
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('add' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), time: fc.integer({ min: 0, max: 12 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('del' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), time: fc.integer({ min: 0, max: 12 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('pop' as const), upTo: fc.integer({ min: 0, max: 12 }) }) },
);

const listOf = (q: TimerQueue) => timerList(q).map((t) => `${t.time}:${t.key}`);

function expectSame(q: TimerQueue, m: ModelHeap): void {
  const firing = m.firing();
  expect(listOf(q)).toEqual(firing);
  expect(timerCount(q)).toBe(m.size);
  expect(nextTimerTime(q)).toBe(m.q[1]?.time);
  for (let i = 1; i <= m.size; i++) expect(hasTimer(q, m.q[i]!.key, m.q[i]!.time)).toBe(true);
  // It serializes as the heap it denotes, in heap order.
  expect(JSON.stringify(q)).toBe(JSON.stringify(m.q.slice(1, m.size + 1).flatMap((t) => [t!.time, t!.key])));
}

/**
 * Apply ops to a queue and to the model, in edits of `editEvery` operations, with `step` doing
 * each queue operation; every pop must agree with the model's, and the end queue denote its heap.
 */
function checkAgainstModel(ops: Op[], editEvery: number, step: (q: TimerQueue, op: Op, model: ModelHeap) => { q: TimerQueue; popped?: T }): void {
  const model = new ModelHeap();
  let q = EMPTY_TIMERS;
  let edit = newEdit();
  try {
    ops.forEach((op, i) => {
      if (i % editEvery === 0) edit = newEdit();
      useEdit(edit);
      const r = step(q, op, model);
      useEdit(null);
      expect(r.popped).toEqual(model.apply(op));
      q = r.q;
    });
  } finally {
    useEdit(null);
  }
  expectSame(q, model);
}

describe('timer queue: Flink heap order', () => {
  it('pops what Flink’s heap pops, ties included, and dedups (key, time) and deletes like it', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400, size: 'max' }), fc.integer({ min: 1, max: 50 }), (ops, editEvery) => {
        checkAgainstModel(ops, editEvery, (q, op) => apply(q, op));
      }),
      { numRuns: 300 },
    );
  });

  it('addNewTimer, given a timer not queued, does what addTimer does (and later lookups still find it)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400, size: 'max' }), fc.integer({ min: 1, max: 50 }), (ops, editEvery) => {
        // An add of a timer the model does not hold goes through addNewTimer, as a join that
        // knows its key's timers calls it; a duplicate goes through addTimer, which drops it.
        checkAgainstModel(ops, editEvery, (q, op, model) =>
          op.k === 'add' && model.indexOf(op.key, op.time) < 0 ? { q: addNewTimer(q, op.key, op.time) } : apply(q, op),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('fires ten equal timers in the order Flink 2.3 fired ten currencies due at 09:00', () => {
    // scenarios/temporal-equal-timers.yaml runs this through the temporal join: real Flink emitted
    // the orders of currencies 1, 10, 9, ..., 2 (registered in order 1..10, all at one time).
    let q = EMPTY_TIMERS;
    for (let i = 1; i <= 10; i++) q = addTimer(q, `c${i}`, 100);
    const fired: string[] = [];
    for (let due = popDue(q, 100); due !== undefined; due = popDue(due.rest, 100)) fired.push(due.timer.key);
    expect(fired).toEqual(['c1', 'c10', 'c9', 'c8', 'c7', 'c6', 'c5', 'c4', 'c3', 'c2']);
  });

  it('never changes a queue handed out before the current edit, nor outside an edit', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 300, size: 'max' }), fc.integer({ min: 1, max: 30 }), (ops, editEvery) => {
        let q = EMPTY_TIMERS;
        const model = new ModelHeap();
        const kept = inEditRounds(ops, editEvery, 7, 3, () => ({ q, model: model.clone() }), (op) => {
          q = apply(q, op).q;
          model.apply(op);
        });
        for (const k of kept) expectSame(k.q, k.model);
      }),
      { numRuns: 200 },
    );
  });

  it('a kept queue replays the same operations (following) or others (forking) like the model', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 600, size: 'max' }),
        fc.array(fc.record({ at: fc.nat(), again: fc.boolean(), other: fc.array(opArb, { maxLength: 40 }) }), { minLength: 1, maxLength: 8 }),
        (ops, visits) => {
          // The forward run, keeping every value and the model at it.
          const qs: TimerQueue[] = [EMPTY_TIMERS];
          const models: ModelHeap[] = [new ModelHeap()];
          let q = EMPTY_TIMERS;
          const model = new ModelHeap();
          for (const op of ops) {
            q = apply(q, op).q;
            model.apply(op);
            qs.push(q);
            models.push(model.clone());
          }
          for (const v of visits) {
            const at = v.at % qs.length;
            // Replay the same operations from there (a seek), or others (an edited event list).
            const replay = v.again ? ops.slice(at, at + 40) : v.other;
            let r = qs[at]!;
            const m = models[at]!.clone();
            for (const op of replay) {
              const step = apply(r, op);
              expect(step.popped).toEqual(m.apply(op));
              r = step.q;
            }
            expectSame(r, m);
            // Values read before are still what they were.
            expectSame(qs[at]!, models[at]!);
            expectSame(qs[qs.length - 1]!, models[models.length - 1]!);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
