/**
 * A keyed timer queue as plain data, shaped like Flink's InternalTimerService: at most one timer
 * per (key, time) — registering it again is a no-op, as Flink's timer set deduplicates — fired in
 * time order. Flink's heap queue compares timestamps only, so the order of two keys' timers at
 * the same time is not defined there; we use registration order to stay deterministic.
 *
 * Used by the interval join (cleanup timers) and the temporal join (emit timers, TTL timers).
 *
 * Layout (persistent, so that a snapshot's queue is never changed by a later step): a leftist
 * heap ordered by (time, seq) for O(log n) add / pop, plus a PMap from (key, time) to the live
 * timer for O(log n) dedup and delete. A delete only removes the map entry; the heap entry goes
 * stale and is skipped when it reaches the top (the top is always kept live, so the earliest
 * timer is a field read).
 */
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';

export interface Timer {
  readonly time: number;
  readonly key: string;
  /** Registration order, the tie-breaker for timers at the same time. */
  readonly seq: number;
}

/** A leftist heap node: `d` is the right-spine length (rank). */
interface HeapNode {
  readonly t: Timer;
  readonly l: HeapNode | null;
  readonly r: HeapNode | null;
  readonly d: number;
}

export interface TimerQueue {
  /** Heap of timers by (time, seq); may hold stale (deleted) timers below the top. */
  readonly heap: HeapNode | null;
  /** The live timers by (key, time). */
  readonly live: PMap<Timer>;
  readonly nextSeq: number;
}

export const EMPTY_TIMERS: TimerQueue = { heap: null, live: PMAP_EMPTY, nextSeq: 0 };

function idOf(key: string, time: number): string {
  return `${time}\u0001${key}`;
}

function before(a: Timer, b: Timer): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

function rank(h: HeapNode | null): number {
  return h === null ? 0 : h.d;
}

function node(t: Timer, a: HeapNode | null, b: HeapNode | null): HeapNode {
  return rank(a) >= rank(b) ? { t, l: a, r: b, d: rank(b) + 1 } : { t, l: b, r: a, d: rank(a) + 1 };
}

/** Merge two heaps along their right spines (O(log n) new nodes; inputs are not changed). */
function merge(a: HeapNode | null, b: HeapNode | null): HeapNode | null {
  if (a === null) return b;
  if (b === null) return a;
  if (before(b.t, a.t)) [a, b] = [b, a];
  return node(a.t, a.l, merge(a.r, b));
}

function isLive(live: PMap<Timer>, t: Timer): boolean {
  return pmGet(live, idOf(t.key, t.time)) === t;
}

/** Drop stale timers from the top so that the top, if any, is live. */
function settle(heap: HeapNode | null, live: PMap<Timer>): HeapNode | null {
  let h = heap;
  while (h !== null && !isLive(live, h.t)) h = merge(h.l, h.r);
  return h;
}

export function hasTimer(q: TimerQueue, key: string, time: number): boolean {
  return pmGet(q.live, idOf(key, time)) !== undefined;
}

/** Register a timer; a second registration of the same (key, time) changes nothing. */
export function addTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  const id = idOf(key, time);
  if (pmGet(q.live, id) !== undefined) return q;
  const timer: Timer = { time, key, seq: q.nextSeq };
  return { heap: merge(q.heap, node(timer, null, null)), live: pmSet(q.live, id, timer), nextSeq: q.nextSeq + 1 };
}

export function deleteTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  const id = idOf(key, time);
  if (pmGet(q.live, id) === undefined) return q;
  const live = pmDelete(q.live, id);
  return { heap: settle(q.heap, live), live, nextSeq: q.nextSeq };
}

/** The earliest timer with time <= upTo, and the queue without it. */
export function popDue(q: TimerQueue, upTo: number): { readonly timer: Timer; readonly rest: TimerQueue } | undefined {
  const h = q.heap;
  if (h === null || h.t.time > upTo) return undefined;
  const live = pmDelete(q.live, idOf(h.t.key, h.t.time));
  return { timer: h.t, rest: { heap: settle(merge(h.l, h.r), live), live, nextSeq: q.nextSeq } };
}

export function nextTimerTime(q: TimerQueue): number | undefined {
  return q.heap?.t.time;
}

/** Every pending timer in firing order (time, then registration). */
export function timerList(q: TimerQueue): readonly Timer[] {
  return pmValues(q.live).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}

export function timerCount(q: TimerQueue): number {
  return q.live.n;
}

export function timersOfKey(q: TimerQueue, key: string): readonly Timer[] {
  return timerList(q).filter((t) => t.key === key);
}

/**
 * Fire every due timer in order, threading the operator state through `fire`. Timers that firing
 * registers at or below `upTo` fire in the same pass, as in Flink's advanceWatermark loop.
 */
export function fireDue<S>(
  state: S,
  getQueue: (s: S) => TimerQueue,
  setQueue: (s: S, q: TimerQueue) => S,
  upTo: number,
  fire: (s: S, timer: Timer) => S,
): S {
  let s = state;
  for (;;) {
    const due = popDue(getQueue(s), upTo);
    if (due === undefined) return s;
    s = fire(setQueue(s, due.rest), due.timer);
  }
}
