/**
 * The key interner of every join family: one string instance per join key (keys.ts joinKey), and,
 * for the record store, a small int per key in order of first sight.
 *
 * Why one instance: every row computes its state key afresh, and state keeps keys (the record
 * store's registry, every interval cleanup timer). Checkpoints retain every timer chunk and key
 * map they saw, so without it a 1M-event interval join kept two fresh copies of the same key per
 * group of rows (~12 B per event). Handing out one instance per key changes no value: keys are
 * only compared with ===, hashed, and printed.
 *
 * A row's key is found from the row (keyOfRow) without building its string: a one-column key by
 * its value, in a Map (which tells the string '1' from the number 1, as joinKey's type tag does),
 * and the last value is remembered (rows of one key often come in a run, and a step asks for the
 * same key for both sides). Building `'s' + value` per row and hashing that fresh string cost
 * ~24 B and a hash per row of a 1M-event regular join. joinKey is a function of the one value, and
 * values equal under SameValueZero give equal keys (0 and -0 both print as 0), so the key is the
 * same string as before: only its instance is shared. (A string table by value, which read no
 * stored string, had 12% more L1 data misses than the Map: cachegrind, 300k events.)
 *
 * Bounded or not: the record store's interner (one per run, shared by both sides) only ever
 * gains keys, since its ids index the store. An interner given a bound `max` starts over when it
 * holds `max` keys (a key then merely gets a new instance), so a run over ever new keys keeps at
 * most `max` extra strings alive; its ids do not outlive a start-over, so its callers use the
 * strings only (the interval join's state is keyed by string). The temporal join, whose keys hold
 * one timer each, builds its key string per row instead (joinKey): the by-value map's lookup cost
 * it more in data-cache misses than the shared instance saved (docs/decisions.md, "The temporal
 * join's keys without the interner").
 */
import type { Row, Value } from '../../values/types.js';
import { joinKey } from '../keys.js';

/**
 * The same string as V8's internalized instance (the one it keeps per property name). Two
 * different internalized strings compare unequal by pointer, where two built strings of the same
 * length are compared character by character: the handed-out key is compared on every row and
 * timer (the state views' current key, the versioned map's lookup cache, timer dedup). The
 * holder is a dictionary-mode object (a property deleted from it): naming properties on a plain
 * literal would add a hidden-class transition per key.
 */
const names: Record<string, 0> = Object.create(null) as Record<string, 0>;
names.x = 0;
delete names.x;

function internalized(s: string): string {
  names[s] = 0;
  let name = s;
  for (const k in names) name = k;
  delete names[s];
  return name;
}

/** No value seen yet (a fresh object equals no value). */
const NONE: object = Object.freeze({});

/**
 * The bound of the interners of joins whose state is keyed by the string (the interval join):
 * keys handed out at most before one starts over.
 */
export const KEYS_KEPT = 1 << 16;

export class KeyInterner {
  readonly #max: number;
  readonly #internalize: boolean;
  #ids = new Map<string, number>();
  #keys: string[] = [];
  /** One-column keys by their value. */
  #byValue = new Map<Value, number>();
  /** The last key interned. */
  #lastKey: string | undefined = undefined;
  #lastId = -1;
  #lastValue: Value | object = NONE;

  /**
   * `max`: how many keys it holds before it starts over (unbounded by default: ids stay valid).
   * `internalize`: hand out V8's internalized instance of each key (see `internalized`), for
   * states keyed by the string; it costs about a microsecond per new key, so a state keyed by id
   * does without.
   */
  constructor(max = Number.POSITIVE_INFINITY, internalize = false) {
    this.#max = max;
    this.#internalize = internalize;
  }

  /** How many keys it holds. */
  get size(): number {
    return this.#keys.length;
  }

  idOf(key: string): number {
    if (key === this.#lastKey) return this.#lastId;
    let id = this.#ids.get(key);
    if (id === undefined) id = this.#add(key);
    this.#remember(key, id, NONE);
    return id;
  }

  /** The one instance of `key` (equal to it). */
  intern(key: string): string {
    return this.keyOf(this.idOf(key));
  }

  /** joinKey(row, idx), as the one instance this interner holds (the key is added if new). */
  keyOfRow(row: Row, idx: readonly number[]): string {
    if (idx.length !== 1) return this.intern(joinKey(row, idx));
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
    const key = joinKey(row, idx);
    const id = this.#ids.get(key) ?? this.#add(key);
    this.#byValue.set(v, id);
    return id;
  }

  #add(given: string): number {
    if (this.#keys.length >= this.#max) this.#startOver();
    const id = this.#keys.length;
    const key = this.#internalize ? internalized(given) : given;
    this.#keys.push(key);
    this.#ids.set(key, id);
    return id;
  }

  #startOver(): void {
    this.#ids = new Map();
    this.#keys = [];
    this.#byValue = new Map();
    this.#remember(undefined, -1, NONE);
  }

  #remember(key: string | undefined, id: number, value: Value | object): void {
    this.#lastKey = key;
    this.#lastId = id;
    this.#lastValue = value;
  }
}
