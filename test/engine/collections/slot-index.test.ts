/**
 * The hash index beside a ColumnLog (collections/slot-index.ts), through ColumnLog.find: every
 * version (log, n) finds exactly what a scan of its first n hashes finds, whichever versions
 * share the log's index and whatever was appended, changed or removed after it was kept. Logs
 * here grow well past the size at which the index is built and past the table's growth points.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newEdit } from '../../../src/engine/collections/edit.js';
import { ColumnLog } from '../../../src/engine/collections/shared-log-columns.js';
import { indexAdd, indexBuild, indexFind } from '../../../src/engine/collections/slot-index.js';
import { S } from '../../../src/engine/collections/column-log-numbers.js';
import { within } from './within.js';

interface Ver {
  readonly log: ColumnLog<string>;
  readonly n: number;
}

/** What a scan of version v's first n hashes finds from `from` on. */
function scan(v: Ver, h: number, from: number): number {
  for (let i = from; i < v.n; i++) if (v.log.hash(i) === (h | 0)) return i;
  return -1;
}

function expectFindsAsScan(v: Ver, probes: readonly number[]): void {
  for (const h of probes) {
    expect(v.log.find(h, 0, v.n)).toBe(scan(v, h, 0));
    // Every later occurrence too (collisions are found in slot order).
    for (let i = scan(v, h, 0); i >= 0; i = scan(v, h, i + 1)) expect(v.log.find(h, i + 1, v.n)).toBe(scan(v, h, i + 1));
  }
}

/** A log of `n` slots with hashes hashOf(i), appended one by one at the tip in one edit. */
function logOf(n: number, hashOf: (i: number) => number): ColumnLog<string> {
  return within(newEdit(), () => {
    let log = ColumnLog.single('r0', hashOf(0), 0, 1, -1, 0);
    for (let i = 1; i < n; i++) log = log.append(i, `r${i}`, hashOf(i), i, 1, -1, 0);
    return log;
  });
}

describe('slot index', () => {
  it('an older version does not see slots appended after it, in the log it shares', () => {
    const log = logOf(200, (i) => i * 7919);
    expect(log.length).toBe(200);
    for (const n of [1, 15, 16, 17, 31, 32, 33, 64, 100, 199, 200]) {
      const v = { log, n };
      expect(log.find(199 * 7919, 0, n)).toBe(n === 200 ? 199 : -1);
      expect(log.find(40 * 7919, 0, n)).toBe(n > 40 ? 40 : -1);
      expectFindsAsScan(v, [0, 7919, 15 * 7919, 16 * 7919, 99 * 7919, 12345]);
    }
  });

  it('a hash shared by several slots (a collision) finds each in slot order, within the version', () => {
    // Every third slot has hash 42; the others are distinct.
    const log = logOf(120, (i) => (i % 3 === 0 ? 42 : 1000 + i));
    const found: number[] = [];
    for (let i = log.find(42, 0, 120); i >= 0; i = log.find(42, i + 1, 120)) found.push(i);
    expect(found).toEqual(Array.from({ length: 40 }, (_, k) => 3 * k));
    expect(log.find(42, 50, 60)).toBe(51);
    expect(log.find(42, 58, 60)).toBe(-1);
    expectFindsAsScan({ log, n: 77 }, [42, 1001, 1076, 1077]);
  });

  it('a removal copies: the new version and the older one each find their own slots', () => {
    const log = logOf(80, (i) => i);
    const v80 = { log, n: 80 };
    expect(log.find(10, 0, 80)).toBe(10);
    const removed = within(newEdit(), () => log.removeAt(80, 10));
    const after = { log: removed, n: 79 };
    expect(removed.find(10, 0, 79)).toBe(-1);
    expect(removed.find(11, 0, 79)).toBe(10);
    expect(removed.find(79, 0, 79)).toBe(78);
    // Stepping back: the version before the removal is unchanged, index and all.
    expect(log.find(10, 0, 80)).toBe(10);
    expect(log.find(79, 0, 80)).toBe(79);
    expectFindsAsScan(v80, [0, 10, 11, 40, 79, 80]);
    expectFindsAsScan(after, [0, 10, 11, 40, 79, 80]);
    // Appending to the copy extends its own index, not the old log's.
    const grown = within(newEdit(), () => removed.append(79, 'x', 10, 500, 1, -1, 0));
    expect(grown.find(10, 0, 80)).toBe(79);
    expect(log.find(10, 0, 80)).toBe(10);
  });

  it('a branch from an older version copies and is searched on its own', () => {
    const log = logOf(60, (i) => i);
    const branch = within(newEdit(), () => log.append(30, 'other', 59, 999, 1, -1, 0));
    expect(branch).not.toBe(log);
    expect(branch.find(59, 0, 31)).toBe(30);
    expect(log.find(59, 0, 31)).toBe(-1);
    expect(log.find(59, 0, 60)).toBe(59);
  });

  it('same finds as a scan for any hashes, versions and collisions (model)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer(), fc.constant(-1)), { minLength: 1, maxLength: 400 }), fc.nat(), (hashes, cut) => {
        const log = logOf(hashes.length, (i) => hashes[i] as number);
        const probes = [...new Set(hashes.slice(0, 30)), 41, 2 ** 31 - 1];
        expectFindsAsScan({ log, n: hashes.length }, probes);
        expectFindsAsScan({ log, n: 1 + (cut % hashes.length) }, probes);
      }),
      { numRuns: 200 },
    );
  });

  it('the table in the spare words: two cells per slot of capacity, stale cells cleared on a rebuild', () => {
    const ints = new Int32Array(S * 300);
    // Stale cells, as a copied array carries them.
    for (let j = 0; j < 300; j++) ints[S * j + 3] = -1;
    for (let i = 0; i < 300; i++) ints[S * i] = i % 5 === 0 ? -7 : i;
    indexBuild(ints, 1);
    for (let i = 1; i < 300; i++) indexAdd(ints, i);
    for (let i = 1; i < 300; i++) if (i % 5 !== 0) expect(indexFind(ints, i, 0, 300)).toBe(i);
    expect(indexFind(ints, -7, 0, 300)).toBe(0);
    expect(indexFind(ints, -7, 1, 300)).toBe(5);
    expect(indexFind(ints, -7, 296, 300)).toBe(-1);
    expect(indexFind(ints, -7, 295, 300)).toBe(295);
    expect(indexFind(ints, -7, 0, 0)).toBe(-1);
    expect(indexFind(ints, 300, 0, 300)).toBe(-1);
    // The hash, seq and stamp words are left alone.
    for (let i = 0; i < 300; i++) expect(ints[S * i]).toBe(i % 5 === 0 ? -7 : i);
  });
});
