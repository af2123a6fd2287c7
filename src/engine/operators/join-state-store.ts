/**
 * A join side's store: join key -> the key's bucket (join-state-bucket.ts), as a persistent map.
 *
 * Join keys are interned as small ints by a KeyIndex that both sides of a run share (it only ever
 * gains keys): a step turns its key into an int once, and the versioned map and the registry
 * below are indexed by it, so that no string is hashed or compared again (each string-keyed
 * lookup was a chain of cache misses, ~15% of a long regular join).
 *
 * Most buckets are a version (log, n) of a ColumnLog. The first log a key gets is its main log,
 * kept in a registry (an array by key id) shared by every version of the store (it only ever
 * gains keys), and the map holds just the number n for it: a checkpoint then keeps one
 * (stamp, n) pair per key it touched, with no header object. A bucket in any other log (a branch that copied, a removal, a key that
 * came back after its bucket emptied) is a LogVersion object; one of more than BIG entries is a
 * map by entry id.
 *
 * The registry is an internal index, not content: a version compares (vitest's toEqual iterates
 * it) and serialises (toJSON) as its keys in order, each with its entries in arrival order.
 */
import type { Row } from '../../values/types.js';
import { created, isEditable } from '../collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmForEach, pmGet, pmSet, pmSize, type PMap } from '../collections/pmap.js';
import type { ColumnLog } from '../collections/shared-log-columns.js';
import { logEntries, mapEntries, type Cursor } from './join-state-bucket.js';
import type { JoinEntry } from './join-state.js';

/** A bucket in a log other than its key's main log. */
class LogVersion {
  constructor(
    readonly log: ColumnLog<Row>,
    readonly n: number,
  ) {}
}

/** A key's bucket as the map holds it: n entries of the key's main log, another log's version, or a map. */
type Slot = number | LogVersion | PMap<JoinEntry>;

/** The join keys of a run as small ints, in order of first sight (shared by both sides' stores). */
export class KeyIndex {
  readonly #ids = new Map<string, number>();
  readonly #keys: string[] = [];
  /** The last key interned: a step asks for the same key string for both sides. */
  #lastKey: string | undefined = undefined;
  #lastId = -1;

  idOf(key: string): number {
    if (key === this.#lastKey) return this.#lastId;
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#keys.length;
      this.#keys.push(key);
      this.#ids.set(key, id);
    }
    this.#lastKey = key;
    this.#lastId = id;
    return id;
  }

  keyOf(id: number): string {
    return this.#keys[id] as string;
  }
}

function slotEntries(main: ColumnLog<Row> | undefined, slot: Slot): JoinEntry[] {
  if (typeof slot === 'number') return logEntries(main as ColumnLog<Row>, slot);
  return slot instanceof LogVersion ? logEntries(slot.log, slot.n) : mapEntries(slot);
}

export class SideStore implements Iterable<[string, JoinEntry[]]> {
  #map: PMap<Slot, number>;
  readonly #index: KeyIndex;
  /** The registry: each key id's main log. */
  readonly #main: (ColumnLog<Row> | undefined)[];

  private constructor(map: PMap<Slot, number>, index: KeyIndex, main: (ColumnLog<Row> | undefined)[]) {
    this.#map = map;
    this.#index = index;
    this.#main = main;
  }

  /** An empty store with its own registry (one per run: init), interning keys in `index`. */
  static empty(index: KeyIndex = new KeyIndex()): SideStore {
    return new SideStore(PMAP_EMPTY, index, []);
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
    const slot = pmGet(this.#map, id);
    if (slot === undefined) return;
    if (typeof slot === 'number') {
      c.log = this.#main[id];
      c.main = c.log;
      c.n = slot;
    } else if (slot instanceof LogVersion) {
      c.log = slot.log;
      c.n = slot.n;
    } else c.big = slot;
  }

  /** This store with `key`'s bucket as `c` holds it (none: the key is dropped). */
  write(key: string, c: Cursor): SideStore {
    const id = c.key === key && c.keys === this.#index ? c.id : this.#index.idOf(key);
    const slot = this.slotOf(id, c);
    const map = slot === undefined ? pmDelete(this.#map, id) : pmSet(this.#map, id, slot);
    if (map === this.#map) return this;
    if (isEditable(this)) {
      // Created earlier in this transient edit (edit.ts): nothing else can see it.
      this.#map = map;
      return this;
    }
    return created(new SideStore(map, this.#index, this.#main));
  }

  private slotOf(id: number, c: Cursor): Slot | undefined {
    if (c.big !== undefined) return c.big;
    if (c.log === undefined) return undefined;
    if (c.log === c.main) return c.n;
    const main = this.#main[id];
    if (main === c.log) return c.n;
    if (main !== undefined) return new LogVersion(c.log, c.n);
    // No version anywhere reads a main log of this key yet: this log becomes it.
    while (this.#main.length < id) this.#main.push(undefined);
    this.#main[id] = c.log;
    c.main = c.log;
    return c.n;
  }

  /** Every bucket's entries (keys in no particular order, entries in arrival order). */
  forEachBucket(f: (entries: JoinEntry[], key: string) => void): void {
    pmForEach(this.#map, (slot, id) => f(slotEntries(this.#main[id], slot), this.#index.keyOf(id)));
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
