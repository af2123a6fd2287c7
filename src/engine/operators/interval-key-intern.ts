/**
 * One string per join key: every row computes its state key afresh (keys.ts joinKey), and each
 * cleanup timer keeps the string of the row that registered it. Checkpoints retain every timer
 * chunk they saw, so without this a 1M-event interval join kept two fresh copies of the same key
 * per group of rows (~12 B per event). Handing out one instance per key changes no value: keys
 * are only compared with ===, hashed, and printed.
 *
 * Bounded: when it holds `max` keys it starts over (a key then merely gets a new instance), so a
 * run over ever new keys keeps at most `max` extra strings alive.
 */
export interface Interner {
  /** The one instance of `key` (equal to it). */
  intern(key: string): string;
  /** How many keys it holds (at most `max`). */
  size(): number;
}

export function newInterner(max = 1 << 16): Interner {
  const seen = new Map<string, string>();
  return {
    intern(key) {
      const known = seen.get(key);
      if (known !== undefined) return known;
      if (seen.size >= max) seen.clear();
      seen.set(key, key);
      return key;
    },
    size: () => seen.size,
  };
}
