/**
 * The keyed timer service of every join family, modelled on Flink's InternalTimerService with the
 * heap state backend (the harness's and Flink's default `hashmap`): per time domain, one
 * HeapPriorityQueueSet holds every timer of the operator.
 *
 * Flink's queue, which this reproduces exactly because it decides the firing order of timers
 * that are due at the same time:
 *   - a binary heap in an array, 1-based, ordered by timestamp only (no tie-breaker);
 *   - add: a (key, time) already present is a no-op (the set's dedup map); else the timer goes to
 *     the end and sifts up while strictly earlier than its parent;
 *   - poll: the head leaves; the last timer moves into its place, sifts down (to the earlier
 *     child, the right one only when strictly earlier than the left, while that child is strictly
 *     earlier), and sifts up if it did not move;
 *   - delete: the same as poll, at the deleted timer's place.
 * So two timers due at the same time fire in the order those moves leave them in, which is
 * neither registration order nor key order (docs/semantics.md, "Timers due at the same time").
 * The interval join keeps its cleanup timers here, the temporal join its emit and retention timers.
 *
 * Storage. A queue value is a position in an append-only log of the operations that changed a
 * heap: `{ log, pos }` is the heap after the log's first `pos` operations. Values never change,
 * so a snapshot's queue is persistent, while the heap itself is a plain mutable array:
 *   - the log keeps the heap at its end (`tip`); an operation on a queue at the end changes that
 *     heap in place and appends itself: the forward run pays a heap operation and three stores;
 *   - a queue at an older position is read from a second heap (`reader`), rolled forward by
 *     replaying operations from the nearest heap copy the log kept (every
 *     max(SNAP_MIN, SNAP_PER_TIMER * size) operations, so the copies cost less than a slot per
 *     operation in all);
 *   - an operation on a queue at an older position that is the one the log holds next (a replay
 *     of the same steps: the engine is deterministic) moves along the log without writing; any
 *     other starts a new log from a copy of that heap (an edited event list).
 * A persistent heap (copy on write) would copy most of a large heap between two checkpoints, as
 * every poll touches a path from the root to a leaf: about 200 MB for the 1M-event interval join.
 */
import { created, isEditable } from '../collections/edit.js';

/**
 * A heap as Flink's HeapPriorityQueueSet holds it: the binary heap and the dedup map.
 *
 * Layout: timers live in slots (parallel arrays: time, key, heap place, next of the key's chain),
 * reused through a free list, so a timer costs no object; the heap holds, per place, the slot and
 * its time side by side, so the sift loops compare times without following the slot. The dedup
 * map (key → first slot of its chain) is built only when a lookup needs it: a heap rebuilt to
 * read an old position usually replays logged operations only, which need no lookup.
 */
class Heap {
  /** Per heap place (1-based; place 0 unused): the timer's time and its slot. */
  private placeTime: Float64Array;
  private placeSlot: Int32Array;
  size = 0;
  /** Per slot. */
  private slotTime: Float64Array;
  private slotKey: string[] = [];
  private slotAt: Int32Array;
  private slotNext: Int32Array;
  private free: number[] = [];
  private slots = 0;
  /** A key's first slot (its chain: slotNext, -1 ends it); null until a lookup needs it. */
  private byKey: Map<string, number> | null = null;

  constructor(capacity = 16) {
    this.placeTime = new Float64Array(capacity + 1);
    this.placeSlot = new Int32Array(capacity + 1);
    this.slotTime = new Float64Array(capacity);
    this.slotAt = new Int32Array(capacity);
    this.slotNext = new Int32Array(capacity);
  }

  /**
   * The key of the last find and its chain's first slot (-1: none), for the add that usually
   * follows it (registering a timer looks for it first): one map lookup instead of two.
   */
  private probeKey: string | null = null;
  private probeFirst = -1;

  /** The slot of (key, time), or -1. */
  find(key: string, time: number): number {
    const first = this.keyMap().get(key) ?? -1;
    this.probeKey = key;
    this.probeFirst = first;
    let s = first;
    while (s >= 0 && this.slotTime[s] !== time) s = this.slotNext[s] as number;
    return s;
  }

