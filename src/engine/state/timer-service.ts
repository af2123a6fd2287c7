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
 * Storage. A queue of at most SMALL_MAX timers holds them itself, in heap order, and an
 * operation copies them (or changes them in place when the current edit made the value): a join
 * whose timers fire soon after they are registered (the temporal join's) never needs more. A
 * larger queue value is a position in an append-only log of the operations that changed a
 * heap: `{ log, pos }` is the heap after the log's first `pos` operations. Values never change,
 * so a snapshot's queue is persistent, while the heap itself is a plain mutable array:
 *   - the log keeps the heap at its end (`tip`); an operation on a queue at the end changes that
 *     heap in place and appends itself: the forward run pays a heap operation and a few stores;
 *   - a queue at an older position is read from a second heap (`reader`), rolled forward by
 *     replaying operations from the nearest heap copy the log kept (every
 *     max(SNAP_MIN, SNAP_PER_TIMER * size) operations) or from an image of itself it left on the
 *     way (every READER_STRIDE operations);
 *   - an operation on a queue at an older position that is the one the log holds next (a replay
 *     of the same steps: the engine is deterministic) moves along the log without writing; any
 *     other starts a new log from a copy of that heap (an edited event list).
 * A persistent heap (copy on write) would copy most of a large heap between two checkpoints, as
 * every poll touches a path from the root to a leaf: about 200 MB for the 1M-event interval join.
 */
import { writeStamp } from '../collections/edit.js';

/** Grown to at least n + 1 entries (doubling), keeping the entries. */
function grownF64(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  if (n < a.length) return a;
  const b = new Float64Array(Math.max(n + 1, a.length * 2));
  b.set(a);
  return b;
}

function grownI32(a: Int32Array<ArrayBuffer>, n: number, fill = 0): Int32Array<ArrayBuffer> {
  if (n < a.length) return a;
  const b = new Int32Array(Math.max(n + 1, a.length * 2));
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

/**
 * The timers' keys as small ints, one per distinct key, never reused: shared by a log, its heaps
 * and the logs started from it, so heaps, heap copies and logged operations hold ints (no string
 * a log keeps alive per operation, no map per heap).
 */
class KeyTable {
  private readonly ids = new Map<string, number>();
  readonly names: string[] = [];
  /**
   * The last key found or added and its id: the rows of one key often come together, and a
   * string comparison is cheaper than the map's lookup (a hash and a probe of a large table).
   */
  private lastKey: string | null = null;
  private lastId = -1;
  /**
   * The key of the last timer read at a heap's head and its id: a join that handles a fired
   * timer often registers the key's next one (the interval join's cleanup).
   */
  private firedKey: string | null = null;
  private firedId = -1;

  /** The key's id, -1 when it never had a timer. */
  find(key: string): number {
    if (key === this.lastKey) return this.lastId;
    if (key === this.firedKey) return this.firedId;
    const id = this.ids.get(key) ?? -1;
    if (id >= 0) {
      this.lastKey = key;
      this.lastId = id;
    }
    return id;
  }

  /** The key of id `id`, read at a heap's head (remembered for the find that may follow). */
  firedName(id: number): string {
    const key = this.names[id] as string;
    this.firedKey = key;
    this.firedId = id;
    return key;
  }

  add(key: string): number {
    const id = this.names.length;
    this.ids.set(key, id);
    this.names.push(key);
    this.lastKey = key;
    this.lastId = id;
    return id;
  }
}

/** Up to this many timers a lookup scans the heap's places instead of building the dedup map. */
const SCAN_MAX = 8;

/**
 * A heap as Flink's HeapPriorityQueueSet holds it: the binary heap and the dedup map.
 *
 * Layout: timers live in slots (parallel arrays: time, key id, heap place, next slot of the same
 * key), reused through a free list, so a timer costs no object; the heap holds, per place, the
 * slot and its time side by side, so the sift loops compare times without following the slot.
 * The dedup map is an array from key id to the key's first slot, chained through slotNext; it is
 * built only when a lookup in a heap of more than SCAN_MAX timers needs it: a heap rebuilt to read
 * an old position usually replays logged operations only, which need no lookup, and a heap of a
 * few timers (the temporal join's) is scanned, which is cheaper than keeping the map.
 *
 * A slot's heap place (slotAt) is kept only once a delete has needed one: polls remove the first
 * place, so a heap that is only added to and polled (the interval join's) writes no place per
 * level it sifts a timer through, and the first delete finds every place in one pass.
 */
class Heap {
  /**
   * Per heap place p (1-based; place 0 unused): the timer's time at 2p and its slot at 2p + 1, so
   * that a sift reads a place's time and slot, and its sibling's, from one or two adjacent cache
   * lines rather than from two arrays (3.5% fewer L1 data misses in the interval join's run).
   * Read by copyArrays too.
   */
  places = new Float64Array(32);
  size = 0;
  /** Per slot. */
  slotTime = new Float64Array(16);
  slotKey = new Int32Array(16);
  /** Per slot, its heap place: valid while tracksPlaces. */
  slotAt = new Int32Array(16);
  private tracksPlaces = false;
  private slotNext = new Int32Array(16);
  private free: number[] = [];
  private slots = 0;
  /** Per key id: its first slot (-1: none); null until a lookup needs it. */
  private firstOfKey: Int32Array<ArrayBuffer> | null = null;
  /** The key of the last find and its id, for the add that usually follows it. */
  private probeKey: string | null = null;
  private probeId = -1;

  constructor(readonly keys: KeyTable) {}

  /** The slot of (key, time), or -1. */
  find(key: string, time: number): number {
    const id = this.keys.find(key);
    this.probeKey = key;
    this.probeId = id;
    if (id < 0) return -1;
    return this.firstOfKey === null && this.size <= SCAN_MAX ? this.scan(id, time) : this.chained(id, time);
  }

  /** The slot of (key id, time) by a walk over the heap's places, or -1. */
  private scan(id: number, time: number): number {
    for (let i = 1; i <= this.size; i++) {
      const s = this.places[2 * i + 1] as number;
      if (this.places[2 * i] === time && this.slotKey[s] === id) return s;
    }
    return -1;
  }

  /** The slot of (key id, time) by the key's chain in the dedup map, or -1. */
  private chained(id: number, time: number): number {
    const first = this.chains();
    let s = id < first.length ? (first[id] as number) : -1;
    while (s >= 0 && this.slotTime[s] !== time) s = this.slotNext[s] as number;
    return s;
  }

  headTime(): number | undefined {
    return this.size === 0 ? undefined : this.places[2];
  }

  /** The first timer's time (the heap is not empty). */
  headTimeOf(): number {
    return this.places[2] as number;
  }

  headKey(): string {
    return this.keys.firedName(this.slotKey[this.places[3] as number] as number);
  }

  keyIdOf(slot: number): number {
    return this.slotKey[slot] as number;
  }

  /** Adds a timer not present (the caller checked with find, or knows it: addNewTimer); returns its key's id. */
  add(key: string, time: number): number {
    // A key the last find did not know is looked up again: the table is shared, and another
    // heap may have added it since.
    let id = key === this.probeKey && this.probeId >= 0 ? this.probeId : this.keys.find(key);
    this.probeKey = null;
    if (id < 0) id = this.keys.add(key);
    this.addId(id, time);
    return id;
  }

  /** Adds a timer of key id `id`. */
  addId(id: number, time: number): void {
    const s = this.newSlot(id, time);
    if (this.firstOfKey !== null) this.chain(s, id);
    const at = ++this.size;
    if (2 * at + 1 >= this.places.length) this.places = grownF64(this.places, 2 * at + 1);
    this.siftUp(at, time, s);
  }

  /** Removes the first timer (Flink's poll). */
  poll(): void {
    this.removeAt(this.places[3] as number, 1);
  }

  /** Removes the timer in `slot`. */
  remove(slot: number): void {
    this.removeAt(slot, this.places[3] === slot ? 1 : this.placeOf(slot));
  }

  /** The heap place of `slot`, tracked from the first call on. */
  private placeOf(slot: number): number {
    if (!this.tracksPlaces) {
      this.tracksPlaces = true;
      for (let i = 1; i <= this.size; i++) this.slotAt[this.places[2 * i + 1] as number] = i;
    }
    return this.slotAt[slot] as number;
  }

  /** Removes the timer in `slot`, at heap place `at`. */
  private removeAt(slot: number, at: number): void {
    this.probeKey = null;
    if (this.firstOfKey !== null) this.unchain(slot);
    const last = this.size;
    if (at !== last) {
      const movedTime = this.places[2 * last] as number;
      const moved = this.places[2 * last + 1] as number;
      // As Flink: sift down with the old size (the moved timer's old place still holds it, which
      // changes no comparison), then up if it stayed.
      this.siftDown(at, movedTime, moved, last);
      if (this.places[2 * at + 1] === moved) this.siftUp(at, movedTime, moved);
    }
    this.size--;
    this.free.push(slot);
  }

  private newSlot(id: number, time: number): number {
    let s = this.free.pop();
    if (s === undefined) {
      s = this.slots++;
      if (s >= this.slotTime.length) {
        this.slotTime = grownF64(this.slotTime, s);
        this.slotKey = grownI32(this.slotKey, s);
        this.slotAt = grownI32(this.slotAt, s);
        this.slotNext = grownI32(this.slotNext, s);
      }
    }
    this.slotTime[s] = time;
    this.slotKey[s] = id;
    return s;
  }

  /** The dedup map, built from the heap if it is not yet. */
  private chains(): Int32Array<ArrayBuffer> {
    if (this.firstOfKey !== null) return this.firstOfKey;
    this.firstOfKey = new Int32Array(Math.max(16, this.keys.names.length)).fill(-1);
    for (let i = 1; i <= this.size; i++) {
      const s = this.places[2 * i + 1] as number;
      this.chain(s, this.slotKey[s] as number);
    }
    return this.firstOfKey;
  }

  /** Links slot s into its key's chain, after the first slot (the first stays). */
  private chain(s: number, id: number): void {
    let first = this.firstOfKey as Int32Array<ArrayBuffer>;
    if (id >= first.length) first = this.firstOfKey = grownI32(first, id, -1);
    const head = first[id] as number;
    if (head < 0) {
      this.slotNext[s] = -1;
      first[id] = s;
    } else {
      this.slotNext[s] = this.slotNext[head] as number;
      this.slotNext[head] = s;
    }
  }

  private unchain(slot: number): void {
    const first = this.firstOfKey as Int32Array;
    const id = this.slotKey[slot] as number;
    const next = this.slotNext[slot] as number;
    let p = first[id] as number;
    if (p === slot) {
      first[id] = next;
      return;
    }
    while (this.slotNext[p] !== slot) p = this.slotNext[p] as number;
    this.slotNext[p] = next;
  }

  /** Moves the timer (time, slot) up from place `at` while strictly earlier than its parent. */
  private siftUp(from: number, time: number, slot: number): void {
    const places = this.places;
    let at = from;
    let parent = at >>> 1;
    while (parent > 0 && time < (places[parent << 1] as number)) {
      places[at << 1] = places[parent << 1] as number;
      places[(at << 1) + 1] = places[(parent << 1) + 1] as number;
      at = parent;
      parent >>>= 1;
    }
    places[at << 1] = time;
    places[(at << 1) + 1] = slot;
    if (this.tracksPlaces) this.placed(from, at >>> 1);
  }

  /**
   * Moves the timer (time, slot) down from place `top` within places 1..n: Flink's sift down (to
   * the earlier child, the right one only when strictly earlier, while that child is strictly
   * earlier), found bottom-up. The children it would pass form one path (each place's earlier
   * child, which does not depend on the timer moved) whose times rise, so the timer stops below
   * the last of them that is strictly earlier than it: walking the path to its end and back up to
   * that place compares once per level where the top-down loop compares twice, and a late timer
   * (the usual one: the last place's) stops near the end. The earlier child is taken by adding
   * the comparison (0 or 1) rather than by a branch: which of two siblings is earlier is a coin
   * toss that a branch predictor misses about half the time.
   */
  private siftDown(top: number, time: number, slot: number, n: number): void {
    const places = this.places;
    let at = top;
    let child = at << 1;
    while (child < n) {
      const left = child << 1;
      child += +((places[left + 2] as number) < (places[left] as number));
      at = child;
      child = at << 1;
    }
    if (child === n) at = child;
    while (at > top && !((places[at << 1] as number) < time)) at >>>= 1;
    // Every timer on the path from top's child down to `at` moves up one place; ours takes `at`.
    const bottom = at;
    let t = time;
    let s = slot;
    for (;;) {
      const i = at << 1;
      const upT = places[i] as number;
      const upS = places[i + 1] as number;
      places[i] = t;
      places[i + 1] = s;
      if (at === top) break;
      t = upT;
      s = upS;
      at >>>= 1;
    }
    if (this.tracksPlaces) this.placed(bottom, top >>> 1);
  }

  /** Records the places of the timers on the path from place `from` up to (not including) `above`. */
  private placed(from: number, above: number): void {
    const places = this.places;
    for (let at = from; at > above; at >>>= 1) this.slotAt[places[(at << 1) + 1] as number] = at;
  }

  /** The timers in heap order. */
  copyOut(): HeapCopy {
    const times = new Float64Array(this.size);
    const keys = new Int32Array(this.size);
    for (let i = 1; i <= this.size; i++) {
      times[i - 1] = this.places[2 * i] as number;
      keys[i - 1] = this.slotKey[this.places[2 * i + 1] as number] as number;
    }
    return { times, keys };
  }

  /** A heap holding a copy's timers in the same places (slot i - 1 at place i). */
  static from(c: HeapCopy, keys: KeyTable): Heap {
    const h = new Heap(keys);
    h.load(c);
    return h;
  }

  /** Holds a copy's timers instead of its own (slot i - 1 at place i). */
  load(c: HeapCopy): void {
    const n = c.keys.length;
    this.places = grownF64(this.places, 2 * n + 1);
    this.slotTime = grownF64(this.slotTime, n);
    this.slotKey = grownI32(this.slotKey, n);
    this.slotAt = grownI32(this.slotAt, n);
    this.slotNext = grownI32(this.slotNext, n);
    this.slotTime.set(c.times);
    this.slotKey.set(c.keys);
    for (let i = 0; i < n; i++) {
      this.places[2 * i + 2] = c.times[i] as number;
      this.places[2 * i + 3] = i;
    }
    this.tracksPlaces = false;
    this.free.length = 0;
    this.slots = n;
    this.size = n;
    this.firstOfKey = null;
    this.probeKey = null;
  }

  /**
   * Its whole state, copied array by array into `into`'s arrays when they are large enough
   * (a memory copy: cheaper than copyOut's walk, for the reader's frequent copies).
   */
  saveInto(into: HeapImage | null): HeapImage {
    const n = this.size + 1;
    const m = this.slots;
    const fits = (a: { length: number } | undefined, k: number) => a !== undefined && a.length >= k;
    const img: HeapImage = into ?? { places: new Float64Array(0), slotTime: new Float64Array(0), slotKey: new Int32Array(0), free: [], size: 0, slots: 0 };
    if (!fits(img.places, 2 * n)) img.places = new Float64Array(n * 4);
    if (!fits(img.slotTime, m)) img.slotTime = new Float64Array(m * 2);
    if (!fits(img.slotKey, m)) img.slotKey = new Int32Array(m * 2);
    copyArrays(this, img, n, m);
    img.free = this.free.slice();
    img.size = this.size;
    img.slots = m;
    return img;
  }

  /** Takes the state saveInto copied. */
  restoreFrom(img: HeapImage): void {
    const n = img.size + 1;
    const m = img.slots;
    this.places = grownF64(this.places, 2 * n);
    this.slotTime = grownF64(this.slotTime, m);
    this.slotKey = grownI32(this.slotKey, m);
    this.slotAt = grownI32(this.slotAt, m);
    this.slotNext = grownI32(this.slotNext, m);
    copyArrays(img, this, n, m);
    this.free = img.free.slice();
    this.size = img.size;
    this.slots = m;
    this.tracksPlaces = false;
    this.firstOfKey = null;
    this.probeKey = null;
  }
}

/** A heap's arrays that an image copies (the chains and the slots' places are rebuilt when needed). */
interface HeapArrays {
  places: Float64Array;
  slotTime: Float64Array;
  slotKey: Int32Array;
}

/** The first n places and m slots of `from`'s arrays into `to`'s, which are large enough. */
function copyArrays(from: HeapArrays, to: HeapArrays, n: number, m: number): void {
  to.places.set(from.places.subarray(0, 2 * n));
  to.slotTime.set(from.slotTime.subarray(0, m));
  to.slotKey.set(from.slotKey.subarray(0, m));
}

/** A heap's whole state (Heap.saveInto). */
interface HeapImage extends HeapArrays {
  free: number[];
  size: number;
  slots: number;
}

/** A heap's timers in heap order (Heap.copyOut): times and key ids. */
interface HeapCopy {
  readonly times: Float64Array;
  readonly keys: Int32Array;
}

/** What a logged operation did to the heap. */
const enum Op {
  Add,
  Delete,
  Poll,
}

/** Operations per log chunk. */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
/** A poll's code in a chunk: it needs no key or time (it removes the heap's first timer). */
const POLL_CODE = 0xffff;
/** The fewest operations between two heap copies of a log. */
const SNAP_MIN = 1024;
/**
 * Operations between heap copies per pending timer: a copy of `size` timers every
 * SNAP_PER_TIMER * size operations costs at most a quarter of a timer per operation, and reading
 * an old position from one replays at most that many operations.
 */
const SNAP_PER_TIMER = 4;
/**
 * A heap read at an old position keeps an image of itself every READER_STRIDE operations it is
 * rolled through, the last READER_COPIES of them: stepping back near a position just read (the
 * timeline replays from a snapshot a few steps back) then starts from one of those instead of
 * from the log's sparse copies.
 */
const READER_STRIDE = 256;
const READER_COPIES = 16;

/**
 * A chunk of the log: per operation a code, POLL_CODE or (the index of its key and time among
 * the log's adds and deletes, less `first`) times two, plus one for a delete.
 */
interface LogChunk {
  readonly codes: Uint16Array;
  /** The index of the chunk's first add or delete among the log's. */
  readonly first: number;
}

/**
 * The operations that changed a heap, from position `base` (where a copy of its heap starts it)
 * on, with the heap after the last one (`tip`) and one for reading older positions (`reader`).
 * The adds' and deletes' key ids and times are kept apart, in chunks of CHUNK: a poll needs
 * neither.
 */
class TimerLog {
  private readonly chunks: LogChunk[] = [];
  private readonly times: Float64Array[] = [];
  private readonly keys: Int32Array[] = [];
  /** How many adds and deletes the log holds. */
  private payloads = 0;
  /** Position after the last operation. */
  end: number;
  private readonly base: number;
  /** Heap copies (Heap.copyOut) and their positions, ascending; the first is at `base`. */
  private readonly snapAt: number[];
  private readonly snaps: HeapCopy[];
  /** Where the next heap copy is taken: SNAP_PER_TIMER times the heap's size at the last one on. */
  private nextSnap: number;
  readonly tip: Heap;
  private reader: Heap | null = null;
  private readerAt = -1;
  /** Images of the reader at the positions it passed (READER_STRIDE), oldest first. */
  private readonly readerCopies: { at: number; image: HeapImage }[] = [];

  constructor(base: number, start: Heap) {
    this.base = base;
    this.end = base;
    this.snapAt = [base];
    this.snaps = [start.copyOut()];
    this.nextSnap = base + Math.max(SNAP_MIN, SNAP_PER_TIMER * start.size);
    this.tip = start;
  }

  /** Append an operation already applied to the tip heap (`id`: its key's; none for a poll). */
  append(kind: Op, id: number, time: number): void {
    const j = (this.end - this.base) & (CHUNK - 1);
    if (j === 0) this.chunks.push({ codes: new Uint16Array(CHUNK), first: this.payloads });
    const c = this.chunks[this.chunks.length - 1] as LogChunk;
    if (kind === Op.Poll) c.codes[j] = POLL_CODE;
    else {
      const k = this.payloads++;
      c.codes[j] = (k - c.first) * 2 + (kind === Op.Delete ? 1 : 0);
      const at = k & (CHUNK - 1);
      if (at === 0) {
        this.times.push(new Float64Array(CHUNK));
        this.keys.push(new Int32Array(CHUNK));
      }
      (this.times[this.times.length - 1] as Float64Array)[at] = time;
      (this.keys[this.keys.length - 1] as Int32Array)[at] = id;
    }
    this.end++;
    if (this.end >= this.nextSnap) {
      this.snapAt.push(this.end);
      this.snaps.push(this.tip.copyOut());
      this.nextSnap = this.end + Math.max(SNAP_MIN, SNAP_PER_TIMER * this.tip.size);
    }
  }

  /** The code of the operation at `pos`. */
  private codeAt(pos: number): number {
    const i = pos - this.base;
    return (this.chunks[i >>> CHUNK_BITS] as LogChunk).codes[i & (CHUNK - 1)] as number;
  }

  /** The index of its key and time among the log's adds and deletes, for an operation that has them. */
  private payloadOf(pos: number, code: number): number {
    return (this.chunks[(pos - this.base) >>> CHUNK_BITS] as LogChunk).first + (code >> 1);
  }

  private timeOf(k: number): number {
    return (this.times[k >>> CHUNK_BITS] as Float64Array)[k & (CHUNK - 1)] as number;
  }

  private keyIdOf(k: number): number {
    return (this.keys[k >>> CHUNK_BITS] as Int32Array)[k & (CHUNK - 1)] as number;
  }

  /** Whether the operation at `pos` is this one. */
  holds(pos: number, kind: Op, key: string, time: number): boolean {
    const code = this.codeAt(pos);
    if (code === POLL_CODE) return kind === Op.Poll;
    const k = this.payloadOf(pos, code);
    return kind === ((code & 1) === 1 ? Op.Delete : Op.Add) && this.timeOf(k) === time && this.tip.keys.names[this.keyIdOf(k)] === key;
  }

  /** Apply the operation at `pos` to h. */
  private replay(h: Heap, pos: number): void {
    const code = this.codeAt(pos);
    if (code === POLL_CODE) {
      h.poll();
      return;
    }
    const k = this.payloadOf(pos, code);
    if ((code & 1) === 0) h.addId(this.keyIdOf(k), this.timeOf(k));
    else h.remove(h.find(this.tip.keys.names[this.keyIdOf(k)] as string, this.timeOf(k)));
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
      let image: HeapImage | null = null;
      for (const c of this.readerCopies) {
        if (c.at <= pos && c.at > from) {
          from = c.at;
          image = c.image;
        }
      }
      if (h === null || this.readerAt > pos || this.readerAt < from) {
        h ??= new Heap(this.tip.keys);
        if (image !== null) h.restoreFrom(image);
        else h.load(this.snaps[lo] as HeapCopy);
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

  /** Roll the reader, which is at `pos`, through the operation there. */
  followAt(pos: number): void {
    this.replay(this.heapAt(pos), pos);
    this.readerAdvanced();
  }

  /** The reader moved one operation on: keep a copy of it every READER_STRIDE operations. */
  private readerAdvanced(): void {
    const at = ++this.readerAt;
    if (at % READER_STRIDE !== 0 || this.readerCopies.some((c) => c.at === at)) return;
    // The oldest image's arrays are reused once READER_COPIES are kept.
    const old = this.readerCopies.length === READER_COPIES ? (this.readerCopies.shift() as { image: HeapImage }).image : null;
    this.readerCopies.push({ at, image: (this.reader as Heap).saveInto(old) });
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
 * Up to this many timers a queue value holds them itself, in heap order, instead of a position in
 * a log: a join whose timers fire soon after they are registered (the temporal join's hold one or
 * two at a time while rows come in time order) then copies a few entries per operation where a log would look the key up,
 * log the operation and keep a second heap to read old positions. A queue that grows past it
 * becomes a log's and stays one.
 */
const SMALL_MAX = 8;

/**
 * A queue value: with `times` and `keys`, its `count` timers in heap order (place p at index
 * p - 1; the arrays always hold SMALL_MAX entries, so that no operation resizes them); else the
 * heap after the first `pos` operations of `log`. It serializes as its timers in heap order, what
 * it denotes.
 */
export class TimerQueue {
  constructor(
    readonly log: TimerLog | null,
    readonly pos: number,
    /** The write stamp it was made under (edit.ts): within that edit it changes in place. */
    readonly stamp: number,
    readonly times: number[] | null,
    readonly keys: string[] | null,
    /** How many timers a small queue holds (0 for a log's). */
    public count: number,
  ) {}

  toJSON(): (number | string)[] {
    const times = this.times;
    const keys = this.keys;
    const out: (number | string)[] = [];
    if (times !== null && keys !== null) {
      for (let i = 0; i < this.count; i++) out.push(times[i] as number, keys[i] as string);
      return out;
    }
    const h = heapOf(this);
    const c = h.copyOut();
    for (let i = 0; i < c.keys.length; i++) out.push(c.times[i] as number, h.keys.names[c.keys[i] as number] as string);
    return out;
  }
}

/**
 * The arrays of the empty queue, which every small queue starts from as a copy (never written:
 * its stamp matches no edit). Times are doubles from the start, so that the copies keep one
 * elements kind whatever times they take.
 */
const NO_TIMES: number[] = Array.from({ length: SMALL_MAX }, () => 0.5);
const NO_KEYS: string[] = Array.from({ length: SMALL_MAX }, () => '');

/**
 * Not frozen: a frozen value has a map of its own, which every read of a queue's fields would then
 * have to tell apart. Nothing changes it: an operation changes a queue in place only under the
 * write stamp it was made with, and this one's (-1) is no edit's.
 */
export const EMPTY_TIMERS: TimerQueue = new TimerQueue(null, 0, -1, NO_TIMES, NO_KEYS, 0);

/** The heap of a queue held by a log. */
function heapOf(q: TimerQueue): Heap {
  return (q.log as TimerLog).heapAt(q.pos);
}

/**
 * A small queue the caller may change: q itself when it was made in the current edit (nothing
 * kept can see it), else a copy made under the edit's stamp.
 */
function ownSmall(q: TimerQueue, times: number[], keys: string[]): TimerQueue {
  const stamp = writeStamp();
  return q.stamp === stamp ? q : new TimerQueue(null, 0, stamp, times.slice(), keys.slice(), q.count);
}

/** The index of (key, time) among a small queue's n timers, or -1. */
function smallIndex(times: readonly number[], keys: readonly string[], n: number, key: string, time: number): number {
  for (let i = 0; i < n; i++) if (times[i] === time && keys[i] === key) return i;
  return -1;
}

/**
 * Flink's moves on a small queue's arrays (heap place p at index p - 1): the same rules as Heap's,
 * written out plainly (the arrays hold a few timers).
 */
function smallSiftUp(times: number[], keys: string[], at: number, time: number, key: string): void {
  while (at > 1 && time < (times[(at >>> 1) - 1] as number)) {
    const parent = at >>> 1;
    times[at - 1] = times[parent - 1] as number;
    keys[at - 1] = keys[parent - 1] as string;
    at = parent;
  }
  times[at - 1] = time;
  keys[at - 1] = key;
}

/** Down from place `at` within places 1..n, to the earlier child (the right only when strictly earlier) while strictly earlier. */
function smallSiftDown(times: number[], keys: string[], at: number, n: number, time: number, key: string): void {
  for (;;) {
    let child = at << 1;
    if (child > n) break;
    if (child + 1 <= n && (times[child] as number) < (times[child - 1] as number)) child++;
    if (!((times[child - 1] as number) < time)) break;
    times[at - 1] = times[child - 1] as number;
    keys[at - 1] = keys[child - 1] as string;
    at = child;
  }
  times[at - 1] = time;
  keys[at - 1] = key;
}

/**
 * Removes the timer at place `at` of the n in the arrays (as Heap.removeAt: the last moves there,
 * down with the old size, then up if it stayed); the vacated entry lets go of its key.
 */
function smallRemoveAt(times: number[], keys: string[], n: number, at: number): void {
  if (at !== n) {
    const time = times[n - 1] as number;
    const key = keys[n - 1] as string;
    smallSiftDown(times, keys, at, n, time, key);
    if (keys[at - 1] === key && times[at - 1] === time) smallSiftUp(times, keys, at, time, key);
  }
  keys[n - 1] = '';
}

/** A small queue's timers as a new log's heap (its first position). */
function toLog(times: readonly number[], keys: readonly string[], n: number): TimerQueue {
  const table = new KeyTable();
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string;
    const id = table.find(key);
    ids[i] = id >= 0 ? id : table.add(key);
  }
  const h = Heap.from({ times: Float64Array.from(times.slice(0, n)), keys: ids }, table);
  return new TimerQueue(new TimerLog(0, h), 0, -1, null, null, 0);
}

/**
 * q moved to `pos` of `log`: q itself when it was made in the current edit (nothing kept can see
 * it), else a new value. The edit's stamp marks it, as the versioned map's pairs (pmap.ts): a
 * stamp compare instead of a lookup in the edit's set, and nothing added to it.
 */
function moved(q: TimerQueue, log: TimerLog, pos: number): TimerQueue {
  const stamp = writeStamp();
  if (q.log === log && q.stamp === stamp) {
    (q as { pos: number }).pos = pos;
    return q;
  }
  return new TimerQueue(log, pos, stamp, null, null, 0);
}

/** Whether q's log holds this operation right after q: a replay of the same step. */
function isNext(q: TimerQueue, kind: Op, key: string, time: number): boolean {
  const log = q.log;
  return log !== null && q.pos < log.end && log.holds(q.pos, kind, key, time);
}

/**
 * q (held by a log) after one operation that changes its heap (`slot`: the timer a delete
 * removes, in q's heap; a poll needs no key, time or slot). At the log's end the tip heap changes
 * and the log grows; at an older position the log's next operation is followed when it is this
 * one, and otherwise a new log starts there.
 */
function change(q: TimerQueue, kind: Op, key: string, time: number, slot: number): TimerQueue {
  const log = q.log as TimerLog;
  if (q.pos === log.end) {
    const tip = log.tip;
    let id = -1;
    if (kind === Op.Poll) tip.poll();
    else if (kind === Op.Add) id = tip.add(key, time);
    else {
      id = tip.keyIdOf(slot);
      tip.remove(slot);
    }
    log.append(kind, id, time);
    return moved(q, log, q.pos + 1);
  }
  if (isNext(q, kind, key, time)) {
    log.followAt(q.pos);
    return moved(q, log, q.pos + 1);
  }
  // The heap read at q.pos (where `slot` is) becomes the new log's.
  const fork = new TimerLog(q.pos, log.takeReader(q.pos));
  return change(new TimerQueue(fork, q.pos, -1, null, null, 0), kind, key, time, slot);
}

/**
 * change() for an add, with the usual case (q at the log's end) written out: the add of a run and
 * the poll below each then compile to their own short path instead of one that dispatches on the
 * operation (docs/decisions.md, "The interval join: the layout against its timer order").
 */
function logAdd(q: TimerQueue, key: string, time: number): TimerQueue {
  const log = q.log as TimerLog;
  if (q.pos !== log.end) return change(q, Op.Add, key, time, -1);
  log.append(Op.Add, log.tip.add(key, time), time);
  return moved(q, log, q.pos + 1);
}

/** change() for a poll, as logAdd. */
function logPoll(q: TimerQueue): TimerQueue {
  const log = q.log as TimerLog;
  if (q.pos !== log.end) return change(q, Op.Poll, '', 0, -1);
  log.tip.poll();
  log.append(Op.Poll, -1, 0);
  return moved(q, log, q.pos + 1);
}

/** Register a timer; a second registration of the same (key, time) changes nothing. */
export function addTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  const times = q.times;
  const keys = q.keys;
  if (times !== null && keys !== null) {
    if (smallIndex(times, keys, q.count, key, time) >= 0) return q;
  } else if (!isNext(q, Op.Add, key, time) && heapOf(q).find(key, time) >= 0) {
    // (A logged add was no duplicate of the same heap: it needs no lookup.)
    return q;
  }
  return addNewTimer(q, key, time);
}

/**
 * Register a timer the caller knows is not queued (no timer of `key` at `time`): addTimer
 * without its lookup. A join that keeps its own record of a key's timers (the interval join's
 * cleanup times) knows, and a queue that is never searched builds no dedup map.
 */
export function addNewTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  const times = q.times;
  const keys = q.keys;
  if (times !== null && keys !== null) {
    const n = q.count;
    if (n === SMALL_MAX) return addNewTimer(toLog(times, keys, n), key, time);
    const w = ownSmall(q, times, keys);
    smallSiftUp(w.times as number[], w.keys as string[], n + 1, time, key);
    w.count = n + 1;
    return w;
  }
  return logAdd(q, key, time);
}

export function deleteTimer(q: TimerQueue, key: string, time: number): TimerQueue {
  const times = q.times;
  const keys = q.keys;
  if (times !== null && keys !== null) {
    const n = q.count;
    const i = smallIndex(times, keys, n, key, time);
    if (i < 0) return q;
    const w = ownSmall(q, times, keys);
    smallRemoveAt(w.times as number[], w.keys as string[], n, i + 1);
    w.count = n - 1;
    return w;
  }
  const slot = heapOf(q).find(key, time);
  return slot < 0 ? q : change(q, Op.Delete, key, time, slot);
}

export function hasTimer(q: TimerQueue, key: string, time: number): boolean {
  const times = q.times;
  const keys = q.keys;
  if (times !== null && keys !== null) return smallIndex(times, keys, q.count, key, time) >= 0;
  return heapOf(q).find(key, time) >= 0;
}

export interface Timer {
  readonly time: number;
  readonly key: string;
}

/** Where pollDue puts the timer it took: its key (undefined: none was due) and its time. */
export interface FiredTimer {
  key: string | undefined;
  time: number;
}

/**
 * The queue without its earliest timer when that one is due (time <= upTo), the timer going to
 * `fired` (Flink's poll of a due timer); else q, with `fired.key` undefined. A join's watermark
 * asks this once per timer and once more to find none due, so it reads the heap once for both
 * the check and the poll.
 */
export function pollDue(q: TimerQueue, upTo: number, fired: FiredTimer): TimerQueue {
  const times = q.times;
  const keys = q.keys;
  if (times !== null && keys !== null) {
    const n = q.count;
    const time = times[0] as number;
    if (n === 0 || time > upTo) {
      fired.key = undefined;
      return q;
    }
    fired.key = keys[0] as string;
    fired.time = time;
    const w = ownSmall(q, times, keys);
    smallRemoveAt(w.times as number[], w.keys as string[], n, 1);
    w.count = n - 1;
    return w;
  }
  const h = heapOf(q);
  const time = h.size === 0 ? Infinity : h.headTimeOf();
  if (time > upTo) {
    fired.key = undefined;
    return q;
  }
  fired.key = h.headKey();
  fired.time = time;
  return logPoll(q);
}

/** The time of the earliest timer, undefined when none. */
export function nextTimerTime(q: TimerQueue): number | undefined {
  const times = q.times;
  if (times === null) return heapOf(q).headTime();
  return q.count > 0 ? times[0] : undefined;
}

/** The earliest timer with time <= upTo, and the queue without it. */
export function popDue(q: TimerQueue, upTo: number): { readonly timer: Timer; readonly rest: TimerQueue } | undefined {
  const fired: FiredTimer = { key: undefined, time: 0 };
  const rest = pollDue(q, upTo, fired);
  return fired.key === undefined ? undefined : { timer: { time: fired.time, key: fired.key }, rest };
}

/** Every pending timer in the order they would fire (polled from a copy of the heap). */
export function timerList(q: TimerQueue): readonly Timer[] {
  const out: Timer[] = [];
  if (q.times !== null && q.keys !== null) {
    const times = q.times.slice();
    const keys = q.keys.slice();
    for (let n = q.count; n > 0; n--) {
      out.push({ time: times[0] as number, key: keys[0] as string });
      smallRemoveAt(times, keys, n, 1);
    }
    return out;
  }
  const from = heapOf(q);
  const h = Heap.from(from.copyOut(), from.keys);
  while (h.size > 0) {
    out.push({ time: h.headTime() as number, key: h.headKey() });
    h.poll();
  }
  return out;
}

/** Whether two queues hold the same timers in the same heap places (their logs may differ). */
export function timerQueuesEqual(a: TimerQueue, b: TimerQueue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function timerCount(q: TimerQueue): number {
  return q.times !== null ? q.count : heapOf(q).size;
}
