/**
 * Registering and deleting timers in a timer queue (the queue's semantics: interval-join-timers.ts;
 * its chunk storage: interval-timer-chunks.ts).
 *
 * Layout: the timers sorted by (time, registration), cut into chunks of at most CHUNK timers.
 * Timers are mostly registered at or after the latest one (appends to the last chunk) and fire
 * from the front, so a step touches one or two chunks and the short array of chunks. Firing the
 * first timer only moves the queue's `head` past it: the chunk is not changed, so neither shifted
 * nor copied (the slots before `head` in the first chunk are dead). Persistent: a chunk or chunk
 * array is changed in place only when it was created in the current transient edit (edit.ts) and
 * is not small (see SMALL); otherwise it is copied, so a snapshot's queue never changes. A full
 * last chunk is copied at its exact size when the next one starts (push leaves slack, which the
 * checkpoints would keep).
 * Dedup and delete look for the key among the timers with the same time (usually one or two).
 */
import { created, isEditable } from '../collections/edit.js';
import {
  CHUNK,
  SMALL,
  W,
  chunkFor,
  endOfTime,
  insertAt,
  insertFirst,
  keyAt,
  own,
  registered,
  size,
  timeAt,
  withInserted,
  type Chunk,
  type Slots,
} from './interval-timer-chunks.js';

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
export function firstOf(q: TimerQueue, c: number): number {
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
  const chunks = own(q.chunks);
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

export function removeAt(q: TimerQueue, c: number, i: number): TimerQueue {
  const chunk = q.chunks[c] as Chunk;
  const lo = firstOf(q, c);
  if (c === 0 && i === lo && lo + 1 < size(chunk)) {
    // The first timer (firing): move the head past it, the chunk stays as it is.
    return withChunks(q, q.chunks, lo + 1, q.n - 1, q.nextSeq);
  }
  // The last timer (a mostly empty queue, as the temporal join's): no copy to empty.
  if (q.n === 1) return withChunks(q, EMPTY_TIMERS.chunks, 0, 0, q.nextSeq);
  const chunks = own(q.chunks);
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

