/**
 * The keyed timer service of every join family, shaped like Flink's InternalTimerService: at most
 * one timer per (key, time) — registering it again is a no-op, as Flink's timer set deduplicates —
 * fired in time order. Two timers due at the same time fire in registration order here. Flink's
 * order for them is deterministic but comes from its queue's shape: with the heap state backend,
 * one binary heap over all timers that compares timestamps only (HeapPriorityQueueSet), so equal
 * timers leave in the order the heap's sift moves give them (docs/semantics.md, Known limits).
 * The interval join keeps its cleanup timers here, the temporal join its emit and retention timers.
 *
 * Storage: the timers sorted by (time, registration), cut into chunks of at most CHUNK timers,
 * each chunk flat as [time, key, seq, time, ...] (no object per timer: checkpoints retain every
 * chunk they saw, and a timer lives for a window). Timers are mostly registered at or after the
 * latest one (appends to the last chunk) and fire from the front, so a step touches one or two
 * chunks and the short array of chunks. Firing the first timer only moves the queue's `head` past
 * it: the chunk is not changed, so neither shifted nor copied (the slots before `head` in the
 * first chunk are dead). Persistent: a chunk or chunk array is changed in place only when it was
 * created in the current transient edit (edit.ts) and is not small (see SMALL); otherwise it is
 * copied, so a snapshot's queue never changes. Dedup and delete look for the key among the timers
 * with the same time (usually one or two).
 */
import { created, isEditable } from '../collections/edit.js';

/**
 * A chunk: up to CHUNK timers sorted by (time, seq), stored flat as [time, key, seq, time, ...]
 * (no object per timer: checkpoints retain every chunk they saw, and a timer lives for a window).
 */
type Chunk = readonly (number | string)[];

/** Slots per timer in a chunk. */
const W = 3;
/** Timers per chunk: a copied chunk costs at most W * CHUNK slots. */
const CHUNK = 32;

/**
 * Chunks and chunk arrays shorter than this are copied on every change and never registered in
 * the edit: copying a few slots costs less than the edit's Set lookups (each a likely cache miss
 * in a large table), and a queue that is mostly empty (the temporal join's) stays this small.
 */
const SMALL = 8 * W;

type Slots = (number | string)[];

/** A registered array only when it is large enough to be worth changing in place later. */
function registered<T>(a: T[]): T[] {
  return a.length >= SMALL ? created(a) : a;
}

function ownChunks<T>(a: readonly T[]): T[] {
  if (a.length < SMALL) return a.slice();
  return isEditable(a) ? (a as T[]) : created(a.slice());
}

function timeAt(c: Chunk, i: number): number {
  return c[i * W] as number;
}

function keyAt(c: Chunk, i: number): string {
  return c[i * W + 1] as string;
}

function size(c: Chunk): number {
  return c.length / W;
}

/**
 * Index of the last chunk whose first timer is timed <= time (0 when none is). Timers are mostly
 * registered past the last chunk's first timer, or before the second chunk's: those two are
 * looked at first, as every probe of the search touches another chunk (a likely cache miss).
 */
