/**
 * Transient edits (collections/edit.ts): inside an edit, pmap may change nodes in place,
 * yet (1) every operation gives the same content as a plain model, and (2) a version kept when
 * an edit ended (a checkpoint) never changes afterwards, whatever later edits or plain
 * (edit-less) operations do to the versions derived from it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isEditable, newEdit, resizedCopy } from '../../../src/engine/collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmEntries, pmGet, pmSet, pmSize, type PMap } from '../../../src/engine/collections/pmap.js';
import { within } from './within.js';

type MapOp = { set: string; v: number } | { del: string } | { freeze: true };

const key = fc.integer({ min: 0, max: 300 }).map((i) => `k${i}`);
const mapOp: fc.Arbitrary<MapOp> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ set: key, v: fc.integer() }) },
  { weight: 2, arbitrary: fc.record({ del: key }) },
  { weight: 1, arbitrary: fc.constant({ freeze: true as const }) },
);
function sorted(m: PMap<number>): [string, number][] {
  return pmEntries(m).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

describe('transient edits', () => {
  it('pmap: same content as a model, and frozen versions never change', () => {
    fc.assert(
      fc.property(fc.array(mapOp, { maxLength: 600 }), fc.array(mapOp, { maxLength: 80 }), (ops, later) => {
        const model = new Map<string, number>();
        const kept: { m: PMap<number>; content: [string, number][] }[] = [];
        let edit = newEdit();
        let m: PMap<number> = PMAP_EMPTY;
        for (const o of ops) {
          if ('freeze' in o) {
            kept.push({ m, content: sorted(m) });
            edit = newEdit();
          } else if ('set' in o) {
            model.set(o.set, o.v);
            m = within(edit, () => pmSet(m, o.set, o.v));
          } else {
            model.delete(o.del);
            m = within(edit, () => pmDelete(m, o.del));
          }
        }
        expect(pmSize(m)).toBe(model.size);
        expect(sorted(m)).toEqual([...model].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
        for (const [k, v] of model) expect(pmGet(m, k)).toBe(v);
        // Later work from a kept version, in a new edit and without one, leaves every kept version as it was.
        for (const base of kept.slice(0, 3)) {
          let n = base.m;
          const e2 = newEdit();
          for (const o of later) {
            if ('set' in o) n = within(e2, () => pmSet(n, o.set, o.v));
            else if ('del' in o) n = within(null, () => pmDelete(n, o.del));
          }
        }
        for (const k of kept) expect(sorted(k.m)).toEqual(k.content);
      }),
      { numRuns: 150 },
    );
  });

  it('outside an edit nothing changes in place', () => {
    const a = Array.from({ length: 40 }, (_, i) => i);
    const before = a.slice();
    const b = resizedCopy(a, 3, 1, 2, 0);
    expect(isEditable(b)).toBe(false);
    expect(a).toEqual(before);
    expect(b).toEqual([0, 1, 2, undefined, undefined, ...before.slice(4)]);
    let m: PMap<number> = PMAP_EMPTY;
    for (let i = 0; i < 100; i++) m = pmSet(m, `k${i}`, i);
    const snapshot = sorted(m);
    pmSet(m, 'k5', -5);
    pmDelete(m, 'k6');
    expect(sorted(m)).toEqual(snapshot);
  });
});
