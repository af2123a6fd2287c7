/**
 * SharedLog (collections/shared-log.ts): versions share growable arrays, so (1) every operation
 * gives the same content as a plain array model, (2) a version kept when an edit ended (a
 * checkpoint) never changes afterwards, whatever later edits or edit-less operations do to the
 * versions derived from it, and (3) two versions branching from one log never see each other's
 * appends or changes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newEdit, useEdit, type Edit } from '../../../src/engine/collections/edit.js';
import { SharedLog } from '../../../src/engine/collections/shared-log.js';

type Op = { push: number } | { set: number; v: number } | { remove: number } | { freeze: true } | { branch: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ push: fc.integer({ min: -50, max: 50 }) }) },
  { weight: 3, arbitrary: fc.record({ set: fc.nat(), v: fc.integer({ min: -50, max: 50 }) }) },
  { weight: 1, arbitrary: fc.record({ remove: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ freeze: true as const }) },
  // go back to an older version (a replay from a checkpoint) and carry on from there
  { weight: 1, arbitrary: fc.record({ branch: fc.nat() }) },
);

/** Items are pairs so that a slot change is visible; the hash is the item's key. */
interface Item {
  readonly k: number;
  readonly v: number;
}

const sameItem = (a: Item, b: Item): boolean => a.k === b.k && a.v === b.v;

function within<T>(edit: Edit | null, f: () => T): T {
  const prev = useEdit(edit);
  try {
    return f();
  } finally {
    useEdit(prev);
  }
}

function contentOf(l: SharedLog<Item>): [number, number, number][] {
  return [...l].map((x, i) => [x.k, x.v, l.hashAt(i)]);
}

/** Applies one op to (log, model); returns the new pair. */
function apply(o: Op, l: SharedLog<Item>, m: Item[]): [SharedLog<Item>, Item[]] {
  // Equal items are shared when a branch re-appends what another appended (a replay).
  if ('push' in o) return [l.push({ k: o.push, v: 0 }, o.push, sameItem), [...m, { k: o.push, v: 0 }]];
  if (m.length === 0) return [l, m];
  if ('set' in o) {
    const i = o.set % m.length;
    const x = { k: (m[i] as Item).k, v: o.v };
    return [l.set(i, x), m.map((y, j) => (j === i ? x : y))];
  }
  if ('remove' in o) {
    const i = o.remove % m.length;
    return m.length === 1 ? [l, m] : [l.removeAt(i), m.filter((_, j) => j !== i)];
  }
  return [l, m];
}

function check(l: SharedLog<Item>, m: readonly Item[]): void {
  expect(l.size).toBe(m.length);
  expect(contentOf(l)).toEqual(m.map((x) => [x.k, x.v, x.k]));
  expect(l.items()).toEqual(m);
  for (let i = 0; i < m.length; i++) expect(l.findHash((m[i] as Item).k)).toBe(m.findIndex((x) => x.k === (m[i] as Item).k));
}

