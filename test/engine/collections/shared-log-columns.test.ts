/**
 * ColumnLog (collections/shared-log-columns.ts): records stored as columns, versions are pairs
 * (log, n). As for SharedLog: (1) every operation gives the same content as a plain array of
 * records, (2) a version kept when an edit ended (a checkpoint) never changes afterwards, and
 * (3) versions branching from one log never see each other's appends or changes. The numbers
 * vary so that each lazy column (a constant until two records differ) is materialized at every
 * point, with values that need a double (times, -0).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newEdit, type Edit } from '../../../src/engine/collections/edit.js';
import { ColumnLog } from '../../../src/engine/collections/shared-log-columns.js';
import { within } from './within.js';

interface Rec {
  readonly row: string;
  readonly h: number;
  readonly seq: number;
  readonly count: number;
  readonly assoc: number;
  readonly at: number;
  readonly stamp: number;
}

interface Ver {
  readonly log: ColumnLog<string>;
  readonly n: number;
}

const num = fc.oneof(fc.constant(1), fc.constant(0), fc.integer({ min: -3, max: 3 }), fc.constant(-0), fc.constant(1.7e12 + 0.5), fc.constant(2 ** 40));
const rec: fc.Arbitrary<Omit<Rec, 'row'>> = fc.record({
  // 515 and 1027 share their low bits with 3.
  h: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(515), fc.constant(1027)),
  seq: fc.oneof(fc.nat(1000), fc.constant(2 ** 33)),
  count: num,
  assoc: num,
  at: num,
  stamp: fc.oneof(fc.constant(0), fc.nat(5), fc.constant(2 ** 33)),
});

type Op = { push: Omit<Rec, 'row'> } | { set: number; r: Omit<Rec, 'row'> } | { remove: number } | { freeze: true } | { branch: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ push: rec }) },
  { weight: 3, arbitrary: fc.record({ set: fc.nat(), r: rec }) },
  { weight: 1, arbitrary: fc.record({ remove: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ freeze: true as const }) },
  { weight: 1, arbitrary: fc.record({ branch: fc.nat() }) },
);

function contentOf(v: Ver): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < v.n; i++) out.push({ row: v.log.row(i), h: v.log.hash(i), seq: v.log.seq(i), count: v.log.count(i), assoc: v.log.assoc(i), at: v.log.at(i), stamp: v.log.stamp(i) });
  return out;
}

/** Rows are new strings per push, so that a replayed push is told apart by its numbers only when they differ. */
function apply(o: Op, v: Ver, m: Rec[], rowOf: (r: Omit<Rec, 'row'>) => string): [Ver, Rec[]] {
  if ('push' in o) {
    let r: Rec = { row: rowOf(o.push), ...o.push };
    const shared = v.n < v.log.length;
    const log = v.log.append(v.n, r.row, r.h, r.seq, r.count, r.assoc, r.at, r.stamp);
    // A slot shared with an equal record (a replay appending what the first run appended) keeps
    // the stamp it was first written with: stamps are the first lineage's (state/record-store.ts).
    if (shared && log === v.log) r = { ...r, stamp: v.log.stamp(v.n) };
    return [{ log, n: v.n + 1 }, [...m, r]];
  }
  if (m.length === 0) return [v, m];
  if ('set' in o) {
    const i = o.set % m.length;
    const old = m[i] as Rec;
    const r = { ...old, row: `${old.row}'`, count: o.r.count, assoc: o.r.assoc, at: o.r.at };
    return [{ log: v.log.set(v.n, i, r.row, r.count, r.assoc, r.at), n: v.n }, m.map((y, j) => (j === i ? r : y))];
  }
  if ('remove' in o) {
    const i = o.remove % m.length;
    return m.length === 1 ? [v, m] : [{ log: v.log.removeAt(v.n, i), n: v.n - 1 }, m.filter((_, j) => j !== i)];
  }
  return [v, m];
}

/** Hashes to look for: all the generator makes, and some it never makes (7, and 2051 = 3 mod 512). */
const PROBES = [0, 1, 2, 3, 4, 5, 6, 7, 515, 1027, 2051];

function check(v: Ver, m: readonly Rec[]): void {
  expect(contentOf(v)).toEqual(m);
  for (let i = 0; i < m.length; i++) {
    const h = (m[i] as Rec).h;
    expect(v.log.find(h, i + 1, v.n)).toBe(m.findIndex((x, j) => j > i && x.h === h));
  }
  // Absent hashes too: a version reads a prefix of a log that may hold them further on.
  for (const h of PROBES) expect(v.log.find(h, 0, v.n)).toBe(m.findIndex((x) => x.h === h));
}

