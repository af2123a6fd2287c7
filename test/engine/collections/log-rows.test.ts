/**
 * A ColumnLog's row column in pieces that never move (collections/log-rows.ts): reads, writes
 * and appends agree with a plain array at every length, across the piece boundaries (16, 32, 64,
 * ...), and a log long enough to need pieces still copies, branches and removes correctly.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FIRST, flatRows, pushRow, rowAt, setRowAt, splitRows, type Pieces } from '../../../src/engine/collections/log-rows.js';
import { ColumnLog } from '../../../src/engine/collections/shared-log-columns.js';

describe('log rows in pieces', () => {
  it('reads, sets and appends like a flat array, at every length up to 600', () => {
    fc.assert(
      fc.property(fc.nat(600), fc.array(fc.tuple(fc.nat(), fc.string()), { maxLength: 40 }), (n, sets) => {
        const first: string[] = [];
        let more: Pieces<string> = null;
        const model: string[] = [];
        for (let i = 0; i < n; i++) {
          more = pushRow(first, more, i, `r${i}`);
          model.push(`r${i}`);
        }
        for (const [at, v] of sets) {
          if (n === 0) break;
          setRowAt(first, more, at % n, v);
          model[at % n] = v;
        }
        for (let i = 0; i < n; i++) expect(rowAt(first, more, i)).toBe(model[i]);
        expect(flatRows(first, more, n)).toEqual(model);
        expect(first.length).toBe(Math.min(n, FIRST));
        // Splitting a flat copy gives the same reads.
        const flat = model.slice();
        const split = splitRows(flat);
        for (let i = 0; i < n; i++) expect(rowAt(flat, split, i)).toBe(model[i]);
      }),
      { numRuns: 200 },
    );
  });

  it('pieces double in size and are never reallocated', () => {
    const first: number[] = [];
    let more: Pieces<number> = null;
    const seen: number[][] = [];
    for (let i = 0; i < 1000; i++) {
      more = pushRow(first, more, i, i);
      if (more !== null && !seen.includes(more[more.length - 1]!)) seen.push(more[more.length - 1]!);
    }
    expect(seen.map((p) => p.length)).toEqual([16, 32, 64, 128, 256, 512]);
    // The pieces first made are the ones still held.
    expect(more).toEqual(seen);
    expect(more!.every((p, k) => p === seen[k])).toBe(true);
  });

  it('a long ColumnLog: a copy, a branch, a set and a removal past the first piece', () => {
    let log = ColumnLog.single('r0', 0, 0, 1, -1, 0);
    for (let i = 1; i < 200; i++) log = log.append(i, `r${i}`, i, i, 1, -1, 0);
    const rows = (l: ColumnLog<string>, n: number) => Array.from({ length: n }, (_, i) => l.row(i));
    const all = Array.from({ length: 200 }, (_, i) => `r${i}`);
    expect(rows(log, 200)).toEqual(all);
    // A branch at 100 appends its own row; the first log keeps its slot 100.
    const branch = log.append(100, 'b', 999, 999, 1, -1, 0);
    expect(branch).not.toBe(log);
    expect(rows(branch, 101)).toEqual([...all.slice(0, 100), 'b']);
    expect(log.row(100)).toBe('r100');
    const removed = log.removeAt(200, 70);
    expect(rows(removed, 199)).toEqual(all.filter((_, i) => i !== 70));
    expect(removed.hash(70)).toBe(71);
    expect(removed.find(150, 0, 199)).toBe(149);
    const set = log.set(200, 150, 'x', 2, -1, 0);
    expect(set.row(150)).toBe('x');
    expect(set.count(150)).toBe(2);
    expect(log.row(150)).toBe('r150');
  });
});
