/**
 * The keyed timer queue (state/timer-service.ts) against a plain model: firing order (time, then
 * registration), dedup per (key, time), delete, and persistence — a queue handed out never
 * changes, inside a transient edit (for queues from an older edit) or outside one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inEditRounds } from './edit-rounds.js';
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';
import {
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

type Op = { k: 'add'; key: string; time: number } | { k: 'del'; key: string; time: number } | { k: 'pop'; upTo: number };

interface ModelTimer {
  time: number;
  key: string;
  seq: number;
}

function modelApply(m: { timers: ModelTimer[]; seq: number }, op: Op): ModelTimer | undefined {
  if (op.k === 'add') {
    if (!m.timers.some((t) => t.key === op.key && t.time === op.time)) m.timers.push({ time: op.time, key: op.key, seq: m.seq++ });
  } else if (op.k === 'del') {
    m.timers = m.timers.filter((t) => !(t.key === op.key && t.time === op.time));
  } else {
    const sorted = [...m.timers].sort((a, b) => a.time - b.time || a.seq - b.seq);
    const first = sorted[0];
    if (first === undefined || first.time > op.upTo) return undefined;
    m.timers = m.timers.filter((t) => t !== first);
    return first;
  }
  return undefined;
}

function apply(q: TimerQueue, op: Op): { q: TimerQueue; popped?: ModelTimer } {
  if (op.k === 'add') return { q: addTimer(q, op.key, op.time) };
  if (op.k === 'del') return { q: deleteTimer(q, op.key, op.time) };
  const due = popDue(q, op.upTo);
  return due === undefined ? { q } : { q: due.rest, popped: { ...due.timer } };
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('add' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e'), time: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('del' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e'), time: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('pop' as const), upTo: fc.integer({ min: 0, max: 40 }) }) },
);

const listOf = (q: TimerQueue) => timerList(q).map((t) => `${t.time}:${t.key}:${t.seq}`);

describe('interval/temporal timer queue', () => {
  it('fires by time then registration, dedups (key, time) and deletes, like the model', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), fc.integer({ min: 1, max: 50 }), (ops, editEvery) => {
        const model = { timers: [] as ModelTimer[], seq: 0 };
        let q = EMPTY_TIMERS;
        let edit = newEdit();
        try {
          ops.forEach((op, i) => {
            if (i % editEvery === 0) edit = newEdit();
            useEdit(edit);
            const r = apply(q, op);
            useEdit(null);
            const expected = modelApply(model, op);
            expect(r.popped).toEqual(expected);
            q = r.q;
          });
        } finally {
          useEdit(null);
        }
        const sorted = [...model.timers].sort((a, b) => a.time - b.time || a.seq - b.seq);
        expect(listOf(q)).toEqual(sorted.map((t) => `${t.time}:${t.key}:${t.seq}`));
        expect(timerCount(q)).toBe(sorted.length);
        expect(nextTimerTime(q)).toBe(sorted[0]?.time);
        for (const t of sorted) expect(hasTimer(q, t.key, t.time)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('never changes a queue handed out before the current edit, nor outside an edit', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 30 }), (ops, editEvery) => {
        let q = EMPTY_TIMERS;
        // Keep a snapshot, then start a new edit, as the timeline does at a checkpoint.
        const kept = inEditRounds(ops, editEvery, 7, 3, () => ({ q, list: listOf(q) }), (op) => {
          q = apply(q, op).q;
        });
        for (const k of kept) expect(listOf(k.q)).toEqual(k.list);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps order across many chunks, with registrations out of time order', () => {
    let q = EMPTY_TIMERS;
    const edit = newEdit();
    useEdit(edit);
    try {
      // 1000 timers: ascending, then descending, then interleaved, with repeated times.
      for (let i = 0; i < 400; i++) q = addTimer(q, `k${i}`, i * 2);
      for (let i = 300; i > 0; i--) q = addTimer(q, `j${i}`, i * 3);
      for (let i = 0; i < 300; i++) q = addTimer(q, `m${i % 17}`, (i * 7919) % 1000);
    } finally {
      useEdit(null);
    }
    const list = timerList(q);
    expect(list.length).toBe(timerCount(q));
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1]!;
      const b = list[i]!;
      expect(a.time < b.time || (a.time === b.time && a.seq < b.seq)).toBe(true);
    }
    // Popping everything returns the same order.
    const popped: number[] = [];
    for (let due = popDue(q, Infinity); due !== undefined; due = popDue(due.rest, Infinity)) popped.push(due.timer.time);
    expect(popped).toEqual(list.map((t) => t.time));
  });
});