describe('shared log', () => {
  it('same content as a model, and frozen versions never change (edits, branches, edit-less work)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), fc.array(op, { maxLength: 60 }), (ops, later) => {
        const first = { k: 1, v: 1 };
        let edit: Edit = newEdit();
        let l = within(edit, () => SharedLog.single(first, 1));
        let m: Item[] = [first];
        const kept: { l: SharedLog<Item>; m: Item[]; content: [number, number, number][] }[] = [];
        for (const o of ops) {
          if ('freeze' in o) {
            kept.push({ l, m, content: contentOf(l) });
            edit = newEdit();
          } else if ('branch' in o) {
            if (kept.length === 0) continue;
            const base = kept[o.branch % kept.length] as (typeof kept)[number];
            [l, m] = [base.l, base.m];
            edit = newEdit();
          } else {
            [l, m] = within(edit, () => apply(o, l, m));
          }
        }
        check(l, m);
        // Later work from a kept version, in a new edit and without one, leaves every kept version as it was.
        for (const [i, base] of kept.slice(0, 4).entries()) {
          let n = base.l;
          let nm = base.m;
          const e2 = i % 2 === 0 ? newEdit() : null;
          for (const o of later) if (!('freeze' in o) && !('branch' in o)) [n, nm] = within(e2, () => apply(o, n, nm));
          check(n, nm);
        }
        for (const k of kept) expect(contentOf(k.l)).toEqual(k.content);
        check(l, m);
      }),
      { numRuns: 200 },
    );
  });

  it('two versions branching from one log never see each other\'s appends or changes', () => {
    // The base is kept (made before the edit, as a checkpoint is): within one edit only the
    // newest version is alive, so versions made in it may share a slot changed in place.
    for (const edit of [null, newEdit()]) {
      const base = within(newEdit(), () => SharedLog.of([{ k: 1, v: 0 }, { k: 2, v: 0 }], [1, 2]));
      within(edit, () => {
        const a = base.push({ k: 3, v: 0 }, 3);
        const b = base.push({ k: 4, v: 0 }, 4);
        const a2 = a.push({ k: 5, v: 0 }, 5).set(0, { k: 1, v: 9 });
        const b2 = b.set(1, { k: 2, v: 7 }).removeAt(0);
        expect([...base]).toEqual([{ k: 1, v: 0 }, { k: 2, v: 0 }]);
        expect([...a].map((x) => x.k)).toEqual([1, 2, 3]);
        expect([...b].map((x) => x.k)).toEqual([1, 2, 4]);
        expect([...a2]).toEqual([{ k: 1, v: 9 }, { k: 2, v: 0 }, { k: 3, v: 0 }, { k: 5, v: 0 }]);
        expect([...b2]).toEqual([{ k: 2, v: 7 }, { k: 4, v: 0 }]);
        expect(b2.findHash(1)).toBe(-1);
        expect(a2.findHash(4)).toBe(-1);
      });
    }
  });

  it('an append to the newest version shares the arrays; a version compares and serialises as its own items', () => {
    const a = SharedLog.of([{ k: 1, v: 0 }], [1]);
    const b = a.push({ k: 2, v: 0 }, 2);
    const c = b.push({ k: 3, v: 0 }, 3);
    expect(b.items()).not.toBe(c.items()); // b is no longer the tip: a copy of its 2 items
    expect(b).toEqual(SharedLog.of([{ k: 1, v: 0 }, { k: 2, v: 0 }], [1, 2]));
    expect(b).not.toEqual(c);
    expect(JSON.stringify(b)).toBe('[{"k":1,"v":0},{"k":2,"v":0}]');
    // outside an edit, nothing is changed in place
    const d = c.set(0, { k: 1, v: 5 });
    expect(d).not.toBe(c);
    expect(c.at(0)).toEqual({ k: 1, v: 0 });
  });

  it('re-appending an equal item after an older version shares its slot; anything else copies', () => {
    const a = within(newEdit(), () => SharedLog.of([{ k: 1, v: 0 }], [1]));
    const b = a.push({ k: 2, v: 0 }, 2);
    const again = a.push({ k: 2, v: 0 }, 2, sameItem);
    expect(again.items()).toBe(b.items()); // both read the shared arrays, which end at slot 2
    const other = a.push({ k: 2, v: 1 }, 2, sameItem);
    expect([...other]).toEqual([{ k: 1, v: 0 }, { k: 2, v: 1 }]);
    expect([...b]).toEqual([{ k: 1, v: 0 }, { k: 2, v: 0 }]);
    // a change to the shared slot from a later edit copies, so b keeps its item
    const changed = within(newEdit(), () => again.set(1, { k: 2, v: 5 }));
    expect([...changed]).toEqual([{ k: 1, v: 0 }, { k: 2, v: 5 }]);
    expect([...b]).toEqual([{ k: 1, v: 0 }, { k: 2, v: 0 }]);
  });

  it('in the current edit, a slot of arrays it created changes in place; after the edit it is copied', () => {
    const e1 = newEdit();
    const a = within(e1, () => SharedLog.single({ k: 1, v: 0 }, 1).push({ k: 2, v: 0 }, 2));
    const b = within(e1, () => a.set(1, { k: 2, v: 1 }));
    expect(b).toBe(a);
    const c = within(newEdit(), () => a.set(1, { k: 2, v: 2 }));
    expect(c).not.toBe(a);
    expect(a.at(1)).toEqual({ k: 2, v: 1 });
    expect(c.at(1)).toEqual({ k: 2, v: 2 });
  });
});
