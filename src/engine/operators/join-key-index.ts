/**
 * The join keys of a run as small ints, in order of first sight (shared by both sides' stores;
 * it only ever gains keys), each with one string instance (keys.ts joinKey).
 *
 * A row's key is found from the row (keyOfRow) without building its string: a one-column key by
 * its value, a string value in a table that reads no stored string (interval-key-table.ts).
 * Building `'s' + value` per row, hashing that fresh string and comparing it with the stored one
 * (a cache miss anywhere in a large heap) was ~10% of a 1M-event regular join. joinKey is a
 * function of the one value, and values equal under SameValueZero give equal keys (0 and -0
 * both print as 0), so the key is the same string as before: only its instance is shared.
 */
import type { Row, Value } from '../../values/types.js';
import { joinKey } from '../keys.js';
import { StringTable } from './interval-key-table.js';

/** No value seen yet (a fresh object equals no value). */
const NONE: object = Object.freeze({});

export class KeyIndex {
  readonly #ids = new Map<string, number>();
  readonly #keys: string[] = [];
  /** One-column keys by value: strings in a StringTable, other values in a Map. */
  readonly #byString = new StringTable<number>();
  readonly #byValue = new Map<Value, number>();
  /** The last key interned: a step asks for the same key for both sides. */
  #lastKey: string | undefined = undefined;
  #lastId = -1;
  #lastValue: Value | object = NONE;

  idOf(key: string): number {
    if (key === this.#lastKey) return this.#lastId;
    let id = this.#ids.get(key);
    if (id === undefined) id = this.#add(key);
    this.#remember(key, id, NONE);
    return id;
  }

  /** joinKey(row, idx), as the one instance this index holds (the key is added if new). */
  keyOfRow(row: Row, idx: readonly number[]): string {
    if (idx.length !== 1) return this.keyOf(this.idOf(joinKey(row, idx)));
    const v = row[idx[0] as number] ?? null;
    if (v === this.#lastValue) return this.#lastKey as string;
    const id = this.#ofValue(v, row, idx);
    const key = this.#keys[id] as string;
    this.#remember(key, id, v);
    return key;
  }

  keyOf(id: number): string {
    return this.#keys[id] as string;
  }

  /** The id of a one-column key with value v (strings in the StringTable, other values in the Map). */
  #ofValue(v: Value, row: Row, idx: readonly number[]): number {
    const str = typeof v === 'string';
    const known = str ? this.#byString.get(v) : this.#byValue.get(v);
    if (known !== undefined) return known;
    const id = this.#idOfNew(joinKey(row, idx));
    if (str) this.#byString.add(v, id);
    else this.#byValue.set(v, id);
    return id;
  }

  /** The id of a key not yet found by value (it may be known by its string: idOf came first). */
  #idOfNew(key: string): number {
    return this.#ids.get(key) ?? this.#add(key);
  }

  #add(key: string): number {
    const id = this.#keys.length;
    this.#keys.push(key);
    this.#ids.set(key, id);
    return id;
  }

  #remember(key: string, id: number, value: Value | object): void {
    this.#lastKey = key;
    this.#lastId = id;
    this.#lastValue = value;
  }
}
