import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  PVEC_EMPTY, pvFromArray, pvGet, pvLast, pvPush, pvSet, pvSize, pvSlice, pvToArray, type PVec,
} from '../../../src/engine/collections/pvec.js';

describe('PVec', () => {
  it('behaves like an array under pushes, sets and slices (model-based)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer().map((x) => ({ push: x })), fc.tuple(fc.nat(), fc.integer()).map(([i, x]) => ({ set: i, x }))), { maxLength: 1500 }),
        fc.nat(), fc.nat(),
        (ops, a, b) => {
          const model: number[] = [];
          let v: PVec<number> = PVEC_EMPTY;
          for (const o of ops) {
            if ('push' in o) { model.push(o.push); v = pvPush(v, o.push); }
            else if (model.length > 0) { const i = o.set % model.length; model[i] = o.x; v = pvSet(v, i, o.x); }
          }
          expect(pvSize(v)).toBe(model.length);
          for (let i = 0; i < model.length; i++) expect(pvGet(v, i)).toBe(model[i]);
          const from = model.length === 0 ? 0 : a % (model.length + 1);
          const to = model.length === 0 ? 0 : b % (model.length + 1);
          expect(pvSlice(v, from, to)).toEqual(model.slice(from, to));
          expect(pvLast(v)).toBe(model[model.length - 1]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('crosses several trie levels (33, 1057, 32801 items)', () => {
    for (const n of [33, 1025, 1057, 32801, 40000]) {
      const xs = Array.from({ length: n }, (_, i) => i * 2);
      const v = pvFromArray(xs);
      expect(pvSize(v)).toBe(n);
      expect(pvToArray(v)).toEqual(xs);
      expect(pvGet(v, n - 1)).toBe((n - 1) * 2);
    }
  });

  it('keeps old versions intact and stays JSON-serialisable', () => {
    let v: PVec<number> = PVEC_EMPTY;
    const versions: PVec<number>[] = [];
    for (let i = 0; i < 3000; i++) { v = pvPush(v, i); versions.push(v); }
    const old = versions[1500]!;
    const frozen = JSON.stringify(old);
    v = pvSet(v, 10, -1);
    v = pvPush(v, 99);
    expect(JSON.stringify(old)).toBe(frozen);
    expect(pvGet(old, 10)).toBe(10);
    expect(pvSize(old)).toBe(1501);
    expect(pvGet(v, 10)).toBe(-1);
    const back = JSON.parse(frozen) as PVec<number>;
    expect(pvToArray(back)).toEqual(pvToArray(old));
  });

  it('rejects out-of-range reads', () => {
    expect(() => pvGet(pvFromArray([1]), 1)).toThrow(RangeError);
    expect(() => pvGet(PVEC_EMPTY, 0)).toThrow(RangeError);
  });

  // A complexity guard without clocks (speed is measured in `npm run bench`): a push copies at most
  // the tail plus one root-to-leaf path, and shares every other node with the old vector.
  it('pushes in O(1) amortised: a push copies at most the tail plus one path', () => {
    let v: PVec<number> = PVEC_EMPTY;
    const N = 40_000; // three trie levels (over 32 * 32 * 32 items) and two root growths
    let copiedSlots = 0;
    for (let i = 0; i < N; i++) {
      const next = pvPush(v, i);
      const old = arraysOf(v);
      const fresh = [...arraysOf(next)].filter((a) => !old.has(a));
      const levels = next.s / 5 + 1;
      expect(fresh.length).toBeLessThanOrEqual(levels + 1);
      for (const a of fresh) expect(a.length).toBeLessThanOrEqual(32);
      copiedSlots += fresh.reduce((n, a) => n + a.length, 0);
      v = next;
    }
    expect(pvGet(v, N - 1)).toBe(N - 1);
    // amortised: about 16 tail slots per push plus a path every 32 pushes, far from O(n)
    expect(copiedSlots / N).toBeLessThan(40);
  });
});

/** Every array (trie node or tail) reachable from the vector. */
function arraysOf(v: PVec<unknown>): Set<readonly unknown[]> {
  const out = new Set<readonly unknown[]>([v.t]);
  const walk = (n: readonly unknown[], level: number): void => {
    out.add(n);
    if (level > 0) for (const c of n) if (c !== undefined) walk(c as readonly unknown[], level - 5);
  };
  walk(v.r, v.s);
  return out;
}
