/**
 * A join side's store: join key -> the key's bucket (record-bucket.ts), as a persistent map.
 *
 * Join keys are interned as small ints by a KeyInterner that both sides of a run share (it only ever
 * gains keys): a step turns its key into an int once, and the versioned map and the registry
 * below are indexed by it, so that no string is hashed or compared again (each string-keyed
 * lookup was a chain of cache misses, ~15% of a long regular join).
 *
 * Most buckets are a version (log, n) of a ColumnLog. The first log a key gets in the run's
 * first lineage (below) is its main log, kept in a registry (an array by key id) shared by every
 * version of the store (it only ever gains keys).
 *
 * Lineages. Every version has a write stamp (edit.ts). The run's first lineage is the chain of
 * versions each written from the newest one before it (`RootTip` holds the newest one's stamp);
 * it alone pushes onto main logs, so a main log's slots are in stamp order, and its map holds
 * MAIN for such a key: "the main log up to my bound", where a first-lineage version's bound is its
 * own stamp. A write from any older version starts a branch whose bound stays the stamp it left
 * the first lineage at; a branch never pushes onto a main log (it copies, or shares a slot that
 * holds the same record) and holds n itself (a number) or another log's version. So in the long
 * first run the map is written once per key, not once per key per checkpoint: the history pair
 * per key per checkpoint and its copies by the young-generation GC were half of what a 1M-event
 * regular join kept alive across collections. A bucket in any other log (a branch that copied, a removal, a key that
 * came back after its bucket emptied) is a LogVersion object; one of more than BIG entries is a
 * map by entry id.
 *
 * The registry is an internal index, not content: a version compares (vitest's toEqual iterates
 * it) and serialises (toJSON) as its keys in order, each with its entries in arrival order.
 */
import type { Row } from '../../values/types.js';
import { created, isEditable, writeStamp } from '../collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmForEach, pmGet, pmSet, pmSize, type PMap } from '../collections/pmap.js';
import type { ColumnLog } from '../collections/shared-log-columns.js';
import { logEntries, mapEntries, type Cursor } from './record-bucket.js';
import { KeyInterner } from './key-interner.js';
import type { JoinEntry } from './record-state.js';

/** A bucket in a log other than its key's main log. */
class LogVersion {
  constructor(
    readonly log: ColumnLog<Row>,
    readonly n: number,
  ) {}
}

/**
 * A key's bucket as the map holds it: MAIN (the main log up to the reader's bound), n entries of
 * the key's main log, another log's version, or a map.
 */
type Slot = number | LogVersion | PMap<JoinEntry>;

const MAIN = -1;

/**
 * The newest version of a run's first lineage (shared by all versions of a store): its stamp, and
 * per key id whether its map holds MAIN, so that the root tip, which does most reads and writes of
 * a long run, reads a key as its main log without the map (a lookup in it and in the key's
 * history: two cache misses a row), and a write that leaves MAIN in place skips the map.
 */
interface RootTip {
  stamp: number;
  /** mainHeld[id] === 1: the root tip's map holds MAIN for key id. */
  mainHeld: number[];
}

function setHeld(held: number[], id: number, on: boolean): void {
  while (held.length <= id) held.push(0);
  held[id] = on ? 1 : 0;
}

function slotEntries(main: ColumnLog<Row> | undefined, slot: Slot, bound: number): JoinEntry[] {
  if (typeof slot === 'number') {
    const log = main as ColumnLog<Row>;
    return logEntries(log, slot === MAIN ? log.nAt(bound) : slot);
  }
  return slot instanceof LogVersion ? logEntries(slot.log, slot.n) : mapEntries(slot);
}

export class SideStore implements Iterable<[string, JoinEntry[]]> {
  #map: PMap<Slot, number>;
  readonly #index: KeyInterner;
  /** The registry: each key id's main log. */
  readonly #main: (ColumnLog<Row> | undefined)[];
  readonly #root: RootTip;
  /** This version's write stamp. */
  #stamp: number;
  /** -1 on the first lineage; on a branch, the stamp of the first-lineage version it left. */
  #bound: number;
  /**
   * Per key id whose bucket is a map (more than BIG entries, record-bucket.ts), the most entries it
   * has held since it was last empty: the key's Flink HashMap grew to that and keeps its capacity
   * (flink-map-order.ts). A log bucket's peak is its log's (ColumnLog.peakAt), with no lookup.
   */
  #peaks: PMap<number, number>;

  private constructor(map: PMap<Slot, number>, index: KeyInterner, main: (ColumnLog<Row> | undefined)[], root: RootTip, stamp: number, bound: number, peaks: PMap<number, number>) {
    this.#peaks = peaks;
    this.#map = map;
    this.#index = index;
    this.#main = main;
    this.#root = root;
    this.#stamp = stamp;
    this.#bound = bound;
  }

  /** An empty store with its own registry (one per run: init), interning keys in `index`. */
  static empty(index: KeyInterner = new KeyInterner()): SideStore {
    return new SideStore(PMAP_EMPTY, index, [], { stamp: 0, mainHeld: [] }, 0, -1, PMAP_EMPTY);
  }

  /** The newest version of the first lineage: the only one that may push onto main logs. */
  private isRootTip(): boolean {
    return this.#bound === -1 && this.#stamp === this.#root.stamp;
  }

