import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  PMAP_EMPTY, hashString, pmDelete, pmEntries, pmFromEntries, pmGet, pmKeys, pmSet, pmSize, pmUpdate, type PMap,
} from '../../../src/engine/collections/pmap.js';

/** Keys drawn from a small alphabet so that sets, overwrites and deletes hit the same keys often. */
const keyArb = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 300 }).map((n) => `k${n}`));
const opArb = fc.oneof(
  fc.record({ op: fc.constant('set' as const), key: keyArb, value: fc.integer() }),
  fc.record({ op: fc.constant('del' as const), key: keyArb }),
);

describe('PMap', () => {
  it('behaves like a JS Map under random sets and deletes (model-based)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), (ops) => {
        const model = new Map<string, number>();
        let m: PMap<number> = PMAP_EMPTY;
        for (const o of ops) {
          if (o.op === 'set') { model.set(o.key, o.value); m = pmSet(m, o.key, o.value); }
          else { model.delete(o.key); m = pmDelete(m, o.key); }
          expect(pmSize(m)).toBe(model.size);
        }
        for (const [k, v] of model) expect(pmGet(m, k)).toBe(v);
        const entries = pmEntries(m);
        expect(entries.length).toBe(model.size);
        expect(new Map(entries)).toEqual(model);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps old versions intact (persistence)', () => {
    let m: PMap<number> = PMAP_EMPTY;
    const versions: PMap<number>[] = [];
    for (let i = 0; i < 2000; i++) { m = pmSet(m, `k${i}`, i); versions.push(m); }
    const frozen = JSON.stringify(versions[999]);
    for (let i = 0; i < 2000; i += 3) m = pmDelete(m, `k${i}`);
    m = pmSet(m, 'k1', -1);
    expect(JSON.stringify(versions[999])).toBe(frozen);
    expect(pmSize(versions[999]!)).toBe(1000);
    expect(pmGet(versions[999]!, 'k999')).toBe(999);
    expect(pmGet(versions[999]!, 'k1000')).toBeUndefined();
    expect(pmGet(m, 'k1')).toBe(-1);
    expect(pmGet(m, 'k0')).toBeUndefined();
  });

  it('orders entries by key set alone, whatever the insertion order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(keyArb, { maxLength: 200 }), fc.integer(), (keys, seed) => {
        const shuffled = [...keys].sort((a, b) => hashString(a + seed) - hashString(b + seed));
        const a = pmFromEntries(keys.map((k) => [k, 1] as const));
        let b = pmFromEntries(shuffled.map((k) => [k, 1] as const));
        // A detour through extra keys and deletes must not change the order either.
        for (let i = 0; i < 50; i++) b = pmSet(b, `extra${i}`, 1);
        for (let i = 0; i < 50; i++) b = pmDelete(b, `extra${i}`);
        expect(pmKeys(b)).toEqual(pmKeys(a));
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
      { numRuns: 100 },
    );
  });

  it('handles full 32-bit hash collisions via collision buckets', () => {
    // Find two distinct keys with the same hash by brute force over a small space.
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined && i < 3_000_000; i++) {
      const k = `c${i}`;
      const h = hashString(k);
      const other = seen.get(h);
      if (other !== undefined) pair = [other, k];
      else seen.set(h, k);
    }
    expect(pair).toBeDefined();
    const [a, b] = pair!;
    let m = pmSet(pmSet(PMAP_EMPTY as PMap<string>, a, 'A'), b, 'B');
    expect(pmSize(m)).toBe(2);
    expect(pmGet(m, a)).toBe('A');
    expect(pmGet(m, b)).toBe('B');
    m = pmSet(m, b, 'B2');
    expect(pmGet(m, b)).toBe('B2');
    expect(pmSize(m)).toBe(2);
    const m2 = pmDelete(m, a);
    expect(pmGet(m2, a)).toBeUndefined();
    expect(pmGet(m2, b)).toBe('B2');
    expect(pmSize(m2)).toBe(1);
    expect(JSON.stringify(m2)).toBe(JSON.stringify(pmSet(PMAP_EMPTY as PMap<string>, b, 'B2')));
  });

  it('pmUpdate sets, changes and deletes', () => {
    let m: PMap<number> = PMAP_EMPTY;
    m = pmUpdate(m, 'a', (c) => (c ?? 0) + 1);
    m = pmUpdate(m, 'a', (c) => (c ?? 0) + 1);
    expect(pmGet(m, 'a')).toBe(2);
    m = pmUpdate(m, 'a', () => undefined);
    expect(pmSize(m)).toBe(0);
  });

  it('returns the same map when nothing changes', () => {
    const m = pmSet(PMAP_EMPTY as PMap<number>, 'a', 1);
    expect(pmSet(m, 'a', 1)).toBe(m);
    expect(pmDelete(m, 'zz')).toBe(m);
  });

  // A complexity guard without clocks (speed is measured in `npm run bench`): a set on a 100k-key
  // map must share all but one path of nodes with the old map (a copying set would share none).
  it('keeps pmSet O(log n) on 100k keys: a set copies one root-to-leaf path only', () => {
    const N = 100_000;
    const keys = Array.from({ length: N }, (_, i) => `key-${i}`);
    let m: PMap<number> = PMAP_EMPTY;
    for (const k of keys) m = pmSet(m, k, 0);
    const old = nodesOf(m);
    // A 32-bit hash, 5 bits per level: at most 7 bitmap levels plus a collision node, whatever n.
    const depth = Math.max(...[...old.values()].map((n) => n.depth)) + 1;
    expect(depth).toBeLessThanOrEqual(8);
    // and about log32(n) levels where most keys live
    const levels = [...old.values()].map((n) => n.depth);
    expect(levels.reduce((a, b) => a + b, 0) / levels.length).toBeLessThan(Math.log(N) / Math.log(32));
    for (let i = 0; i < 200; i++) {
      const k = keys[(i * 7919) % N]!;
      for (const next of [pmSet(m, k, i + 1), pmSet(m, `new-${i}`, i), pmDelete(m, k)]) {
        const fresh = [...nodesOf(next).keys()].filter((n) => !old.has(n));
        // one node per level at most, each at most a full node (32 entries + bitmap)
        expect(fresh.length).toBeLessThanOrEqual(8);
        for (const n of fresh) expect(n.length).toBeLessThanOrEqual(2 + 2 * 32);
      }
    }
    expect(pmSize(m)).toBe(N);
  });
});

/** Every trie node (array) reachable from the map, with its depth. */
function nodesOf(m: PMap<unknown>): Map<readonly unknown[], { depth: number }> {
  const out = new Map<readonly unknown[], { depth: number }>();
  const walk = (n: readonly unknown[], depth: number): void => {
    out.set(n, { depth });
    for (let i = 2; i < n.length; i += 2) if (n[i] === null) walk(n[i + 1] as readonly unknown[], depth + 1);
  };
  if (m.r !== null) walk(m.r, 0);
  return out;
}