describe('column log', () => {
  it('same content as a model, and frozen versions never change (edits, branches, edit-less work)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.array(op, { maxLength: 60 }), fc.boolean(), (ops, later, sharedRows) => {
        // sharedRows: equal records get the same row string, so that a branch re-appending what
        // the first run appended shares the slot; else every push is a new row.
        let fresh = 0;
        const rowOf = (r: Omit<Rec, 'row'>): string => (sharedRows ? `r${r.h}.${r.seq}` : `r${fresh++}`);
        const first: Rec = { row: 'first', h: 1, seq: 0, count: 1, assoc: -1, at: 0, stamp: 0 };
        let edit: Edit = newEdit();
        let v: Ver = within(edit, () => ({ log: ColumnLog.single(first.row, first.h, first.seq, first.count, first.assoc, first.at), n: 1 }));
        let m: Rec[] = [first];
        const kept: { v: Ver; m: Rec[]; content: Rec[] }[] = [];
        for (const o of ops) {
          if ('freeze' in o) {
            kept.push({ v, m, content: contentOf(v) });
            edit = newEdit();
          } else if ('branch' in o) {
            if (kept.length === 0) continue;
            const base = kept[o.branch % kept.length] as (typeof kept)[number];
            [v, m] = [base.v, base.m];
            edit = newEdit();
          } else {
            [v, m] = within(edit, () => apply(o, v, m, rowOf));
          }
        }
        check(v, m);
        for (const [i, base] of kept.slice(0, 4).entries()) {
          let n = base.v;
          let nm = base.m;
          const e2 = i % 2 === 0 ? newEdit() : null;
          for (const o of later) if (!('freeze' in o) && !('branch' in o)) [n, nm] = within(e2, () => apply(o, n, nm, rowOf));
          check(n, nm);
        }
        for (const k of kept) expect(contentOf(k.v)).toEqual(k.content);
        check(v, m);
      }),
      { numRuns: 300 },
    );
  });

  it('nAt counts the leading slots with a stamp up to a bound; extend false copies instead of pushing', () => {
    let log = ColumnLog.single('a', 1, 0, 1, -1, 0, 1);
    for (const [i, st] of [[1, 1], [2, 2], [3, 5]] as const) log = log.append(i, `r${i}`, i, i, 1, -1, 0, st);
    expect([0, 1, 2, 3, 4, 5, 9].map((b) => log.nAt(b))).toEqual([0, 2, 3, 3, 3, 4, 4]);
    // set() keeps a slot's stamp.
    const same = within(newEdit(), () => log.set(4, 1, 'x', 2, -1, 0));
    expect(same.stamp(1)).toBe(1);
    const copy = log.append(4, 'b', 9, 9, 1, -1, 0, 6, false);
    expect(copy).not.toBe(log);
    expect(log.length).toBe(4);
    expect([copy.length, copy.row(4), copy.stamp(4), copy.nAt(5)]).toEqual([5, 'b', 6, 4]);
  });

  it('an append to the newest version is in place; re-appending the same record after an older version shares the slot', () => {
    const a = within(newEdit(), () => ColumnLog.single('a', 1, 0, 1, -1, 5));
    const b = a.append(1, 'b', 2, 1, 1, -1, 5);
    expect(b).toBe(a);
    expect(a.length).toBe(2);
    // The same record (same row object and numbers) after version 1: shared.
    expect(a.append(1, 'b', 2, 1, 1, -1, 5)).toBe(a);
    // Any difference copies, and the first log keeps its slot.
    for (const [row, h, seq, count, assoc, at] of [['c', 2, 1, 1, -1, 5], ['b', 3, 1, 1, -1, 5], ['b', 2, 2, 1, -1, 5], ['b', 2, 1, 2, -1, 5], ['b', 2, 1, 1, 0, 5], ['b', 2, 1, 1, -1, 6]] as const) {
      const c = a.append(1, row, h, seq, count, assoc, at);
      expect(c).not.toBe(a);
      expect([c.row(1), c.hash(1), c.seq(1), c.count(1), c.assoc(1), c.at(1)]).toEqual([row, h, seq, count, assoc, at]);
      expect([a.row(1), a.hash(1), a.seq(1), a.count(1), a.assoc(1), a.at(1)]).toEqual(['b', 2, 1, 1, -1, 5]);
    }
  });

  it('in the current edit, a slot of a log it created changes in place; after the edit it is copied', () => {
    const e1 = newEdit();
    const a = within(e1, () => ColumnLog.single('a', 1, 0, 1, -1, 0).append(1, 'b', 2, 1, 1, -1, 0));
    expect(within(e1, () => a.set(2, 1, 'b', 2, 0, 0))).toBe(a);
    expect(a.count(1)).toBe(2);
    const c = within(newEdit(), () => a.set(2, 1, 'b', 3, 0, 0));
    expect(c).not.toBe(a);
    expect([a.count(1), c.count(1)]).toEqual([2, 3]);
    // outside an edit nothing changes in place
    expect(a.set(2, 0, 'a', 1, 7, 0)).not.toBe(a);
    expect(a.assoc(0)).toBe(-1);
  });

  it('rejects slots outside the version', () => {
    const a = ColumnLog.single('a', 1, 0, 1, -1, 0);
    expect(() => a.set(1, 1, 'a', 1, 1, 0)).toThrow(RangeError);
    expect(() => a.removeAt(1, 2)).toThrow(RangeError);
    expect(() => a.set(2, 0, 'a', 1, 1, 0)).toThrow(RangeError);
  });
});
