/**
 * One side's cached rows of one key in the interval join (Flink's TimeIntervalJoin MapState from
 * row time to rows), as a flat persistent array with transient edits (edit.ts).
 */
import { created, isEditable } from '../collections/edit.js';
import type { Row } from '../../values/types.js';

/**
 * One side's cached rows of one key, in ascending time then arrival order, stored flat as
 * [time, row, joined, time, row, joined, ...]: no object per cached row, since checkpoints retain
 * every cached row they saw. `joined` = joined (and emitted) at least once; it is only kept up to
 * date for an outer side, as in Flink. Read it with cacheSize / timeAt / rowAt / joinedAt.
 */
export type Cache = readonly (number | Row | boolean)[];

/** Slots per cached row. */
const CW = 3;

export function cacheSize(c: Cache): number {
  return c.length / CW;
}

export function timeAt(c: Cache, i: number): number {
  return c[i * CW] as number;
}

export function rowAt(c: Cache, i: number): Row {
  return c[i * CW + 1] as Row;
}

export function joinedAt(c: Cache, i: number): boolean {
  return c[i * CW + 2] as boolean;
}

/** The cache with row i flagged joined (in place when editable). */
export function markJoined(c: Cache, i: number): Cache {
  const w = isEditable(c) ? (c as (number | Row | boolean)[]) : created(c.slice());
  w[i * CW + 2] = true;
  return w;
}

/** The cache without its first `k` rows (in place when editable). */
export function dropFirst(c: Cache, k: number): Cache {
  if (k >= cacheSize(c)) return NO_ROWS;
  const from = k * CW;
  if (isEditable(c)) {
    const w = c as (number | Row | boolean)[];
    for (let i = from; i < w.length; i++) w[i - from] = w[i] as number | Row | boolean;
    w.length -= from;
    return w;
  }
  const rest = c.slice(from);
  return rest.length >= GROW_IN_PLACE * CW ? created(rest) : rest;
}

/**
 * Insert a row after every cached row timed <= time (rows mostly arrive in time order). A small
 * cache is copied at its exact size even when editable: checkpoints retain caches, and V8's
 * growth slack (about half again plus 16 slots) would double what every kept key costs.
 */
export function addToCache(c: Cache, time: number, row: Row, joined: boolean): Cache {
  const n = cacheSize(c);
  let at = n;
  while (at > 0 && timeAt(c, at - 1) > time) at--;
  if (n >= GROW_IN_PLACE && isEditable(c)) {
    const w = c as (number | Row | boolean)[];
    w.push(time, row, joined);
    for (let i = w.length - 1; i >= (at + 1) * CW; i--) w[i] = w[i - CW] as number | Row | boolean;
    w[at * CW] = time;
    w[at * CW + 1] = row;
    w[at * CW + 2] = joined;
    return w;
  }
  const w = new Array<number | Row | boolean>(c.length + CW);
  const split = at * CW;
  for (let i = 0; i < split; i++) w[i] = c[i] as number | Row | boolean;
  w[split] = time;
  w[split + 1] = row;
  w[split + 2] = joined;
  for (let i = split; i < c.length; i++) w[i + CW] = c[i] as number | Row | boolean;
  // Only a cache that may grow in place later needs registering (each one costs a Set entry).
  return n + 1 >= GROW_IN_PLACE ? created(w) : w;
}

/** From this many rows on, an editable cache grows in place (amortised O(1) per row). */
const GROW_IN_PLACE = 16;

export const NO_ROWS: Cache = Object.freeze([]);
