/**
 * One string per join key: every row computes its state key afresh (keys.ts joinKey), and each
 * cleanup timer keeps the string of the row that registered it. Checkpoints retain every timer
 * chunk they saw, so without this a 1M-event interval join kept two fresh copies of the same key
 * per group of rows (~12 B per event). Handing out one instance per key changes no value: keys
 * are only compared with ===, hashed, and printed.
 *
 * A one-column key is found by its value, without building the key string (joinKey is a
 * function of that value alone, and values equal under Map's SameValueZero give equal keys:
 * 0 and -0 both print as 0), and the last value is remembered: rows of one key often come in a
 * run, and a lookup in a large map is a likely cache miss.
 *
 * Bounded: when it holds `max` keys it starts over (a key then merely gets a new instance), so a
 * run over ever new keys keeps at most `max` extra strings alive.
 */
import type { Row, Value } from '../../values/types.js';
import { joinKey } from '../keys.js';

export interface Interner {
  /** The one instance of `key` (equal to it). */
  intern(key: string): string;
  /** The one instance of joinKey(row, idx). */
  keyOf(row: Row, idx: readonly number[]): string;
  /** How many keys it holds (at most `max` per kind of key: by joined string, by value). */
  size(): number;
}

/** No value seen yet (a fresh object equals no value). */
const NONE: object = Object.freeze({});

export function newInterner(max = 1 << 16): Interner {
  const seen = new Map<string, string>();
  const byValue = new Map<Value, string>();
  const ofValue = (v: Value, row: Row, idx: readonly number[]): string => {
    const known = byValue.get(v);
    if (known !== undefined) return known;
    const key = joinKey(row, idx);
    if (byValue.size >= max) byValue.clear();
    byValue.set(v, key);
    return key;
  };
  let lastValue: Value | object = NONE;
  let lastKey = '';
  const intern = (key: string): string => {
    const known = seen.get(key);
    if (known !== undefined) return known;
    if (seen.size >= max) seen.clear();
    seen.set(key, key);
    return key;
  };
  return {
    intern,
    keyOf(row, idx) {
      if (idx.length !== 1) return intern(joinKey(row, idx));
      const v = row[idx[0] as number] ?? null;
      if (v === lastValue) return lastKey;
      const key = ofValue(v, row, idx);
      lastValue = v;
      lastKey = key;
      return key;
    },
    size: () => seen.size + byValue.size,
  };
}
