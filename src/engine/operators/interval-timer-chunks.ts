/**
 * A timer queue's chunk storage: timers stored flat in chunks, the searches over them, and when a
 * chunk or chunk array may be changed in place rather than copied (the queue's layout and
 * persistence: interval-timer-queue.ts).
 */
import { created, isEditable } from '../collections/edit.js';

/**
 * A chunk: up to CHUNK timers sorted by (time, seq), stored flat as [time, key, seq, time, ...]
 * (no object per timer: checkpoints retain every chunk they saw, and a timer lives for a window).
 */
export type Chunk = readonly (number | string)[];

/** Slots per timer in a chunk. */
export const W = 3;
/** Timers per chunk: a copied chunk costs at most W * CHUNK slots. */
export const CHUNK = 32;

/**
 * Chunks and chunk arrays shorter than this are copied on every change and never registered in
 * the edit: copying a few slots costs less than the edit's Set lookups (each a likely cache miss
 * in a large table), and a queue that is mostly empty (the temporal join's) stays this small.
 */
export const SMALL = 8 * W;

export type Slots = (number | string)[];

/** A registered array only when it is large enough to be worth changing in place later. */
export function registered<T>(a: T[]): T[] {
  return a.length >= SMALL ? created(a) : a;
}

export function own<T>(a: readonly T[]): T[] {
  if (a.length < SMALL) return a.slice();
  return isEditable(a) ? (a as T[]) : created(a.slice());
}

export function timeAt(c: Chunk, i: number): number {
  return c[i * W] as number;
}

export function keyAt(c: Chunk, i: number): string {
  return c[i * W + 1] as string;
}

export function size(c: Chunk): number {
  return c.length / W;
}

/**
 * Index of the last chunk whose first timer is timed <= time (0 when none is). Timers are mostly
 * registered past the last chunk's first timer, or before the second chunk's: those two are
 * looked at first, as every probe of the search touches another chunk (a likely cache miss).
 */
export function chunkFor(chunks: readonly Chunk[], time: number): number {
  let hi = chunks.length - 1;
  if (hi <= 0 || timeAt(chunks[hi] as Chunk, 0) <= time) return Math.max(hi, 0);
  if (timeAt(chunks[1] as Chunk, 0) > time) return 0;
  let lo = 1;
  hi--;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (timeAt(chunks[mid] as Chunk, 0) <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Position after the last timer timed <= time in a chunk, not below `lo`. */
export function endOfTime(chunk: Chunk, time: number, lo: number): number {
  let i = size(chunk);
  while (i > lo && timeAt(chunk, i - 1) > time) i--;
  return i;
}

/**
 * Insert a timer at `at` in the first chunk, whose first `head` (> 0) timers are dead: in place,
 * the live timers before `at` move down one place (timers are mostly inserted near the front
 * there); otherwise a copy of the live timers only (so the caller's head becomes 0).
 */
export function insertFirst(chunk: Chunk, head: number, at: number, time: number, key: string, seq: number): Chunk {
  if (chunk.length >= SMALL && isEditable(chunk)) {
    const w = chunk as Slots;
    for (let k = (head - 1) * W; k < (at - 1) * W; k++) w[k] = w[k + W] as number | string;
    const i = (at - 1) * W;
    w[i] = time;
    w[i + 1] = key;
    w[i + 2] = seq;
    return w;
  }
  return registered(withInserted(chunk, head, at, time, key, seq));
}

/**
 * An exact-size copy of the chunk's timers from `from` on, with a timer inserted at `at` (a copy
 * then push would allocate twice, and leave slack).
 */
export function withInserted(chunk: Chunk, from: number, at: number, time: number, key: string, seq: number): Slots {
  const a = new Array<number | string>((size(chunk) - from + 1) * W);
  let o = 0;
  for (let k = from * W; k < at * W; k++) a[o++] = chunk[k] as number | string;
  a[o++] = time;
  a[o++] = key;
  a[o++] = seq;
  for (let k = at * W; k < chunk.length; k++) a[o++] = chunk[k] as number | string;
  return a;
}

/** Insert one timer's slots at slot i by shifting in place (splice would allocate). */
export function insertAt(a: Slots, i: number, time: number, key: string, seq: number): void {
  a.push(time, key, seq);
  for (let k = a.length - 1; k >= i + W; k--) a[k] = a[k - W] as number | string;
  a[i] = time;
  a[i + 1] = key;
  a[i + 2] = seq;
}