  headTime(): number | undefined {
    return this.size === 0 ? undefined : this.placeTime[1];
  }

  headKey(): string {
    return this.slotKey[this.placeSlot[1] as number] as string;
  }

  headSlot(): number {
    return this.placeSlot[1] as number;
  }

  /** Adds a timer not present (the caller checked with find, or replays a logged add). */
  add(key: string, time: number): void {
    const s = this.newSlot(key, time);
    const map = this.byKey;
    if (map !== null) {
      const first = key === this.probeKey ? this.probeFirst : (map.get(key) ?? -1);
      this.probeKey = null;
      if (first < 0) {
        this.slotNext[s] = -1;
        map.set(key, s);
      } else {
        // After the chain's first slot: the map entry stays as it is.
        this.slotNext[s] = this.slotNext[first] as number;
        this.slotNext[first] = s;
      }
    }
    const at = ++this.size;
    if (at >= this.placeTime.length) this.growPlaces();
    this.siftUp(at, time, s);
  }

  /** Removes the timer in `slot`. */
  remove(slot: number): void {
    this.probeKey = null;
    if (this.byKey !== null) this.unchain(slot);
    const at = this.slotAt[slot] as number;
    const last = this.size;
    if (at !== last) {
      const movedTime = this.placeTime[last] as number;
      const moved = this.placeSlot[last] as number;
      // As Flink: sift down with the old size (the moved timer's old place still holds it, which
      // changes no comparison), then up if it stayed.
      this.siftDown(at, movedTime, moved, last);
      if (this.placeSlot[at] === moved) this.siftUp(at, movedTime, moved);
    }
    this.size--;
    this.slotKey[slot] = '';
    this.free.push(slot);
  }

  private newSlot(key: string, time: number): number {
    let s = this.free.pop();
    if (s === undefined) {
      s = this.slots++;
      if (s >= this.slotTime.length) this.growSlots();
    }
    this.slotTime[s] = time;
    this.slotKey[s] = key;
    return s;
  }

  private keyMap(): Map<string, number> {
    if (this.byKey !== null) return this.byKey;
    const map = new Map<string, number>();
    for (let i = 1; i <= this.size; i++) {
      const s = this.placeSlot[i] as number;
      const key = this.slotKey[s] as string;
      this.slotNext[s] = map.get(key) ?? -1;
      map.set(key, s);
    }
    this.byKey = map;
    return map;
  }

  private unchain(slot: number): void {
    const map = this.byKey as Map<string, number>;
    const key = this.slotKey[slot] as string;
    const first = map.get(key) as number;
    const next = this.slotNext[slot] as number;
    if (first === slot) {
      if (next < 0) map.delete(key);
      else map.set(key, next);
      return;
    }
    let p = first;
    while (this.slotNext[p] !== slot) p = this.slotNext[p] as number;
    this.slotNext[p] = next;
  }

  private place(at: number, time: number, slot: number): void {
    this.placeTime[at] = time;
    this.placeSlot[at] = slot;
    this.slotAt[slot] = at;
  }

  /** Moves the timer (time, slot) up from place `at` while strictly earlier than its parent. */
  private siftUp(at: number, time: number, slot: number): void {
    const times = this.placeTime;
    let parent = at >>> 1;
    while (parent > 0 && time < (times[parent] as number)) {
      this.place(at, times[parent] as number, this.placeSlot[parent] as number);
      at = parent;
      parent >>>= 1;
    }
    this.place(at, time, slot);
  }

  /** Moves the timer (time, slot) down from place `at` within places 1..n. */
  private siftDown(at: number, time: number, slot: number, n: number): void {
    const times = this.placeTime;
    for (;;) {
      let child = at << 1;
      if (child > n) break;
      // The left child, or the right one when strictly earlier.
      if (child + 1 <= n && (times[child + 1] as number) < (times[child] as number)) child++;
      if (!((times[child] as number) < time)) break;
      this.place(at, times[child] as number, this.placeSlot[child] as number);
      at = child;
    }
    this.place(at, time, slot);
  }