  /** Main-log slots with a stamp up to this are this version's (see the file comment). */
  private mainBound(): number {
    return this.#bound === -1 ? this.#stamp : this.#bound;
  }

  /** The run's join keys (shared by both sides). */
  get keys(): KeyInterner {
    return this.#index;
  }

  /** Number of join keys. */
  get size(): number {
    return pmSize(this.#map);
  }

  /** Read `key`'s bucket into `c`. */
  read(key: string, c: Cursor): void {
    c.clear(key);
    const id = this.#index.idOf(key);
    c.id = id;
    c.keys = this.#index;
    const tip = this.isRootTip();
    if (tip && this.#root.mainHeld[id] === 1) {
      // All of the main log: only the root tip pushes onto it, under stamps up to its own.
      const log = this.#main[id] as ColumnLog<Row>;
      c.rootTip = true;
      c.log = log;
      c.main = log;
      c.n = log.length;
      return;
    }
    const slot = pmGet(this.#map, id);
    if (slot === undefined) return;
    c.rootTip = tip;
    if (typeof slot === 'number') {
      const log = this.#main[id] as ColumnLog<Row>;
      c.log = log;
      c.main = log;
      c.n = slot === MAIN ? log.nAt(this.mainBound()) : slot;
    } else if (slot instanceof LogVersion) {
      c.log = slot.log;
      c.n = slot.n;
    } else {
      c.big = slot;
      c.peak = pmGet(this.#peaks, id) ?? 0;
    }
  }

  /** This store with `key`'s bucket as `c` holds it (none: the key is dropped). */
  write(key: string, c: Cursor): SideStore {
    const id = c.key === key && c.keys === this.#index ? c.id : this.#index.idOf(key);
    const tip = this.isRootTip();
    const slot = this.slotOf(id, c, tip);
    const held = this.#root.mainHeld;
    const map = tip && slot === MAIN && held[id] === 1 ? this.#map : slot === undefined ? pmDelete(this.#map, id) : pmSet(this.#map, id, slot);
    if (tip) setHeld(held, id, slot === MAIN);
    // A new version even when the map did not change: its stamp bounds what it reads of main logs.
    const stamp = writeStamp();
    const bound = tip ? -1 : this.#bound === -1 ? this.#stamp : this.#bound;
    if (tip) this.#root.stamp = stamp;
    const peaks = this.peaksAfter(id, c);
    if (isEditable(this)) {
      // Created earlier in this transient edit (edit.ts): nothing else can see it.
      this.#peaks = peaks;
      this.#map = map;
      this.#stamp = stamp;
      this.#bound = bound;
      return this;
    }
    return created(new SideStore(map, this.#index, this.#main, this.#root, stamp, bound, peaks));
  }

  /**
   * The peaks map once `c` is stored: a big bucket's peak is kept here (its map holds no log to
   * carry it); a log bucket's is its log's (ColumnLog.peakAt); an emptied key forgets its peak.
   */
  private peaksAfter(id: number, c: Cursor): PMap<number, number> {
    const peaks = this.#peaks;
    if (c.big === undefined) {
      c.peak = 0;
      return c.log === undefined && pmGet(peaks, id) !== undefined ? pmDelete(peaks, id) : peaks;
    }
    const stored = pmGet(peaks, id) ?? 0;
    const peak = Math.max(stored, c.peak, pmSize(c.big));
    c.peak = peak;
    return peak !== stored ? pmSet(peaks, id, peak) : peaks;
  }

  private slotOf(id: number, c: Cursor, tip: boolean): Slot | undefined {
    if (c.big !== undefined) return c.big;
    if (c.log === undefined) return undefined;
    const main = this.#main[id];
    if (c.log === main) return tip && c.n === main.length ? MAIN : c.n;
    if (main !== undefined || !tip) return new LogVersion(c.log, c.n);
    // The first lineage's first log for this key becomes its main log.
    while (this.#main.length < id) this.#main.push(undefined);
    this.#main[id] = c.log;
    c.main = c.log;
    return c.n === c.log.length ? MAIN : c.n;
  }

  /** Every bucket's entries (keys in no particular order, entries in arrival order). */
  forEachBucket(f: (entries: JoinEntry[], key: string) => void): void {
    const bound = this.mainBound();
    pmForEach(this.#map, (slot, id) => f(slotEntries(this.#main[id], slot, bound), this.#index.keyOf(id)));
  }

  /**
   * Every bucket as stored: a log bucket as its version (log, n), whose columns a reader can read
   * without an entry object each; a big one as its entries in arrival order.
   */
  forEachBucketStored(inLog: (log: ColumnLog<Row>, n: number) => void, inMap: (entries: JoinEntry[]) => void): void {
    const bound = this.mainBound();
    pmForEach(this.#map, (slot, id) => {
      if (typeof slot === 'number') {
        const log = this.#main[id] as ColumnLog<Row>;
        inLog(log, slot === MAIN ? log.nAt(bound) : slot);
      } else if (slot instanceof LogVersion) inLog(slot.log, slot.n);
      else inMap(mapEntries(slot));
    });
  }

  *[Symbol.iterator](): Iterator<[string, JoinEntry[]]> {
    yield* this.toJSON();
  }

  toJSON(): [string, JoinEntry[]][] {
    const out: [string, JoinEntry[]][] = [];
    this.forEachBucket((entries, key) => out.push([key, entries]));
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
}
