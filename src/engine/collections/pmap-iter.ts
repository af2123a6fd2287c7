/**
 * Iterating and comparing PMaps. Iteration order is not specified (it follows the layers'
 * histories): callers that show or emit entries sort them.
 */
import { PMAP_EMPTY, forEachVisible, pmGet, pmHas, pmSet, type PKey, type PMap } from './pmap.js';

export function pmForEach<V, K extends PKey = string>(m: PMap<V, K>, f: (value: V, key: K) => void): void {
  forEachVisible(m.layer(), m.ver(), (k, v) => f(v as V, k as K));
}

export function pmEntries<V>(m: PMap<V>): [string, V][] {
  const out: [string, V][] = [];
  pmForEach(m, (v, k) => out.push([k, v]));
  return out;
}

export function pmKeys(m: PMap<unknown>): string[] {
  const out: string[] = [];
  pmForEach(m, (_v, k) => out.push(k));
  return out;
}

export function pmValues<V, K extends PKey = string>(m: PMap<V, K>): V[] {
  const out: V[] = [];
  pmForEach(m, (v) => out.push(v));
  return out;
}

export function pmFromEntries<V>(entries: Iterable<readonly [string, V]>): PMap<V> {
  let m: PMap<V> = PMAP_EMPTY;
  for (const [k, v] of entries) m = pmSet(m, k, v);
  return m;
}

/** Same keys, and values equal under `eq` (Object.is by default), whatever the histories. */
export function pmEquals<V, K extends PKey = string>(a: PMap<V, K>, b: PMap<V, K>, eq: (x: V, y: V) => boolean = Object.is): boolean {
  if (a === b) return true;
  if (a.n !== b.n) return false;
  if (a.layer() === b.layer() && a.ver() === b.ver()) return true;
  let same = true;
  pmForEach(a, (v, k) => {
    if (same && !(pmHas(b, k) && eq(v, pmGet(b, k) as V))) same = false;
  });
  return same;
}
