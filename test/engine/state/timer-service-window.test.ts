/**
 * The keyed timer queue (state/timer-service.ts) as the joins use it: timers registered ahead
 * of a moving clock over many keys, fired from the front, some registered again near the front
 * (the interval join's re-armed cleanup timers), a few deleted. Runs are long enough to cross the
 * operation log's chunks and its heap copies, and kept queues are read back from far behind the
 * log's end (a seek), so every way of reading an older position is taken. Checked against the
 * plain model of Flink's heap; every queue kept at an edit boundary must never change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inEditRounds } from './edit-rounds.js';
import { ModelHeap, type Op as ModelOp } from './flink-heap-model.js';
import { addTimer, deleteTimer, EMPTY_TIMERS, hasTimer, popDue, timerCount, timerList, type TimerQueue } from '../../../src/engine/state/timer-service.js';

type Op = { k: 'tick' } | { k: 'add'; key: number; ahead: number } | { k: 'del'; nth: number } | { k: 'pop' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ k: 'tick' as const }) },
  // Mostly far ahead (appends), sometimes just ahead of the clock (inserts near the front).
  { weight: 4, arbitrary: fc.record({ k: fc.constant('add' as const), key: fc.integer({ min: 0, max: 60 }), ahead: fc.oneof(fc.integer({ min: 90, max: 100 }), fc.integer({ min: 0, max: 5 })) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('del' as const), nth: fc.nat(200) }) },
  { weight: 2, arbitrary: fc.constant({ k: 'pop' as const }) },
);

const listOf = (q: TimerQueue) => timerList(q).map((t) => `${t.time}:${t.key}`);

describe('timer queue under a moving clock', () => {
  it('matches the model, and never changes a queue kept at an edit boundary', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 200, maxLength: 1500 }), fc.integer({ min: 1, max: 300 }), (ops, editEvery) => {
        let q = EMPTY_TIMERS;
        const model = new ModelHeap();
        let clock = 0;
        const kept = inEditRounds(ops, editEvery, 13, 5, () => ({ q, list: model.firing() }), (op) => {
          if (op.k === 'tick') clock += 1;
          else if (op.k === 'add') {
            const key = `k${op.key}`;
            const time = clock + op.ahead;
            q = addTimer(q, key, time);
            model.apply({ k: 'add', key, time });
          } else if (op.k === 'del') {
            const victim = model.q[1 + (op.nth % Math.max(1, model.size))];
            if (victim !== undefined) {
              q = deleteTimer(q, victim.key, victim.time);
              model.apply({ k: 'del', key: victim.key, time: victim.time });
            }
          } else {
            const due = popDue(q, clock);
            expect(due?.timer).toEqual(model.apply({ k: 'pop', upTo: clock }));
            if (due !== undefined) q = due.rest;
          }
          expect(timerCount(q)).toBe(model.size);
        });
        expect(listOf(q)).toEqual(model.firing());
        for (let i = 1; i <= model.size; i++) expect(hasTimer(q, model.q[i]!.key, model.q[i]!.time)).toBe(true);
        // Oldest first and newest first: the reader moves back and forth across heap copies.
        for (const k of kept) expect(listOf(k.q)).toEqual(k.list);
        for (const k of [...kept].reverse()) expect(listOf(k.q)).toEqual(k.list);
      }),
      { numRuns: 100 },
    );
  });

  it('reads a queue from 10,000 operations back, across log chunks and heap copies', () => {
    let q = EMPTY_TIMERS;
    const model = new ModelHeap();
    const kept: { q: TimerQueue; list: string[] }[] = [];
    for (let i = 0; i < 12000; i++) {
      // Thousands of timers pending (each second add is popped), times repeating so that ties are common.
      const time = Math.floor(i / 40) * 7 + (i % 3);
      q = addTimer(q, `k${i % 97}`, time);
      model.apply({ k: 'add', key: `k${i % 97}`, time });
      if (i % 2 === 1) {
        const due = popDue(q, Infinity)!;
        expect(due.timer).toEqual(model.apply({ k: 'pop', upTo: Infinity }));
        q = due.rest;
      }
      if (i % 300 === 0) kept.push({ q, list: model.firing() });
    }
    for (const k of [...kept].reverse()) expect(listOf(k.q)).toEqual(k.list);
    // Forward and one back, as stepping does: the back read starts from a copy the reader left.
    for (let j = 1; j < kept.length; j++) {
      expect(listOf(kept[j]!.q)).toEqual(kept[j]!.list);
      expect(listOf(kept[j - 1]!.q)).toEqual(kept[j - 1]!.list);
    }
    expect(listOf(q)).toEqual(model.firing());
  });
  it('replays and edits from positions far back, deletes included (a heap read back tracks its places afresh)', () => {
    // A seek replays the same steps from a checkpoint (the log is followed); an edited event list
    // takes another step there (a new log starts). Both from heaps the reader rebuilt from copies,
    // with deletes of timers anywhere in a heap of hundreds.
    const ops: ModelOp[] = [];
    const model = new ModelHeap();
    let q = EMPTY_TIMERS;
    const kept: { at: number; q: TimerQueue; model: ModelHeap }[] = [];
    const apply = (qq: TimerQueue, m: ModelHeap, op: ModelOp): TimerQueue => {
      if (op.k === 'add') {
        m.apply(op);
        return addTimer(qq, op.key, op.time);
      }
      if (op.k === 'del') {
        m.apply(op);
        return deleteTimer(qq, op.key, op.time);
      }
      const due = popDue(qq, op.upTo);
      expect(due?.timer).toEqual(m.apply(op));
      return due === undefined ? qq : due.rest;
    };
    for (let i = 0; i < 9000; i++) {
      if (i % 250 === 0) kept.push({ at: ops.length, q, model: model.clone() });
      let op: ModelOp;
      if (i % 3 === 2) op = { k: 'pop', upTo: Math.floor(i / 4) };
      else if (i % 7 === 5 && model.size > 0) {
        const victim = model.q[1 + ((i * 31) % model.size)]!;
        op = { k: 'del', key: victim.key, time: victim.time };
      } else op = { k: 'add', key: `k${i % 89}`, time: Math.floor(i / 4) + ((i * 13) % 600) };
      ops.push(op);
      q = apply(q, model, op);
    }
    expect(model.size).toBeGreaterThan(300);
    for (const k of [...kept].reverse()) {
      let r = k.q;
      const m = k.model.clone();
      for (let j = k.at; j < ops.length; j++) r = apply(r, m, ops[j]!);
      expect(listOf(r)).toEqual(model.firing());
      // An edit there: the earliest pending timer deleted first, then the same ops.
      const e = k.model.clone();
      let f = k.q;
      const first = e.q[1];
      if (first !== undefined) f = apply(f, e, { k: 'del', key: first.key, time: first.time });
      for (let j = k.at; j < Math.min(ops.length, k.at + 600); j++) f = apply(f, e, ops[j]!);
      expect(listOf(f)).toEqual(e.firing());
    }
  });
});