  private growPlaces(): void {
    const n = this.placeTime.length * 2;
    const t = new Float64Array(n);
    t.set(this.placeTime);
    this.placeTime = t;
    const s = new Int32Array(n);
    s.set(this.placeSlot);
    this.placeSlot = s;
  }

  private growSlots(): void {
    const n = this.slotTime.length * 2;
    const t = new Float64Array(n);
    t.set(this.slotTime);
    this.slotTime = t;
    const a = new Int32Array(n);
    a.set(this.slotAt);
    this.slotAt = a;
    const x = new Int32Array(n);
    x.set(this.slotNext);
    this.slotNext = x;
  }

  /** The timers in heap order. */
  copyOut(): HeapCopy {
    const times = this.placeTime.slice(1, this.size + 1);
    const keys = new Array<string>(this.size);
    for (let i = 1; i <= this.size; i++) keys[i - 1] = this.slotKey[this.placeSlot[i] as number] as string;
    return { times, keys };
  }

  /** A heap holding a copy's timers in the same places (slot i - 1 at place i). */
  static from(c: HeapCopy): Heap {
    const n = c.keys.length;
    const h = new Heap(Math.max(16, n));
    h.placeTime.set(c.times, 1);
    h.slotTime.set(c.times);
    for (let i = 0; i < n; i++) {
      h.placeSlot[i + 1] = i;
      h.slotAt[i] = i + 1;
    }
    h.slotKey = c.keys.slice();
    h.slots = n;
    h.size = n;
    return h;
  }
}

/** A heap's timers in heap order (Heap.copyOut). */
interface HeapCopy {
  readonly times: Float64Array;
  readonly keys: readonly string[];
}

const ADD = 0;
const DELETE = 1;
const POLL = 2;

/** Operations per log chunk. */
const CHUNK = 4096;
/** A poll's code in a chunk: it needs no key or time (it removes the heap's first timer). */
const POLL_CODE = 0xffff;
/** The fewest operations between two heap copies of a log. */
const SNAP_MIN = 1024;
/**
 * Operations between heap copies per pending timer: a copy costs about the operations since the
 * last one (so copies take less than a slot per operation in all), and reading an old position
 * from one replays at most that many.
 */
const SNAP_PER_TIMER = 4;
/**
 * A heap read at an old position keeps a copy every READER_STRIDE operations it is rolled
 * through, the last READER_COPIES of them: stepping back near a position just read (the timeline
 * replays from a snapshot a few steps back) then starts from one of those instead of from the
 * log's sparse copies.
 */
const READER_STRIDE = 256;
const READER_COPIES = 16;

/**
 * A chunk of the log: per operation a code (POLL_CODE, or the index of its key and time among
 * the chunk's adds and deletes, times two, plus one for a delete), and those keys and times.
 */
interface LogChunk {
  readonly codes: Uint16Array;
  times: number[];
  keys: string[];
}

/**
 * The operations that changed a heap, from position `base` (where a copy of its heap starts it)
 * on, with the heap after the last one (`tip`) and one for reading older positions (`reader`).
 */
class TimerLog {
  private readonly chunks: LogChunk[] = [];
  /** Position after the last operation. */
  end: number;
  private readonly base: number;
  /** Heap copies (Heap.copyOut) and their positions, ascending; the first is at `base`. */
  private readonly snapAt: number[];
  private readonly snaps: HeapCopy[];
  readonly tip: Heap;
  private reader: Heap | null = null;
  private readerAt = -1;
  /** Copies of the reader at the positions it passed (READER_STRIDE), oldest first. */
  private readonly readerCopies: { readonly at: number; readonly copy: HeapCopy }[] = [];

  constructor(base: number, start: Heap) {
    this.base = base;
    this.end = base;
    this.snapAt = [base];
    this.snaps = [start.copyOut()];
    this.tip = start;
  }

