/**
 * The interval join's state as plain data (Flink's TimeIntervalJoin: per key a cache per side,
 * from row time to rows with an "emitted" flag, plus one cleanup-timer timestamp per side).
 */
import type { IntervalSpec, Plan, Side } from '../../planner/plan.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';
import type { Row } from '../../values/types.js';
import { EMPTY_TIMERS, type TimerQueue } from './interval-join-timers.js';

export interface CachedRow {
  readonly row: Row;
  /** Joined (and emitted) at least once; only kept up to date for an outer side, as in Flink. */
  readonly emitted: boolean;
}

/** All rows of one side and key with the same time, in arrival order. */
export interface Bucket {
  readonly time: number;
  readonly rows: readonly CachedRow[];
}

export interface IntervalKeyState {
  readonly printedKey: string;
  /** Per side, buckets in ascending time. */
  readonly caches: readonly [readonly Bucket[], readonly Bucket[]];
  /**
   * Per side, the time of the timer that cleans that side's cache (Flink stores these crossed:
   * its `rightTimerState` cleans the left cache). One per side per key; undefined = none.
   */
  readonly cleanup: readonly [number | undefined, number | undefined];
}

export interface IntervalState {
  readonly keys: PMap<IntervalKeyState>;
  /**
   * Flink's `leftExpirationTime` / `rightExpirationTime`: points up to which each cache is known
   * to be clean. They are fields of the operator instance, shared by all keys (not keyed state),
   * and start at 0.
   */
  readonly expiration: readonly [number, number];
  /** Cleanup timers (event time for rowtime joins, processing time for proctime joins). */
  readonly timers: TimerQueue;
}

export const EMPTY_INTERVAL_STATE: IntervalState = { keys: PMAP_EMPTY, expiration: [0, 0], timers: EMPTY_TIMERS };

export function emptyKeyState(printedKey: string): IntervalKeyState {
  return { printedKey, caches: [[], []], cleanup: [undefined, undefined] };
}

export function getKey(s: IntervalState, key: string): IntervalKeyState | undefined {
  return pmGet(s.keys, key);
}

/** Store a key's state, dropping the key entirely when nothing is left (Flink clears empty state). */
export function putKey(s: IntervalState, key: string, ks: IntervalKeyState): IntervalState {
  const empty = ks.caches[0].length === 0 && ks.caches[1].length === 0 && ks.cleanup[0] === undefined && ks.cleanup[1] === undefined;
  return { ...s, keys: empty ? pmDelete(s.keys, key) : pmSet(s.keys, key, ks) };
}

export function withSide<T>(pair: readonly [T, T], side: Side, value: T): readonly [T, T] {
  return side === 0 ? [value, pair[1]] : [pair[0], value];
}

/** Append a row to its time's bucket, keeping buckets in ascending time. */
export function addToCache(cache: readonly Bucket[], time: number, row: CachedRow): readonly Bucket[] {
  const at = cache.findIndex((b) => b.time >= time);
  if (at >= 0 && cache[at]?.time === time) {
    const b = cache[at] as Bucket;
    return [...cache.slice(0, at), { time, rows: [...b.rows, row] }, ...cache.slice(at + 1)];
  }
  const bucket: Bucket = { time, rows: [row] };
  return at < 0 ? [...cache, bucket] : [...cache.slice(0, at), bucket, ...cache.slice(at)];
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
      if (ks.caches[side].length > 0) n++;
      if (ks.cleanup[side] !== undefined) n++;
    }
  }
  return n;
}

export function cachedRowCount(s: IntervalState): number {
  let n = 0;
  for (const ks of pmValues(s.keys)) for (const c of ks.caches) for (const b of c) n += b.rows.length;
  return n;
}