function chunkFor(chunks: readonly Chunk[], time: number): number {
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
function endOfTime(chunk: Chunk, time: number, lo: number): number {
  let i = size(chunk);
  while (i > lo && timeAt(chunk, i - 1) > time) i--;
  return i;
}

/**
 * Insert a timer at `at` in the first chunk, whose first `head` (> 0) timers are dead: in place,
 * the live timers before `at` move down one place (timers are mostly inserted near the front
 * there); otherwise a copy of the live timers only (so the caller's head becomes 0).
 */
function insertFirst(chunk: Chunk, head: number, at: number, time: number, key: string, seq: number): Chunk {
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
function withInserted(chunk: Chunk, from: number, at: number, time: number, key: string, seq: number): Slots {
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
function insertAt(a: Slots, i: number, time: number, key: string, seq: number): void {
  a.push(time, key, seq);
  for (let k = a.length - 1; k >= i + W; k--) a[k] = a[k - W] as number | string;
  a[i] = time;
  a[i + 1] = key;
  a[i + 2] = seq;
}

export interface TimerQueue {
  /** Non-empty chunks, in order (the first one's live timers start at `head`). */
  readonly chunks: readonly Chunk[];
  /** How many timers of chunks[0] have fired: its slots before them are dead. */
  readonly head: number;
  readonly n: number;
  readonly nextSeq: number;
}

export const EMPTY_TIMERS: TimerQueue = Object.freeze({ chunks: Object.freeze([]) as readonly Chunk[], head: 0, n: 0, nextSeq: 0 });

/** Index of chunk c's first live timer. */
function firstOf(q: TimerQueue, c: number): number {
  return c === 0 ? q.head : 0;
}

/** Where (key, time) is, as chunk * 2^16 + index, or -1. Walks back over the timers at `time`. */
function locate(q: TimerQueue, key: string, time: number): number {
  if (q.n === 0) return -1;
  let c = chunkFor(q.chunks, time);
  let i = endOfTime(q.chunks[c] as Chunk, time, firstOf(q, c));
  for (;;) {
    const chunk = q.chunks[c] as Chunk;
    const lo = firstOf(q, c);
    while (i > lo) {
      i--;
      if (timeAt(chunk, i) !== time) return -1;
      if (keyAt(chunk, i) === key) return c * 65536 + i;
    }
    if (c === 0) return -1;
    c--;
    i = size(q.chunks[c] as Chunk);
  }
}

export function hasTimer(q: TimerQueue, key: string, time: number): boolean {
  return locate(q, key, time) >= 0;
}

function withChunks(q: TimerQueue, chunks: readonly Chunk[], head: number, n: number, nextSeq: number): TimerQueue {
  if (isEditable(q)) {
    const m = q as { chunks: readonly Chunk[]; head: number; n: number; nextSeq: number };
    m.chunks = chunks;
    m.head = head;
    m.n = n;
    m.nextSeq = nextSeq;
    return q;
  }
  return created({ chunks, head, n, nextSeq });
}

/** Register a timer; a second registration of the same (key, time) changes nothing. */
export function addTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  if (locate(q, key, time) >= 0) return q;
  const seq = q.nextSeq;
  if (q.n === 0) return withChunks(q, [[time, key, seq]], 0, 1, seq + 1);
  const c = chunkFor(q.chunks, time);
  const chunk = q.chunks[c] as Chunk;
  const lo = firstOf(q, c);
  const at = endOfTime(chunk, time, lo);
  const chunks = ownChunks(q.chunks);
  let head = q.head;
  const last = at === size(chunk) && c === chunks.length - 1;
  if (last && size(chunk) - lo >= CHUNK) {
    // Appending past a full last chunk (the usual case): start a new one rather than split. The
    // new one is registered at once, small as it is: appends then push in place instead of
    // copying it. The full one stays as its pushes left it: a 3-slot literal grown by 3-slot
    // pushes holds CHUNK = 32 timers in 101 slots (V8 grows to n + n/2 + 16), 5 slots of slack,
    // where an exact-size copy cost 96 slots more per chunk (~19 B/event, 1M-event interval
    // join). Only a first chunk with fired timers before `head` is copied, to drop them.
    if (lo > 0 && isEditable(chunk)) {
      chunks[c] = chunk.slice(lo * W);
      head = 0;
    }
    chunks.push(created([time, key, seq]));
    return withChunks(q, chunks, head, q.n + 1, seq + 1);
  }
  if (last && (c > 0 || head === 0) && isEditable(chunk)) {
    (chunk as Slots).push(time, key, seq);
    return withChunks(q, chunks, head, q.n + 1, seq + 1);
  }
  if (c === 0 && head > 0) {
    chunks[0] = insertFirst(chunk, head, at, time, key, seq);
    // In place, the live timers moved down into the dead slot before them; a copy has none.
    head = chunks[0] === chunk ? head - 1 : 0;
    return withChunks(q, chunks, head, q.n + 1, seq + 1);
  }
  let next: Slots;
  if (chunk.length >= SMALL && isEditable(chunk)) {
    next = chunk as Slots;
    insertAt(next, at * W, time, key, seq);
  } else {
    // The last chunk of a long queue is registered even when small: more appends are to come
    // (a mostly empty queue, as the temporal join's, keeps copying its few timers).
    next = withInserted(chunk, 0, at, time, key, seq);
    if (last && c > 0) created(next);
    else registered(next);
  }
  if (next.length > CHUNK * W) {
    const half = (CHUNK >> 1) * W;
    const tail = registered(next.slice(half));
    next.length = half;
    chunks.push(tail);
    for (let k = chunks.length - 1; k > c + 1; k--) chunks[k] = chunks[k - 1] as Chunk;
    chunks[c + 1] = tail;
  }
  chunks[c] = next;
  return withChunks(q, chunks, head, q.n + 1, seq + 1);
}

function removeAt(q: TimerQueue, c: number, i: number): TimerQueue {
  const chunk = q.chunks[c] as Chunk;
  const lo = firstOf(q, c);
  if (c === 0 && i === lo && lo + 1 < size(chunk)) {
    // The first timer (firing): move the head past it, the chunk stays as it is.
    return withChunks(q, q.chunks, lo + 1, q.n - 1, q.nextSeq);
  }
  // The last timer (a mostly empty queue, as the temporal join's): no copy to empty.
  if (q.n === 1) return withChunks(q, EMPTY_TIMERS.chunks, 0, 0, q.nextSeq);
  const chunks = ownChunks(q.chunks);
  let head = q.head;
  if (size(chunk) - lo === 1) {
    for (let k = c; k < chunks.length - 1; k++) chunks[k] = chunks[k + 1] as Chunk;
    chunks.length--;
    if (c === 0) head = 0;
  } else if (c === 0 && head > 0) {
    // A copy of the live timers without this one.
    chunks[0] = registered([...chunk.slice(head * W, i * W), ...chunk.slice((i + 1) * W)]);
    head = 0;
  } else if (chunk.length >= SMALL && isEditable(chunk)) {
    const next = chunk as Slots;
    for (let k = i * W; k < next.length - W; k++) next[k] = next[k + W] as number | string;
    next.length -= W;
  } else {
    // A copy without the timer, in one pass.
    chunks[c] = registered(i === 0 ? chunk.slice(W) : [...chunk.slice(0, i * W), ...chunk.slice((i + 1) * W)]);
  }
  return withChunks(q, chunks, head, q.n - 1, q.nextSeq);
}

export function deleteTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  const at = locate(q, key, time);
  return at < 0 ? q : removeAt(q, Math.floor(at / 65536), at % 65536);
}

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

/** The key of the earliest timer if it is due (timed <= upTo), else undefined. */
export function dueKey(q: TimerQueue, upTo: number): string | undefined {
  const first = q.chunks[0];
  return first === undefined || timeAt(first, q.head) > upTo ? undefined : keyAt(first, q.head);
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
