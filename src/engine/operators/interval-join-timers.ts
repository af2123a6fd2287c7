/**
 * A keyed timer queue as plain data, shaped like Flink's InternalTimerService: at most one timer
 * per (key, time) — registering it again is a no-op, as Flink's timer set deduplicates — fired in
 * time order. Flink's heap queue compares timestamps only, so the order of two keys' timers at
 * the same time is not defined there; we use registration order to stay deterministic.
 *
 * Used by the interval join (cleanup timers) and the temporal join (emit timers, TTL timers).
 *
 * This module reads and fires the queue; registering and deleting timers is in
 * interval-timer-queue.ts (re-exported here), its chunk storage in interval-timer-chunks.ts.
 */
import { W, keyAt, size, timeAt, type Chunk } from './interval-timer-chunks.js';
import { firstOf, removeAt, type TimerQueue } from './interval-timer-queue.js';

export { addTimer, deleteTimer, EMPTY_TIMERS, hasTimer, type TimerQueue } from './interval-timer-queue.js';

export interface Timer {
  readonly time: number;
  readonly key: string;
  /** Registration order, the tie-breaker for timers at the same time. */
  readonly seq: number;
}

function timerOf(c: Chunk, i: number): Timer {
  return { time: timeAt(c, i), key: keyAt(c, i), seq: c[i * W + 2] as number };
}

/** The earliest timer with time <= upTo, and the queue without it. */
export function popDue(q: TimerQueue, upTo: number): { readonly timer: Timer; readonly rest: TimerQueue } | undefined {
  const first = q.chunks[0];
  if (first === undefined || timeAt(first, q.head) > upTo) return undefined;
  return { timer: timerOf(first, q.head), rest: removeAt(q, 0, q.head) };
}

/** The key of the earliest timer (undefined when there is none); see nextTimerTime. */
export function firstTimerKey(q: TimerQueue): string | undefined {
  const first = q.chunks[0];
  return first === undefined ? undefined : keyAt(first, q.head);
}

/** The queue without its earliest timer (popDue without building the timer). */
export function dropFirstTimer(q: TimerQueue): TimerQueue {
  return q.n === 0 ? q : removeAt(q, 0, q.head);
}

export function nextTimerTime(q: TimerQueue): number | undefined {
  const first = q.chunks[0];
  return first === undefined ? undefined : timeAt(first, q.head);
}

/** Every pending timer in firing order (time, then registration). */
export function timerList(q: TimerQueue): readonly Timer[] {
  const out: Timer[] = [];
  q.chunks.forEach((c, k) => {
    for (let i = firstOf(q, k); i < size(c); i++) out.push(timerOf(c, i));
  });
  return out;
}

export function timerCount(q: TimerQueue): number {
  return q.n;
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
