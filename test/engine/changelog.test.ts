import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clEquals, clGet, clPush, clSlice, clToArray, emptyChangelog, type Changelog } from '../../src/engine/changelog.js';
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
          versions.push(clPush(versions[i]!, '+I', [op.v, null], 0, 'r'));
          model.push([...model[i]!, [op.v, null]]);
        }
        versions.forEach((c, i) => expect(clToArray(c).map((e) => e.row)).toEqual(model[i]));
      }),
    );
  });
});
