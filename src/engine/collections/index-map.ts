/**
 * A Map-shaped container (get, set, size, iteration) whose small non-negative integer keys are
 * array slots: the root layer of a versioned map keyed by interned ids (pmap.ts) finds a key's
 * history with one indexed load instead of a hash-table probe. Other keys go to a plain Map.
 */
import type { PKey } from './pmap.js';

/** Keys up to this bound are slots (ids are handed out densely from 0, so the array stays dense). */
const SLOT_LIMIT = 1 << 26;

function isSlot(k: PKey): k is number {
  return typeof k === 'number' && (k >>> 0) === k && k < SLOT_LIMIT;
}

export class IndexMap<V> {
  readonly #slots: (V | undefined)[] = [];
  #other: Map<PKey, V> | null = null;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(k: PKey): V | undefined {
    if (isSlot(k)) return this.#slots[k];
    return this.#other === null ? undefined : this.#other.get(k);
  }

  set(k: PKey, v: V): this {
    if (isSlot(k)) {
      const s = this.#slots;
      // Filled up to k with explicit undefined: a hole would make every read slower.
      while (s.length <= k) s.push(undefined);
      if (s[k] === undefined) this.#size++;
      s[k] = v;
      return this;
    }
    const o = (this.#other ??= new Map());
    if (!o.has(k)) this.#size++;
    o.set(k, v);
    return this;
  }

  *[Symbol.iterator](): IterableIterator<[PKey, V]> {
    const s = this.#slots;
    for (let i = 0; i < s.length; i++) {
      const v = s[i];
      if (v !== undefined) yield [i, v];
    }
    if (this.#other !== null) yield* this.#other;
  }
}
