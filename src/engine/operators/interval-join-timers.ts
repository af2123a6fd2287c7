/**
 * A keyed timer queue as plain data, shaped like Flink's InternalTimerService: at most one timer
 * per (key, time) — registering it again is a no-op, as Flink's timer set deduplicates — fired in
 * time order. Flink's heap queue compares timestamps only, so the order of two keys' timers at
 * the same time is not defined there; we use registration order to stay deterministic.
 *
 * Used by the interval join (cleanup timers) and the temporal join (emit timers, TTL timers).
 */

export interface Timer {
  readonly time: number;
  readonly key: string;
  /** Registration order, the tie-breaker for timers at the same time. */
  readonly seq: number;
}

export interface TimerQueue {
  /** Sorted by (time, seq). */
  readonly timers: readonly Timer[];
  readonly nextSeq: number;
}

export const EMPTY_TIMERS: TimerQueue = { timers: [], nextSeq: 0 };

export function hasTimer(q: TimerQueue, key: string, time: number): boolean {
  return q.timers.some((t) => t.key === key && t.time === time);
}

/** Register a timer; a second registration of the same (key, time) changes nothing. */
export function addTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  if (hasTimer(q, key, time)) return q;
  const timer: Timer = { time, key, seq: q.nextSeq };
  const at = q.timers.findIndex((t) => t.time > time);
  const timers = at < 0 ? [...q.timers, timer] : [...q.timers.slice(0, at), timer, ...q.timers.slice(at)];
  return { timers, nextSeq: q.nextSeq + 1 };
}

export function deleteTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  if (!hasTimer(q, key, time)) return q;
  return { ...q, timers: q.timers.filter((t) => !(t.key === key && t.time === time)) };
}

/** The earliest timer with time <= upTo, and the queue without it. */
export function popDue(q: TimerQueue, upTo: number): { readonly timer: Timer; readonly rest: TimerQueue } | undefined {
  const first = q.timers[0];
  if (first === undefined || first.time > upTo) return undefined;
  return { timer: first, rest: { ...q, timers: q.timers.slice(1) } };
}

export function nextTimerTime(q: TimerQueue): number | undefined {
  return q.timers[0]?.time;
}

export function timersOfKey(q: TimerQueue, key: string): readonly Timer[] {
  return q.timers.filter((t) => t.key === key);
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