  /** Append an operation already applied to the tip heap. */
  append(kind: number, key: string, time: number): void {
    const i = this.end - this.base;
    const j = i % CHUNK;
    if (j === 0) {
      // The previous chunk is full: its payload arrays lose their growth slack.
      const prev = this.chunks[this.chunks.length - 1];
      if (prev !== undefined) {
        prev.times = prev.times.slice();
        prev.keys = prev.keys.slice();
      }
      this.chunks.push({ codes: new Uint16Array(CHUNK), times: [], keys: [] });
    }
    const c = this.chunks[this.chunks.length - 1] as LogChunk;
    if (kind === POLL) c.codes[j] = POLL_CODE;
    else {
      c.codes[j] = c.keys.length * 2 + (kind === DELETE ? 1 : 0);
      c.times.push(time);
      c.keys.push(key);
    }
    this.end++;
    if (this.end - (this.snapAt[this.snapAt.length - 1] as number) >= Math.max(SNAP_MIN, SNAP_PER_TIMER * this.tip.size)) {
      this.snapAt.push(this.end);
      this.snaps.push(this.tip.copyOut());
    }
  }

  private chunkAt(pos: number): LogChunk {
    return this.chunks[Math.floor((pos - this.base) / CHUNK)] as LogChunk;
  }

  private codeAt(chunk: LogChunk, pos: number): number {
    return chunk.codes[(pos - this.base) % CHUNK] as number;
  }

  /** Whether the operation at `pos` is this one. */
  holds(pos: number, kind: number, key: string, time: number): boolean {
    const chunk = this.chunkAt(pos);
    const code = this.codeAt(chunk, pos);
    if (code === POLL_CODE) return kind === POLL;
    return kind === ((code & 1) === 1 ? DELETE : ADD) && chunk.keys[code >> 1] === key && chunk.times[code >> 1] === time;
  }

  /** Apply the operation at `pos` to h. */
  private replay(h: Heap, pos: number): void {
    const chunk = this.chunkAt(pos);
    const code = this.codeAt(chunk, pos);
    if (code === POLL_CODE) h.remove(h.headSlot());
    else if ((code & 1) === 0) h.add(chunk.keys[code >> 1] as string, chunk.times[code >> 1] as number);
    else h.remove(h.find(chunk.keys[code >> 1] as string, chunk.times[code >> 1] as number));
  }

  /** The heap at `pos` (base <= pos <= end): the tip, or the reader rolled to it. */
  heapAt(pos: number): Heap {
    if (pos === this.end) return this.tip;
    let h = this.reader;
    if (h === null || this.readerAt > pos || pos - this.readerAt > READER_STRIDE) {
      // The latest copy at or before pos: the log's, or one the reader left.
      let lo = 0;
      let hi = this.snapAt.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((this.snapAt[mid] as number) <= pos) lo = mid;
        else hi = mid - 1;
      }
      let from = this.snapAt[lo] as number;
      let copy = this.snaps[lo] as HeapCopy;
      for (const c of this.readerCopies) {
        if (c.at <= pos && c.at > from) {
          from = c.at;
          copy = c.copy;
        }
      }
      if (h === null || this.readerAt > pos || this.readerAt < from) {
        h = Heap.from(copy);
        this.reader = h;
        this.readerAt = from;
      }
    }
    while (this.readerAt < pos) {
      this.replay(h, this.readerAt);
      this.readerAdvanced();
    }
    return h;
  }

  /** The reader moved one operation on: keep a copy of it every READER_STRIDE operations. */
  readerAdvanced(): void {
    const at = ++this.readerAt;
    if (at % READER_STRIDE !== 0 || this.readerCopies.some((c) => c.at === at)) return;
    if (this.readerCopies.length === READER_COPIES) this.readerCopies.shift();
    this.readerCopies.push({ at, copy: (this.reader as Heap).copyOut() });
  }

  /**
   * The reader heap at `pos`, taken over by a new log that starts there (the reader is then this
   * log's no more).
   */
  takeReader(pos: number): Heap {
    const h = this.heapAt(pos);
    this.reader = null;
    this.readerAt = -1;
    return h;
  }
}

/**
 * A queue value: the heap after the first `pos` operations of `log` (null: the empty queue no
 * operation has touched). It serializes as its timers in heap order, what it denotes.
 */
export class TimerQueue {
  constructor(
    readonly log: TimerLog | null,
    readonly pos: number,
  ) {}

  toJSON(): (number | string)[] {
    const c = heapOf(this).copyOut();
    return c.keys.flatMap((key, i) => [c.times[i] as number, key]);
  }
}

