import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';
import {
  PMAP_EMPTY, hashString, pmDelete, pmEntries, pmEquals, pmFromEntries, pmGet, pmSet, pmSize, pmUpdate, type PMap,
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

  it('serialises and compares by content alone, whatever the history', () => {
    fc.assert(
      fc.property(fc.uniqueArray(keyArb, { maxLength: 200 }), fc.integer(), (keys, seed) => {
        const shuffled = [...keys].sort((a, b) => hashString(a + seed) - hashString(b + seed));
        const a = pmFromEntries(keys.map((k) => [k, 1] as const));
        let b = pmFromEntries(shuffled.map((k) => [k, 1] as const));
        // A detour through extra keys and deletes must not change what b holds.
        for (let i = 0; i < 50; i++) b = pmSet(b, `extra${i}`, 1);
        for (let i = 0; i < 50; i++) b = pmDelete(b, `extra${i}`);
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        expect(pmEquals(a, b)).toBe(true);
        expect(b).toEqual(a);
        if (keys.length > 0) {
          const c = pmSet(b, keys[0]!, 2);
          expect(pmEquals(a, c)).toBe(false);
          expect(c).not.toEqual(a);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('keeps two keys with the same 32-bit hash apart', () => {
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

  it('reads of other maps (empty ones too) between a read and a write change nothing', () => {
    // pmGet caches its last lookup for the write that usually follows: any read in between,
    // of another map or of an empty one, must not make that write lose the key's history.
    const op = fc.record({ map: fc.nat(2), key: fc.constantFrom('a', 'b', 'c'), value: fc.option(fc.integer(), { nil: undefined }), read: fc.nat(3) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const maps: PMap<number>[] = [PMAP_EMPTY, PMAP_EMPTY, PMAP_EMPTY];
        const models = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
        const kept: { m: PMap<number>; model: Map<string, number> }[] = [];
        for (const o of ops) {
          pmGet(maps[o.map]!, o.key);
          if (o.read < 3) pmGet(maps[o.read]!, o.key);
          else pmGet(PMAP_EMPTY as PMap<number>, o.key);
          kept.push({ m: maps[o.map]!, model: new Map(models[o.map]) });
          if (o.value === undefined) {
            maps[o.map] = pmDelete(maps[o.map]!, o.key);
            models[o.map]!.delete(o.key);
          } else {
            maps[o.map] = pmSet(maps[o.map]!, o.key, o.value);
            models[o.map]!.set(o.key, o.value);
          }
        }
        maps.forEach((m, i) => expect(new Map(pmEntries(m))).toEqual(models[i]));
        for (const k of kept) expect(new Map(pmEntries(k.m))).toEqual(k.model);
      }),
      { numRuns: 300 },
    );
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

  // A complexity guard without clocks (speed is measured in `npm run bench`): a write to a kept
  // version of a 100k-key map adds one history pair (or a fork holding one key): it never copies.
  it('writes to a kept 100k-key version store one pair, not a copy', () => {
    const N = 100_000;
    let m: PMap<number> = PMAP_EMPTY;
    const prev = useEdit(newEdit());
    try {
      for (let i = 0; i < N; i++) m = pmSet(m, `key-${i}`, 0);
    } finally {
      useEdit(prev);
    }
    const base = m.layer()!;
    expect(base.map.size).toBe(N);
    const pairs = (): number => [...base.map].reduce((n, [, h]) => n + h.length / 2, 0);
    expect(pairs()).toBe(N);
    // The newest version: one pair more in the same layer.
    const next = pmSet(m, 'key-7', 1);
    expect(next.layer()).toBe(base);
    expect(pairs()).toBe(N + 1);
    // The kept (now older) version: a fork that holds the one key written.
    for (const w of [pmSet(m, 'key-9', 2), pmSet(m, 'new', 3), pmDelete(m, 'key-3')]) {
      expect(w.layer()!.parent).toBe(base);
      expect(w.layer()!.map.size).toBe(1);
    }
    expect(pairs()).toBe(N + 1);
    expect(pmGet(m, 'key-7')).toBe(0);
    expect(pmGet(next, 'key-7')).toBe(1);
    expect(pmSize(m)).toBe(N);
  });
});
