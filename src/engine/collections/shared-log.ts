/**
 * SharedLog: a persistent list of items, each with an int32 hash, for append-mostly data (a join
 * key's entries). Versions share two growable arrays, items and their hashes, and a version reads
 * only their first `n` slots, so:
 *   - appending to the newest version of a log (n === the arrays' length: the tip) pushes in place
 *     and returns a new version with n + 1: older versions still read their first n slots, which
 *     did not change. No copy, in or out of a transient edit (edit.ts).
 *   - appending to any other version (an older one: a replay from a checkpoint, a what-if edit)
 *     first copies its n slots into new arrays, so branches never see each other's appends;
 *     unless the slot after its end already holds an equal item (a replay appending what the
 *     first run appended), which is then shared.
 *   - changing a slot changes it in place only when the arrays were created in the current edit
 *     (no kept version can see them); otherwise it copies the arrays.
 *   - removing a slot always copies (a reader may be iterating the old items: liveEntries drops
 *     expired entries while it walks them).
 * The hashes are a contiguous array of small integers, so a lookup scans numbers rather than
 * dereferencing every item.
 *
 * The arrays are private fields and the class is iterable over [0, n): a version compares
 * (vitest's toEqual iterates it) and serialises (toJSON) as its items, whatever a newer version
 * appended past its end. A version is never changed after it is returned, except by the in-place
 * slot change above, which only reaches versions created in the current edit.
 */
import { created, isEditable } from './edit.js';

export class SharedLog<T> implements Iterable<T> {
  readonly #items: T[];
  readonly #hashes: number[];
  readonly #n: number;

  private constructor(items: T[], hashes: number[], n: number) {
    this.#items = items;
    this.#hashes = hashes;
    this.#n = n;
  }

  /** A log of the given items and hashes (equal lengths), in new arrays. */
  static of<T>(items: readonly T[], hashes: readonly number[]): SharedLog<T> {
    if (items.length !== hashes.length) throw new RangeError('SharedLog.of: items and hashes differ in length');
    return new SharedLog(created(items.slice()), hashes.slice(), items.length);
  }

  /** A log of one item (the first entry of a new join key). */
  static single<T>(x: T, h: number): SharedLog<T> {
    return new SharedLog(created([x]), [h | 0], 1);
  }

  get size(): number {
    return this.#n;
  }

  at(i: number): T {
    if (i < 0 || i >= this.#n || !Number.isInteger(i)) throw new RangeError(`SharedLog.at: index ${i} out of range 0..${this.#n - 1}`);
    return this.#items[i] as T;
  }

  hashAt(i: number): number {
    if (i < 0 || i >= this.#n || !Number.isInteger(i)) throw new RangeError(`SharedLog.hashAt: index ${i} out of range 0..${this.#n - 1}`);
    return this.#hashes[i] as number;
  }

  /** The first index >= from whose hash is h (as int32), or -1. */
  findHash(h: number, from = 0): number {
    const hs = this.#hashes;
    const key = h | 0;
    for (let i = from; i < this.#n; i++) if (hs[i] === key) return i;
    return -1;
  }

  /**
   * The items [0, n). When this version is the tip, the shared array itself (no copy): it is
   * valid until the next write to the log (an append grows it), so use it at once, never keep it.
   */
  items(): readonly T[] {
    return this.#n === this.#items.length ? this.#items : this.#items.slice(0, this.#n);
  }

  /**
   * This version with x (hash h) appended. `same`: when the slot after this version's end already
   * holds an item that `same` calls equal to x (a replay from a checkpoint appends what the first
   * run appended), that slot is shared instead of copying the arrays.
   */
  push(x: T, h: number, same?: (a: T, b: T) => boolean): SharedLog<T> {
    const n = this.#n;
    if (n === this.#items.length) {
      this.#items.push(x);
      this.#hashes.push(h | 0);
      return new SharedLog(this.#items, this.#hashes, n + 1);
    }
    if (same !== undefined && this.#hashes[n] === (h | 0) && same(this.#items[n] as T, x)) {
      return new SharedLog(this.#items, this.#hashes, n + 1);
    }
    const items = created(this.#items.slice(0, n));
    const hashes = this.#hashes.slice(0, n);
    items.push(x);
    hashes.push(h | 0);
    return new SharedLog(items, hashes, n + 1);
  }

  /** This version with slot i holding x, whose hash must be slot i's (same identity). */
  set(i: number, x: T): SharedLog<T> {
    this.at(i);
    if (isEditable(this.#items)) {
      this.#items[i] = x;
      return this;
    }
    const items = created(this.#items.slice(0, this.#n));
    items[i] = x;
    return new SharedLog(items, this.#hashes.slice(0, this.#n), this.#n);
  }

  /** This version without slot i (later slots move down one), in new arrays. */
  removeAt(i: number): SharedLog<T> {
    this.at(i);
    const items = created(this.#items.slice(0, this.#n));
    const hashes = this.#hashes.slice(0, this.#n);
    items.splice(i, 1);
    hashes.splice(i, 1);
    return new SharedLog(items, hashes, this.#n - 1);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.#n; i++) yield this.#items[i] as T;
  }

  toJSON(): T[] {
    return this.#items.slice(0, this.#n);
  }
}
