/**
 * The interval join's state as plain data (Flink's TimeIntervalJoin): per key one flat array
 * (interval-key-state.ts), plus the operator's expiration times and cleanup timers.
 *
 * Persistent, with transient edits (edit.ts): an object or array created in the current edit may
 * be changed in place (`own` copies it otherwise), while a kept snapshot never changes.
 */
import type { IntervalSpec, Plan, Side } from '../../planner/plan.js';
import { created, isEditable } from '../collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';
import { EMPTY_TIMERS, type TimerQueue } from './interval-join-timers.js';
import { cacheSize, cleanupOf, isEmptyKey, type IntervalKeyState } from './interval-key-state.js';

export type { IntervalKeyState } from './interval-key-state.js';

export interface IntervalState {
  readonly keys: PMap<IntervalKeyState>;
  /**
   * Flink's `leftExpirationTime` / `rightExpirationTime`: points up to which each cache is known
   * to be clean. They are fields of the operator instance, shared by all keys (not keyed state),
   * and start at 0.
   */
  readonly expiration0: number;
  readonly expiration1: number;
  /** Cleanup timers (event time for rowtime joins, processing time for proctime joins). */
  readonly timers: TimerQueue;
}

export const EMPTY_INTERVAL_STATE: IntervalState = Object.freeze({ keys: PMAP_EMPTY, expiration0: 0, expiration1: 0, timers: EMPTY_TIMERS });

export function expirationOf(s: IntervalState, side: Side): number {
  return side === 0 ? s.expiration0 : s.expiration1;
}

export type Writable<T> = { -readonly [P in keyof T]: T[P] };

/** `x` itself when the current edit created it, else a registered shallow copy. */
export function own<T extends object>(x: T): Writable<T> {
  if (isEditable(x)) return x as Writable<T>;
  return created((Array.isArray(x) ? x.slice() : { ...x }) as Writable<T>);
}

export function getKey(s: IntervalState, key: string): IntervalKeyState | undefined {
  return pmGet(s.keys, key);
}

/**
 * Store a key's state, dropping the key entirely when nothing is left (Flink clears empty state).
 * `stored`: the state the map held for the key when the operation began, if any.
 */
export function putKey(s: IntervalState, key: string, ks: IntervalKeyState, stored?: IntervalKeyState): IntervalState {
  const keys = keysWith(s, key, ks, stored);
  if (keys === s.keys) return s;
  const w = ownState(s);
  w.keys = keys;
  return w;
}

/** The key map of putKey (`s.keys` itself when nothing changes). */
export function keysWith(s: IntervalState, key: string, ks: IntervalKeyState, stored?: IntervalKeyState): PMap<IntervalKeyState> {
  const empty = isEmptyKey(ks);
  // `stored` is what the map held for the key: changed in place, it needs no second map walk.
  if (!empty && ks === stored) return s.keys;
  return empty ? pmDelete(s.keys, key) : pmSet(s.keys, key, ks);
}

/** putKey on a state the caller already owns (ownState): no edit check per call. */
export function putKeyIn(w: Writable<IntervalState>, key: string, ks: IntervalKeyState, stored?: IntervalKeyState): void {
  w.keys = keysWith(w, key, ks, stored);
}

/** The operator state, writable (a literal copy keeps one shape for every state object). */
export function ownState(s: IntervalState): Writable<IntervalState> {
  if (isEditable(s)) return s as Writable<IntervalState>;
  return created({ keys: s.keys, expiration0: s.expiration0, expiration1: s.expiration1, timers: s.timers });
}

/** Flink's relative window sizes: left rows wait `-lower`, right rows wait `upper`. */
export function relativeSize(spec: IntervalSpec, side: Side): number {
  return side === 0 ? -spec.lowerMs : spec.upperMs;
}

export function isOuter(plan: Plan, side: Side): boolean {
  return plan.joinType === 'full' || plan.joinType === (side === 0 ? 'left' : 'right');
}

/**
 * What Flink's harness reports as numKeyedStateEntries: (key, state) pairs, so a cache holding
 * many rows counts once, and each set cleanup-timer value counts once.
 */
export function keyedStateEntries(s: IntervalState): number {
  let n = 0;
  for (const ks of pmValues(s.keys)) {
    for (const side of [0, 1] as const) {
      if (cacheSize(ks, side) > 0) n++;
      if (cleanupOf(ks, side) !== undefined) n++;
    }
  }
  return n;
}

export function cachedRowCount(s: IntervalState): number {
  let n = 0;
  for (const ks of pmValues(s.keys)) n += cacheSize(ks, 0) + cacheSize(ks, 1);
  return n;
}
