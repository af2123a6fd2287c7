/**
 * PMap: a persistent string-keyed map whose versions share one history per key ("fat nodes", as
 * in Driscoll, Sarnak, Sleator and Tarjan's persistent data structures) instead of a trie whose
 * every write copies a root-to-leaf path.
 *
 * A version is (layer, ver, n). A layer is a JS Map from a key to the key's history, a flat array
 * [stamp0, value0, stamp1, value1, ...] with increasing stamps (edit.ts). Version (L, v) reads a
 * key's last value in L with stamp <= v, else the key in L's parent at the version L was forked
 * from. A write to the newest version of its layer appends (stamp, value) to the key's history,
 * or overwrites the last pair if it has the same stamp (a write in the same transient edit); a
 * write to any older version forks a new layer on top of that version. Why: a checkpoint kept by
 * the timeline then costs one pair per key written after it instead of a copied path per key
 * (the HAMT's 32-slot nodes: a 1M-event run kept ~100 MB of them, and page faults cost ~14 us
 * per 4 KB here), and a lookup is one hash-table get instead of a pointer chase per level.
 *
 * Versions are compared by content (pmEquals; the test setup registers it for toEqual) and
 * serialise as their entries sorted by key (toJSON). Iteration order is not specified: every
 * caller that shows or emits entries in order sorts them.
 *
 * The layers and their forks: pmap-layer.ts.
 */
import { writeStamp } from './edit.js';
import { GONE, fork, forEachVisible, lastAtOrBefore, type Layer } from './pmap-layer.js';

/** A key: strings, or small ints (a caller that interns its keys saves hashing and comparing strings). */
export type PKey = string | number;

export { hashString } from './hash.js';
export { pmEntries, pmEquals, pmForEach, pmFromEntries, pmKeys, pmValues } from './pmap-iter.js';
export { GONE, forEachVisible, setPmapLimits, type Layer } from './pmap-layer.js';

export class PMap<V, K extends PKey = string> {
  readonly #layer: Layer | null;
  readonly #ver: number;
  #n: number;
  /** Phantoms: never present at runtime. */
  declare readonly __v?: V;
  declare readonly __k?: K;

  constructor(layer: Layer | null, ver: number, n: number) {
    this.#layer = layer;
    this.#ver = ver;
    this.#n = n;
  }

  /** Number of keys. */
  get n(): number {
    return this.#n;
  }

  /**
   * Version (layer, stamp) with `n` keys: this object when it already is that version, which
   * happens only for a write in the transient edit that made it (outside an edit every write has
   * a fresh stamp), so nothing kept can see the change. Saves an object per write in bulk runs.
   * @internal
   */
  next(layer: Layer, stamp: number, n: number): PMap<V, K> {
    if (this.#layer !== layer || this.#ver !== stamp) return new PMap<V, K>(layer, stamp, n);
    this.#n = n;
    return this;
  }

  /** @internal */
  layer(): Layer | null {
    return this.#layer;
  }

  /** @internal */
  ver(): number {
    return this.#ver;
  }

  toJSON(): { n: number; entries: [K, unknown][] } {
    const entries: [K, unknown][] = [];
    forEachVisible(this.#layer, this.#ver, (k, v) => entries.push([k as K, v]));
    return { n: this.n, entries: entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
  }
}

export const PMAP_EMPTY = Object.freeze(new PMap<never, never>(null, 0, 0)) as PMap<never, never>;

/** The history of the last key looked up in the first layer of its version (undefined: none there). */
let topHist: unknown[] | undefined;

/** The value of `key` in version (layer, ver), GONE if none. Sets topHist. */
function getAt(layer: Layer | null, ver: number, key: PKey): unknown {
  topHist = layer === null ? undefined : layer.map.get(key);
  for (let l = layer, v = ver, h = topHist; l !== null; v = l.pver, l = l.parent, h = l?.map.get(key)) {
    if (h === undefined) continue;
    const i = lastAtOrBefore(h, v);
    if (i >= 0) return h[i + 1];
  }
  return GONE;
}

/**
 * The last lookup or write (map, key, value): a step often reads a key and then writes it (the
 * write needs the old value), or writes it and reads it back. A write in an edit may change a
 * layer in place, so the cache is keyed by the map object and holds one key, which a write to
 * that object replaces with the written one.
 */
let lookMap: PMap<unknown, PKey> | undefined;
let lookKey: PKey | undefined;
let lookValue: unknown = GONE;
/** The history of lookKey in lookMap's own layer, if it has one (write reuses it). */
let lookHist: unknown[] | undefined;

function valueIn<K extends PKey>(m: PMap<unknown, K>, key: K): unknown {
  if (m.n === 0) return GONE;
  if (m === lookMap && key === lookKey) return lookValue;
  const v = getAt(m.layer(), m.ver(), key);
  lookMap = m as PMap<unknown, PKey>;
  lookKey = key;
  lookValue = v;
  lookHist = topHist;
  return v;
}

export function pmGet<V, K extends PKey = string>(m: PMap<V, K>, key: K): V | undefined {
  const v = valueIn(m, key);
  return v === GONE ? undefined : (v as V);
}

export function pmHas<K extends PKey = string>(m: PMap<unknown, K>, key: K): boolean {
  return valueIn(m, key) !== GONE;
}

/** Histories up to this length are copied at their exact size when they grow (push leaves slack). */
const EXACT_MAX = 8;

/**
 * Version m with `key` set to `value` (GONE: deleted). The lookup cache then holds the result's
 * value for `key` (a step often reads back what it wrote): exactly what that version reads.
 */
function write<V, K extends PKey>(m: PMap<V, K>, key: K, value: unknown): PMap<V, K> {
  const old = valueIn(m, key);
  if (old === value) return m;
  // The history valueIn found in m's own layer, when it cached m and key (not for an empty m).
  const known = lookMap === m && lookKey === key ? (lookHist ?? null) : null;
  const stamp = writeStamp();
  let l = m.layer();
  let h: unknown[] | undefined;
  if (l === null || l.tip !== m.ver()) {
    l = fork(l, m.ver(), typeof key === 'number');
    h = l.map.get(key);
  } else h = known === null ? l.map.get(key) : known;
  let hist: unknown[];
  if (h === undefined) l.map.set(key, (hist = [stamp, value]));
  else if (h[h.length - 2] === stamp) (hist = h)[h.length - 1] = value;
  else if (h.length < EXACT_MAX) l.map.set(key, (hist = [...h, stamp, value]));
  else (hist = h).push(stamp, value);
  l.tip = stamp;
  const next = m.next(l, stamp, m.n + (old === GONE ? 1 : 0) - (value === GONE ? 1 : 0));
  lookMap = next as PMap<unknown, PKey>;
  lookKey = key;
  lookValue = value;
  lookHist = hist;
  return next;
}

export function pmSet<V, K extends PKey = string>(m: PMap<V, K>, key: K, value: V): PMap<V, K> {
  return write(m, key, value);
}

export function pmDelete<V, K extends PKey = string>(m: PMap<V, K>, key: K): PMap<V, K> {
  return write(m, key, GONE);
}

export function pmSize(m: PMap<unknown, PKey>): number {
  return m.n;
}

/** Set `key` to `f(current)`; `undefined` from `f` deletes the key. */
export function pmUpdate<V>(m: PMap<V>, key: string, f: (cur: V | undefined) => V | undefined): PMap<V> {
  const next = f(pmGet(m, key));
  return next === undefined ? pmDelete(m, key) : pmSet(m, key, next);
}
