/**
 * PMap layers (pmap-layer.ts): writes to any version fork layers on top of it, small forks are
 * folded and long chains flattened; every version keeps its content through all of it. Small
 * limits make every path of fork() happen on small maps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';
import { PMAP_EMPTY, pmDelete, setPmapLimits, pmEntries, pmForEach, pmGet, pmSet, pmSize, type PMap } from '../../../src/engine/collections/pmap.js';
import { IndexMap } from '../../../src/engine/collections/index-map.js';

describe('PMap layers', () => {
  afterEach(() => setPmapLimits(4096, 8));

  it.each([
    ['default limits', 4096, 8],
    ['no folding, chains flattened beyond 3', 0, 3],
    ['folding forks of up to 2 keys, chains flattened beyond 2', 2, 2],
  ])('every version keeps its content when any version is written to again (%s)', (_name, foldMax, maxDepth) => {
    setPmapLimits(foldMax, maxDepth);
    // Few keys, and mostly the newest version or one just before it: histories of several pairs,
    // forks of forks, and writes to a fork's older versions (which fold the fork) all happen.
    const from = fc.oneof(fc.constant(0), fc.constant(1), fc.constant(2), fc.nat());
    const step = fc.record({ from, key: fc.constantFrom('a', 'b', 'c', 'd', 'e'), value: fc.option(fc.integer(), { nil: undefined }), inEdit: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const versions: PMap<number>[] = [PMAP_EMPTY];
        const models: Map<string, number>[] = [new Map()];
        for (const s of steps) {
          // from counts back from the newest version
          const i = versions.length - 1 - (s.from % versions.length);
          const model = new Map(models[i]);
          // A fresh edit per write: writes to any version stay persistent, in place or not.
          const prev = useEdit(s.inEdit ? newEdit() : null);
          try {
            if (s.value === undefined) {
              model.delete(s.key);
              versions.push(pmDelete(versions[i]!, s.key));
            } else {
              model.set(s.key, s.value);
              versions.push(pmSet(versions[i]!, s.key, s.value));
            }
          } finally {
            useEdit(prev);
          }
          models.push(model);
        }
        versions.forEach((v, i) => {
          expect(pmSize(v)).toBe(models[i]!.size);
          expect(new Map(pmEntries(v))).toEqual(models[i]);
          for (const [k, x] of models[i]!) expect(pmGet(v, k)).toBe(x);
        });
      }),
      { numRuns: 200 },
    );
  });

  // Number keys (interned ids): a root layer is an IndexMap (array slots), forks are Maps; keys
  // that are not small non-negative integers go to the IndexMap's own Map.
  it.each([
    ['default limits', 4096, 8],
    ['no folding, chains flattened beyond 2', 0, 2],
  ])('with number keys, every version keeps its content when any version is written to again (%s)', (_name, foldMax, maxDepth) => {
    setPmapLimits(foldMax, maxDepth);
    const from = fc.oneof(fc.constant(0), fc.constant(1), fc.nat());
    const step = fc.record({ from, key: fc.constantFrom(0, 1, 2, 7, 40, -1, 2.5), value: fc.option(fc.integer(), { nil: undefined }), inEdit: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const versions: PMap<number, number>[] = [PMAP_EMPTY];
        const models: Map<number, number>[] = [new Map()];
        for (const s of steps) {
          const i = versions.length - 1 - (s.from % versions.length);
          const model = new Map(models[i]);
          const prev = useEdit(s.inEdit ? newEdit() : null);
          try {
            if (s.value === undefined) model.delete(s.key);
            else model.set(s.key, s.value);
            versions.push(s.value === undefined ? pmDelete(versions[i]!, s.key) : pmSet(versions[i]!, s.key, s.value));
          } finally {
            useEdit(prev);
          }
          models.push(model);
        }
        versions.forEach((v, i) => {
          const seen = new Map<number, number>();
          pmForEach(v, (x, k) => seen.set(k, x));
          expect(seen).toEqual(models[i]);
          expect(pmSize(v)).toBe(models[i]!.size);
          for (const [k, x] of models[i]!) expect(pmGet(v, k)).toBe(x);
        });
        const root = versions.at(-1)!.layer();
        if (root !== null && root.parent === null && steps.length > 0) expect(root.map).toBeInstanceOf(IndexMap);
      }),
      { numRuns: 200 },
    );
  });
});
