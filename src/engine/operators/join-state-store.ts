/**
 * A join side's store: join key -> the key's bucket (join-state-bucket.ts), as a persistent map.
 *
 * Most buckets are a version (log, n) of a ColumnLog. The first log a key gets is its main log,
 * kept in a registry shared by every version of the store (it only ever gains keys), and the map
 * holds just the number n for it: a checkpoint then keeps one (stamp, n) pair per key it touched,
 * with no header object. A bucket in any other log (a branch that copied, a removal, a key that
 * came back after its bucket emptied) is a LogVersion object; one of more than BIG entries is a
 * map by entry id.
 *
 * The registry is an internal index, not content: a version compares (vitest's toEqual iterates
 * it) and serialises (toJSON) as its keys in order, each with its entries in arrival order.
 */
import type { Row } from '../../values/types.js';
import { created, isEditable } from '../collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmEntries, pmForEach, pmGet, pmSet, pmSize, type PMap } from '../collections/pmap.js';
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

function slotEntries(main: ColumnLog<Row> | undefined, slot: Slot): JoinEntry[] {
  if (typeof slot === 'number') return logEntries(main as ColumnLog<Row>, slot);
  return slot instanceof LogVersion ? logEntries(slot.log, slot.n) : mapEntries(slot);
}

export class SideStore implements Iterable<[string, JoinEntry[]]> {
  #map: PMap<Slot>;
  readonly #main: Map<string, ColumnLog<Row>>;

  private constructor(map: PMap<Slot>, main: Map<string, ColumnLog<Row>>) {
    this.#map = map;
    this.#main = main;
  }

  /** An empty store with its own registry (one per run: init). */
  static empty(): SideStore {
    return new SideStore(PMAP_EMPTY, new Map());
  }

  /** Number of join keys. */
  get size(): number {
    return pmSize(this.#map);
  }

  /** Read `key`'s bucket into `c`. */
  read(key: string, c: Cursor): void {
    c.clear(key);
    const slot = pmGet(this.#map, key);
    if (slot === undefined) return;
    if (typeof slot === 'number') {
      c.log = this.#main.get(key);
      c.main = c.log;
      c.n = slot;
    } else if (slot instanceof LogVersion) {
      c.log = slot.log;
      c.n = slot.n;
    } else c.big = slot;
  }

  /** This store with `key`'s bucket as `c` holds it (none: the key is dropped). */
  write(key: string, c: Cursor): SideStore {
    const slot = this.slotOf(key, c);
    const map = slot === undefined ? pmDelete(this.#map, key) : pmSet(this.#map, key, slot);
    if (map === this.#map) return this;
    if (isEditable(this)) {
      // Created earlier in this transient edit (edit.ts): nothing else can see it.
      this.#map = map;
      return this;
    }
    return created(new SideStore(map, this.#main));
  }

  private slotOf(key: string, c: Cursor): Slot | undefined {
    if (c.big !== undefined) return c.big;
    if (c.log === undefined) return undefined;
    if (c.log === c.main) return c.n;
    const main = this.#main.get(key);
    if (main === c.log) return c.n;
    if (main !== undefined) return new LogVersion(c.log, c.n);
    // No version anywhere reads a main log of this key yet: this log becomes it.
    this.#main.set(key, c.log);
    c.main = c.log;
    return c.n;
  }

  /** Every bucket's entries (keys in no particular order, entries in arrival order). */
  forEachBucket(f: (entries: JoinEntry[], key: string) => void): void {
    pmForEach(this.#map, (slot, key) => f(slotEntries(this.#main.get(key), slot), key));
  }

  *[Symbol.iterator](): Iterator<[string, JoinEntry[]]> {
    yield* this.toJSON();
  }

  toJSON(): [string, JoinEntry[]][] {
    const keys = pmEntries(this.#map).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return keys.map(([key, slot]) => [key, slotEntries(this.#main.get(key), slot)]);
  }
}
