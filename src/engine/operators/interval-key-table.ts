/**
 * A hash table from strings to values whose lookups read no string but the one looked up: the
 * stored strings' characters are copied into one pool, beside their hashes, and compared there.
 *
 * Why: the interval join finds each row's key instance by the row's key value (a fresh string
 * per row, interval-key-intern.ts). A Map compares it with the string it stored, which was
 * allocated when the key was first seen, anywhere in a heap of hundreds of MB: a cache miss per
 * compared string, on every group of rows. Here a lookup touches the slot arrays and the pool
 * (small and contiguous: a few bytes per key) and the hit's value only.
 *
 * Open addressing with linear probing; `tag` 0 marks a free slot (hashes are stored with their
 * low bit set). Grows by doubling at half full; `clear` starts over.
 */
import { hashString } from '../collections/hash.js';

export class StringTable<V> {
  #tags = new Int32Array(64);
  #starts = new Int32Array(64);
  #lens = new Int32Array(64);
  #values: (V | undefined)[] = new Array<V | undefined>(64).fill(undefined);
  #pool = new Uint16Array(1024);
  #poolUsed = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(s: string): V | undefined {
    const tag = hashString(s) | 1;
    const mask = this.#tags.length - 1;
    for (let i = tag & mask; ; i = (i + 1) & mask) {
      const t = this.#tags[i] as number;
      if (t === 0) return undefined;
      if (t === tag && this.#equals(i, s)) return this.#values[i];
    }
  }

  /** Add `s` (not in the table: the caller looked it up). */
  add(s: string, value: V): void {
    if ((this.#size + 1) * 2 > this.#tags.length) this.#grow();
    const start = this.#keep(s);
    this.#insert(hashString(s) | 1, start, s.length, value);
    this.#size++;
  }

  clear(): void {
    this.#tags.fill(0);
    this.#values.fill(undefined);
    this.#poolUsed = 0;
    this.#size = 0;
  }

  #equals(i: number, s: string): boolean {
    if (this.#lens[i] !== s.length) return false;
    const pool = this.#pool;
    const start = this.#starts[i] as number;
    for (let k = 0; k < s.length; k++) if (pool[start + k] !== s.charCodeAt(k)) return false;
    return true;
  }

  /** Copy s's characters into the pool; returns where they start. */
  #keep(s: string): number {
    if (this.#poolUsed + s.length > this.#pool.length) {
      const pool = new Uint16Array(Math.max(this.#pool.length * 2, this.#poolUsed + s.length));
      pool.set(this.#pool.subarray(0, this.#poolUsed));
      this.#pool = pool;
    }
    const start = this.#poolUsed;
    for (let k = 0; k < s.length; k++) this.#pool[start + k] = s.charCodeAt(k);
    this.#poolUsed += s.length;
    return start;
  }

  #insert(tag: number, start: number, len: number, value: V | undefined): void {
    const mask = this.#tags.length - 1;
    let i = tag & mask;
    while (this.#tags[i] !== 0) i = (i + 1) & mask;
    this.#tags[i] = tag;
    this.#starts[i] = start;
    this.#lens[i] = len;
    this.#values[i] = value;
  }

  #grow(): void {
    const tags = this.#tags;
    const starts = this.#starts;
    const lens = this.#lens;
    const values = this.#values;
    const n = tags.length * 2;
    this.#tags = new Int32Array(n);
    this.#starts = new Int32Array(n);
    this.#lens = new Int32Array(n);
    this.#values = new Array<V | undefined>(n).fill(undefined);
    for (let i = 0; i < tags.length; i++) {
      if (tags[i] !== 0) this.#insert(tags[i] as number, starts[i] as number, lens[i] as number, values[i]);
    }
  }
}
