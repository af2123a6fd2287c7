/**
 * Iterating a PMap: entries in trie order, which depends on the key set alone (hash order, then
 * key order inside a collision bucket), never on insertion order.
 */
import { PMAP_EMPTY, pmSet, type Node, type PMap } from './pmap.js';

function walk(n: Node, visit: (k: string, v: unknown) => void): void {
  for (let i = 2; i < n.length; i += 2) {
    const k = n[i];
    if (k === null) walk(n[i + 1] as Node, visit);
    else visit(k as string, n[i + 1]);
  }
}

/** Entries in trie order: a function of the key set alone (hash order, then key within a collision). */
export function pmEntries<V>(m: PMap<V>): [string, V][] {
  const out: [string, V][] = [];
  if (m.r !== null) walk(m.r, (k, v) => out.push([k, v as V]));
  return out;
}

export function pmKeys(m: PMap<unknown>): string[] {
  const out: string[] = [];
  if (m.r !== null) walk(m.r, (k) => out.push(k));
  return out;
}

export function pmValues<V>(m: PMap<V>): V[] {
  const out: V[] = [];
  if (m.r !== null) walk(m.r, (_k, v) => out.push(v as V));
  return out;
}

export function pmForEach<V>(m: PMap<V>, f: (value: V, key: string) => void): void {
  if (m.r !== null) walk(m.r, (k, v) => f(v as V, k));
}

export function pmFromEntries<V>(entries: Iterable<readonly [string, V]>): PMap<V> {
  let m: PMap<V> = PMAP_EMPTY;
  for (const [k, v] of entries) m = pmSet(m, k, v);
  return m;
}