export const EMPTY_TIMERS: TimerQueue = Object.freeze(new TimerQueue(null, 0));

const EMPTY_HEAP = new Heap();

function heapOf(q: TimerQueue): Heap {
  return q.log === null ? EMPTY_HEAP : q.log.heapAt(q.pos);
}

function moved(q: TimerQueue, log: TimerLog, pos: number): TimerQueue {
  if (q.log === log && isEditable(q)) {
    (q as { pos: number }).pos = pos;
    return q;
  }
  return created(new TimerQueue(log, pos));
}

/** Whether q's log holds this operation right after q: a replay of the same step. */
function isNext(q: TimerQueue, kind: number, key: string, time: number): boolean {
  const log = q.log;
  return log !== null && q.pos < log.end && log.holds(q.pos, kind, key, time);
}

/**
 * q after one operation that changes its heap (`slot`: the timer a delete or poll removes, in
 * q's heap). At the log's end the tip heap changes and the log grows; at an older position the
 * log's next operation is followed when it is this one, and otherwise a new log starts there.
 */
function change(q: TimerQueue, kind: number, key: string, time: number, slot: number): TimerQueue {
  const log = q.log;
  if (log !== null && q.pos === log.end) {
    if (kind === ADD) log.tip.add(key, time);
    else log.tip.remove(slot);
    log.append(kind, key, time);
    return moved(q, log, q.pos + 1);
  }
  if (log !== null && isNext(q, kind, key, time)) {
    const h = log.heapAt(q.pos);
    if (kind === ADD) h.add(key, time);
    else h.remove(slot);
    log.readerAdvanced();
    return moved(q, log, q.pos + 1);
  }
  // The heap read at q.pos (where `slot` is) becomes the new log's.
  const fork = new TimerLog(q.pos, log === null ? new Heap() : log.takeReader(q.pos));
  return change(new TimerQueue(fork, q.pos), kind, key, time, slot);
}

/** Register a timer; a second registration of the same (key, time) changes nothing. */
export function addTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  // A logged add was no duplicate of the same heap: no lookup.
  if (!isNext(q, ADD, key, time) && heapOf(q).find(key, time) >= 0) return q;
  return change(q, ADD, key, time, -1);
}

export function deleteTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  const slot = heapOf(q).find(key, time);
  return slot < 0 ? q : change(q, DELETE, key, time, slot);
}

export function hasTimer(q: TimerQueue, key: string, time: number): boolean {
  return heapOf(q).find(key, time) >= 0;
}

export interface Timer {
  readonly time: number;
  readonly key: string;
}

/** The queue without its earliest timer (Flink's poll); q itself when empty. */
export function dropFirstTimer(q: TimerQueue): TimerQueue {
  const h = heapOf(q);
  return h.size === 0 ? q : change(q, POLL, h.headKey(), h.headTime() as number, h.headSlot());
}

/** The earliest timer with time <= upTo, and the queue without it. */
export function popDue(q: TimerQueue, upTo: number): { readonly timer: Timer; readonly rest: TimerQueue } | undefined {
  const h = heapOf(q);
  const time = h.headTime();
  if (time === undefined || time > upTo) return undefined;
  return { timer: { time, key: h.headKey() }, rest: dropFirstTimer(q) };
}

/** The key of the earliest timer if it is due (timed <= upTo), else undefined. */
export function dueKey(q: TimerQueue, upTo: number): string | undefined {
  const h = heapOf(q);
  const time = h.headTime();
  return time === undefined || time > upTo ? undefined : h.headKey();
}

export function nextTimerTime(q: TimerQueue): number | undefined {
  return heapOf(q).headTime();
}

/** Every pending timer in the order they would fire (polled from a copy of the heap). */
export function timerList(q: TimerQueue): readonly Timer[] {
  const h = Heap.from(heapOf(q).copyOut());
  const out: Timer[] = [];
  while (h.size > 0) {
    out.push({ time: h.headTime() as number, key: h.headKey() });
    h.remove(h.headSlot());
  }
  return out;
}

export function timerCount(q: TimerQueue): number {
  return heapOf(q).size;
}
