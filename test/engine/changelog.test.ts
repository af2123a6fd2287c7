import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clEachRow, clEquals, clGet, clHasRetraction, clPush, clPushPair, clSlice, clToArray, emptyChangelog, type Changelog, type PairLayout } from '../../src/engine/changelog.js';
import type { Row, RowKind } from '../../src/values/types.js';

const push = (c: Changelog, v: number, kind: RowKind = '+I', rule = 'match'): Changelog => clPush(c, kind, [v, `r${v}`], v, rule);
const values = (c: Changelog): unknown[] => clToArray(c).map((e) => e.row[0]);

describe('changelog versions share one log', () => {
  it('reads back rows with kind, rule and step', () => {
    let c = emptyChangelog(2);
    c = clPush(c, '+I', [1, 'a'], 3, 'match');
    c = clPush(c, '-D', [2, null], 4, 'unpad');
    expect(clToArray(c).map((e) => [e.kind, e.row, e.step, e.why.rule])).toEqual([
      ['+I', [1, 'a'], 3, 'match'],
      ['-D', [2, null], 4, 'unpad'],
    ]);
    expect(clGet(c, 1).row).toEqual([2, null]);
    expect(clSlice(c, -5, 1).map((e) => e.row[0])).toEqual([1]);
    expect(() => clGet(c, 2)).toThrow(RangeError);
  });

  it('an older version never sees rows pushed after it, on the tip or on a branch', () => {
    const base = push(push(emptyChangelog(2), 1), 2);
    const tip = push(base, 3);
    const branch = push(base, 30); // base is no longer the tip: a new segment
    const branch2 = push(push(branch, 40), 50);
    const tip2 = push(tip, 4);
    expect(values(base)).toEqual([1, 2]);
    expect(values(tip)).toEqual([1, 2, 3]);
    expect(values(branch)).toEqual([1, 2, 30]);
    expect(values(branch2)).toEqual([1, 2, 30, 40, 50]);
    expect(values(tip2)).toEqual([1, 2, 3, 4]);
    // A branch off a branch, below the branch's own start.
    const early = push(push(emptyChangelog(2), 1), 7);
    expect(values(early)).toEqual([1, 7]);
  });

  it('crosses chunk boundaries', () => {
    let c = emptyChangelog(2);
    const n = 70_000; // many chunks of 4096 / 4 = 1024 rows
    const mid: Changelog[] = [];
    for (let i = 0; i < n; i++) {
      c = push(c, i);
      if (i === 20_000) mid.push(c);
    }
    expect(c.n).toBe(n);
    expect(clSlice(c, 16_382, 16_386).map((e) => e.row[0])).toEqual([16_382, 16_383, 16_384, 16_385]);
    const b = push(mid[0]!, -1);
    expect(clSlice(b, 19_999, 30_000).map((e) => e.row[0])).toEqual([19_999, 20_000, -1]);
  });

  it('equality is by rows, not by layout; toEqual uses it', () => {
    const a = push(push(emptyChangelog(2), 1), 2);
    const shared = push(emptyChangelog(2), 1);
    push(shared, 9); // shared's segment now holds more than b will see
    const b = push(shared, 2);
    expect(clEquals(a, b)).toBe(true);
    expect(a).toEqual(b);
    expect({ changelog: a }).toEqual({ changelog: b });
    expect(push(a, 3)).not.toEqual(push(b, 4));
    expect(push(a, 3, '-D')).not.toEqual(push(b, 3, '+I'));
    expect(push(a, 3, '+I', 'pad')).not.toEqual(push(b, 3, '+I', 'match'));
    expect(a).not.toEqual(push(a, 3));
    expect(JSON.parse(JSON.stringify(b))).toEqual({ n: 2, width: 2, rows: JSON.parse(JSON.stringify(clToArray(a))) });
  });

  it('any interleaving of pushes on any versions reads as a list model (property)', () => {
    type Op = { from: number; v: number };
    fc.assert(
      fc.property(fc.array(fc.record({ from: fc.nat(), v: fc.integer() }), { maxLength: 200 }), (ops: Op[]) => {
        const versions: Changelog[] = [emptyChangelog(2)];
        const model: Row[][] = [[]];
        for (const op of ops) {
          const i = op.from % versions.length;
          const kind = op.v % 7 === 0 ? '-D' : op.v % 5 === 0 ? '-U' : op.v % 3 === 0 ? '+U' : '+I';
          versions.push(clPush(versions[i]!, kind, [op.v, null], 0, 'r'));
          model.push([...model[i]!, [op.v, null]]);
        }
        versions.forEach((c, i) => {
          expect(clToArray(c).map((e) => e.row)).toEqual(model[i]);
          // The row-by-row reader and the retraction scan read the same rows and kinds.
          const each: [string, Row][] = [];
          clEachRow(c, (kind, row) => each.push([kind, row]));
          expect(each).toEqual(clToArray(c).map((e) => [e.kind, e.row]));
          // Read into one reused row, copied here: the same rows.
          const reused: [string, Row][] = [];
          clEachRow(c, (kind, row) => reused.push([kind, [...row]]), true);
          expect(reused).toEqual(each);
          expect(clHasRetraction(c)).toBe(each.some(([k]) => k === '-U' || k === '-D'));
        });
      }),
    );
  });

  // Pair rows: the left and right input rows kept by reference, projected on read.
  const layout: PairLayout = { left: 2, cols: [3, 0, 2] }; // SELECT r1, l0, r0

  it('pair rows read as the projection of the joined row, null-padded on a missing side', () => {
    let c = emptyChangelog(3, layout);
    c = clPushPair(c, '+I', [1, 'a'], ['x', 10], 5, 'match');
    c = clPush(c, '-D', ['v', 'w', 'z'], 6, 'unpad');
    c = clPushPair(c, '+I', [2, 'b'], undefined, 7, 'pad');
    c = clPushPair(c, '-D', undefined, ['y', null], 8, 'retract');
    expect(clToArray(c).map((e) => [e.kind, e.row, e.step, e.why.rule])).toEqual([
      ['+I', [10, 1, 'x'], 5, 'match'],
      ['-D', ['v', 'w', 'z'], 6, 'unpad'],
      ['+I', [null, 2, null], 7, 'pad'],
      ['-D', [null, null, 'y'], 8, 'retract'],
    ]);
    const reused: unknown[] = [];
    clEachRow(c, (kind, row) => reused.push([kind, [...row]]), true);
    expect(reused).toEqual([
      ['+I', [10, 1, 'x']],
      ['-D', ['v', 'w', 'z']],
      ['+I', [null, 2, null]],
      ['-D', [null, null, 'y']],
    ]);
    // Equal to the same rows pushed as values.
    let v = emptyChangelog(3);
    for (const e of clToArray(c)) v = clPush(v, e.kind, e.row, e.step, e.why.rule);
    expect(c).toEqual(v);
    expect(clPushPair(c, '+I', [3, 'c'], ['q', 1], 9, 'match')).toEqual(clPush(v, '+I', [1, 3, 'q'], 9, 'match'));
    expect(clPushPair(c, '+I', [3, 'c'], ['q', 1], 9, 'match')).not.toEqual(clPush(v, '+I', [2, 3, 'q'], 9, 'match'));
  });

  it('pairs and value rows of any widths, across chunks and branches, read as a list model (property)', () => {
    type Op = { from: number; v: number; pair: boolean };
    const op = fc.record({ from: fc.oneof(fc.constant(0), fc.nat()), v: fc.integer(), pair: fc.boolean() });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops: Op[]) => {
        const versions: Changelog[] = [emptyChangelog(3, layout)];
        const model: Row[][] = [[]];
        for (const o of ops) {
          // from counts back from the newest version: mostly appends at the tip, some branches.
          const i = versions.length - 1 - (o.from % Math.min(versions.length, 5));
          const c = versions[i]!;
          if (o.pair) versions.push(clPushPair(c, '+I', [o.v, 'l'], [`r${o.v}`, o.v + 1], o.v, 'm'));
          else versions.push(clPush(c, '+I', [o.v, null, 'x'], o.v, 'm'));
          model.push([...model[i]!, o.pair ? [o.v + 1, o.v, `r${o.v}`] : [o.v, null, 'x']]);
        }
        const check = [versions.length - 1, Math.floor(versions.length / 2), 0];
        for (const i of check) {
          expect(clToArray(versions[i]!).map((e) => e.row)).toEqual(model[i]);
          const reused: Row[] = [];
          clEachRow(versions[i]!, (_kind, row) => reused.push([...row]), true);
          expect(reused).toEqual(model[i]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
