/**
 * The join keys of a run as small ints, in order of first sight (shared by both sides' stores;
 * it only ever gains keys), each with one string instance (keys.ts joinKey).
 *
 * A row's key is found from the row (keyOfRow) without building its string: a one-column key by
 * its value, in a Map (which tells the string '1' from the number 1, as joinKey's type tag does).
 * Building `'s' + value` per row and hashing that fresh string cost ~24 B and a hash per row of a
 * 1M-event regular join. joinKey is a function of the one value, and values equal under
 * SameValueZero give equal keys (0 and -0 both print as 0), so the key is the same string as
 * before: only its instance is shared. (A string table by value, which read no stored string, had
 * 12% more L1 data misses here than the Map: cachegrind, 300k events.)
 */
import type { Row, Value } from '../../values/types.js';
import { joinKey } from '../keys.js';

/** No value seen yet (a fresh object equals no value). */
const NONE: object = Object.freeze({});

export class KeyIndex {
  readonly #ids = new Map<string, number>();
  readonly #keys: string[] = [];
  /** One-column keys by their value. */
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

  /** The id of a one-column key with value v. */
  #ofValue(v: Value, row: Row, idx: readonly number[]): number {
    const known = this.#byValue.get(v);
    if (known !== undefined) return known;
    const id = this.#idOfNew(joinKey(row, idx));
    this.#byValue.set(v, id);
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
