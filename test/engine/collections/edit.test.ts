/**
 * Transient edits (collections/edit.ts): inside an edit, pmap and pvec may change nodes in place,
 * yet (1) every operation gives the same content as a plain model, and (2) a version kept when
 * an edit ended (a checkpoint) never changes afterwards, whatever later edits or plain
 * (edit-less) operations do to the versions derived from it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newEdit } from '../../../src/engine/collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmEntries, pmGet, pmSet, pmSize, type PMap } from '../../../src/engine/collections/pmap.js';
import { PVEC_EMPTY, pvPush, pvPushAll, pvSet, pvToArray, type PVec } from '../../../src/engine/collections/pvec.js';
import { within } from './within.js';

type MapOp = { set: string; v: number } | { del: string } | { freeze: true };
type VecOp = { push: number } | { pushAll: number[] } | { set: number; v: number } | { freeze: true };

const key = fc.integer({ min: 0, max: 300 }).map((i) => `k${i}`);
const mapOp: fc.Arbitrary<MapOp> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ set: key, v: fc.integer() }) },
  { weight: 2, arbitrary: fc.record({ del: key }) },
  { weight: 1, arbitrary: fc.constant({ freeze: true as const }) },
);
const vecOp: fc.Arbitrary<VecOp> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ push: fc.integer() }) },
  { weight: 2, arbitrary: fc.record({ pushAll: fc.array(fc.integer(), { maxLength: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ set: fc.nat(), v: fc.integer() }) },
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

  it('pvec: same content as a model, and frozen versions never change', () => {
    fc.assert(
      fc.property(fc.array(vecOp, { maxLength: 600 }), fc.array(vecOp, { maxLength: 80 }), (ops, later) => {
        const model: number[] = [];
        const kept: { v: PVec<number>; content: number[] }[] = [];
        let edit = newEdit();
        let v: PVec<number> = PVEC_EMPTY;
        const apply = (x: PVec<number>, o: VecOp, arr: number[] | undefined): PVec<number> => {
          if ('push' in o) {
            arr?.push(o.push);
            return pvPush(x, o.push);
          }
          if ('pushAll' in o) {
            arr?.push(...o.pushAll);
            return pvPushAll(x, o.pushAll);
          }
          if ('set' in o && x.n > 0) {
            const i = o.set % x.n;
            if (arr !== undefined) arr[i] = o.v;
            return pvSet(x, i, o.v);
          }
          return x;
        };
        for (const o of ops) {
          if ('freeze' in o) {
            kept.push({ v, content: pvToArray(v) });
            edit = newEdit();
          } else v = within(edit, () => apply(v, o, model));
        }
        expect(pvToArray(v)).toEqual(model);
        for (const base of kept.slice(0, 3)) {
          let w = base.v;
          const e2 = newEdit();
          for (const o of later) if (!('freeze' in o)) w = within('set' in o ? null : e2, () => apply(w, o, undefined));
        }
        for (const k of kept) expect(pvToArray(k.v)).toEqual(k.content);
      }),
      { numRuns: 150 },
    );
  });

  it('outside an edit nothing changes in place', () => {
    const a = pvFromPushes(40);
    const before = pvToArray(a);
    const b = pvPush(a, 99);
    pvSet(b, 3, -1);
    expect(pvToArray(a)).toEqual(before);
    let m: PMap<number> = PMAP_EMPTY;
    for (let i = 0; i < 100; i++) m = pmSet(m, `k${i}`, i);
    const snapshot = sorted(m);
    pmSet(m, 'k5', -5);
    pmDelete(m, 'k6');
    expect(sorted(m)).toEqual(snapshot);
  });
});

function pvFromPushes(n: number): PVec<number> {
  let v: PVec<number> = PVEC_EMPTY;
  for (let i = 0; i < n; i++) v = pvPush(v, i);
  return v;
}
