/**
 * The interval join's state as plain data (Flink's TimeIntervalJoin: per key a cache per side,
 * from row time to rows with an "emitted" flag, plus one cleanup-timer timestamp per side).
 *
 * Persistent, with transient edits (edit.ts): an object or array created in the current edit may
 * be changed in place (`own` copies it otherwise), so a bulk run does not copy a key's cache on
 * every row while a kept snapshot never changes.
 */
import type { IntervalSpec, Plan, Side } from '../../planner/plan.js';
import { created, isEditable } from '../collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';
import type { Row } from '../../values/types.js';
import { EMPTY_TIMERS, type TimerQueue } from './interval-join-timers.js';
import { cacheSize, NO_ROWS, type Cache } from './interval-cache-rows.js';

export interface IntervalKeyState {
  /** The side and row the key was first seen with: the printed key is built from them on demand. */
  readonly keySide: Side;
  readonly keyRow: Row;
  /** Per side (left, right), the cached rows in ascending time (then arrival): see cacheOf. */
  readonly cache0: Cache;
  readonly cache1: Cache;
  /**
   * Per side, the time of the timer that cleans that side's cache (Flink stores these crossed:
   * its `rightTimerState` cleans the left cache). One per side per key; undefined = none.
   * Flat fields rather than pairs: one object per key to copy or to create.
   */
  readonly cleanup0: number | undefined;
  readonly cleanup1: number | undefined;
}

export function cacheOf(ks: IntervalKeyState, side: Side): Cache {
  return side === 0 ? ks.cache0 : ks.cache1;
}

export function cleanupOf(ks: IntervalKeyState, side: Side): number | undefined {
  return side === 0 ? ks.cleanup0 : ks.cleanup1;
}


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

type Writable<T> = { -readonly [P in keyof T]: T[P] };

/** `x` itself when the current edit created it, else a registered shallow copy. */
export function own<T extends object>(x: T): Writable<T> {
  if (isEditable(x)) return x as Writable<T>;
  return created((Array.isArray(x) ? x.slice() : { ...x }) as Writable<T>);
}

/** A new key's state with one cached row on `side` and its cleanup timer time. */
export function newKeyState(side: Side, row: Row, cache: Cache, cleanup: number): IntervalKeyState {
  const left = side === 0;
  // One object literal (one allocation site and shape) for every key state.
  return created({
    keySide: side,
    keyRow: row,
    cache0: left ? cache : NO_ROWS,
    cache1: left ? NO_ROWS : cache,
    cleanup0: left ? cleanup : undefined,
    cleanup1: left ? undefined : cleanup,
  });
}

export function getKey(s: IntervalState, key: string): IntervalKeyState | undefined {
  return pmGet(s.keys, key);
}

/**
 * Store a key's state, dropping the key entirely when nothing is left (Flink clears empty state).
 * `stored`: the state the map held for the key when the operation began, if any.
 */
export function putKey(s: IntervalState, key: string, ks: IntervalKeyState, stored?: IntervalKeyState): IntervalState {
  const empty = ks.cache0.length === 0 && ks.cache1.length === 0 && ks.cleanup0 === undefined && ks.cleanup1 === undefined;
  // `stored` is what the map held for the key: changed in place, it needs no second map walk.
  if (!empty && ks === stored) return s;
  const keys = empty ? pmDelete(s.keys, key) : pmSet(s.keys, key, ks);
  if (keys === s.keys) return s;
  const w = ownState(s);
  w.keys = keys;
  return w;
}

export function setExpiration(s: IntervalState, side: Side, value: number): IntervalState {
  if (expirationOf(s, side) === value) return s;
  const w = ownState(s);
  if (side === 0) w.expiration0 = value;
  else w.expiration1 = value;
  return w;
}

/** The operator state, writable (a literal copy keeps one shape for every state object). */
export function ownState(s: IntervalState): Writable<IntervalState> {
  if (isEditable(s)) return s as Writable<IntervalState>;
  return created({ keys: s.keys, expiration0: s.expiration0, expiration1: s.expiration1, timers: s.timers });
}

/** The key state, writable (a literal copy, for the same reason). */
export function ownKey(ks: IntervalKeyState): Writable<IntervalKeyState> {
  if (isEditable(ks)) return ks as Writable<IntervalKeyState>;
  return created({ keySide: ks.keySide, keyRow: ks.keyRow, cache0: ks.cache0, cache1: ks.cache1, cleanup0: ks.cleanup0, cleanup1: ks.cleanup1 });
}

export function setTimers(s: IntervalState, timers: TimerQueue): IntervalState {
  if (s.timers === timers) return s;
  const w = ownState(s);
  w.timers = timers;
  return w;
}

/** The key state with side's cache replaced (an owned copy unless it is editable). */
export function withCache(ks: IntervalKeyState, side: Side, cache: Cache): IntervalKeyState {
  if (cacheOf(ks, side) === cache) return ks;
  const w = ownKey(ks);
  if (side === 0) w.cache0 = cache;
  else w.cache1 = cache;
  return w;
}

export function withCleanup(ks: IntervalKeyState, side: Side, at: number | undefined): IntervalKeyState {
  if (cleanupOf(ks, side) === at) return ks;
  const w = ownKey(ks);
  if (side === 0) w.cleanup0 = at;
  else w.cleanup1 = at;
  return w;
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
      if (cacheOf(ks, side).length > 0) n++;
      if (cleanupOf(ks, side) !== undefined) n++;
    }
  }
  return n;
}

export function cachedRowCount(s: IntervalState): number {
  let n = 0;
  for (const ks of pmValues(s.keys)) n += cacheSize(ks.cache0) + cacheSize(ks.cache1);
  return n;
}
