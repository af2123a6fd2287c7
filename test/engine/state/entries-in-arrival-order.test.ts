/**
 * A side's entries in arrival order, as the state pane reads them (record-state.ts,
 * entriesInArrivalOrder): the same entries, in the same order, as every bucket's entries sorted by
 * sequence number, whether the side is small (sorted) or big (placed by seq), with log buckets and
 * big map buckets, after retractions and updates, read from the start or a window at a time.
 */
import { describe, expect, it } from 'vitest';
import { entriesInArrivalOrder, type JoinEntry, type JoinState } from '../../../src/engine/state/record-state.js';
import type { Side } from '../../../src/planner/plan.js';
import { WM_MIN, type Collector } from '../../../src/engine/types.js';
import type { RowKind, Value } from '../../../src/values/types.js';
import { leftJoinHarness } from '../joins/regular-join-harness.js';

function model(state: JoinState, side: Side): JoinEntry[] {
  const all: JoinEntry[] = [];
  state.sides[side].forEachBucket((entries) => all.push(...entries));
  return all.sort((a, b) => a.seq - b.seq);
}

function inOrder(state: JoinState, side: Side): JoinEntry[] {
  const e = entriesInArrivalOrder(state, side);
  return Array.from({ length: e.size }, (_, i) => e.at(i));
}

describe('a side\'s entries in arrival order', () => {
  for (const [name, rows] of [['small (sorted)', 300], ['big (placed by sequence number)', 9000]] as const) {
    it(`${name}: the sorted entries of every bucket, after retractions and updates`, () => {
      const h = leftJoinHarness();
      // The operator straight (the harness checks each state is unchanged by stringifying it).
      const quiet: Collector = { emit: () => undefined, trace: () => undefined, flag: () => undefined, tracing: false };
      let state = h.op.init();
      const put = (side: Side, kind: RowKind, ...row: Value[]): void => {
        state = h.op.processElement(state, side, kind, row, { procTime: 0, watermark: WM_MIN }, quiet);
      };
      // Keys of very different sizes: most buckets stay logs, key k0 grows past a log into a map.
      for (let i = 0; i < rows; i++) {
        const key = i % 3 === 0 ? 'k0' : `k${i % 97}`;
        put(1, '+I', key, i, `v${i % 5}`);
        if (i % 7 === 3) put(0, '+I', `l${i % 41}`, i, 'l'); // no match: one padded row each
        if (i % 11 === 5) put(1, '-D', (i - 5) % 3 === 0 ? 'k0' : `k${(i - 5) % 97}`, i - 5, `v${(i - 5) % 5}`);
        if (i % 13 === 0) put(1, '+I', key, i, `v${i % 5}`); // a second copy: count=2
      }
      for (const side of [0, 1] as const) {
        const want = model(state, side);
        expect(want.length).toBeGreaterThan(side === 0 ? rows / 8 : rows / 2);
        expect(inOrder(state, side)).toEqual(want);
        // A window read alone, as the pane reads it: the first rows come from a selection of the
        // lowest seqs, rows past it from the whole side in order; either may be made first.
        for (const from of [0, 500, 1010, want.length - 20, 3]) {
          const view = entriesInArrivalOrder(state, side);
          for (let i = Math.max(0, from); i < Math.min(from + 20, want.length); i++) expect(view.at(i)).toEqual(want[i]);
        }
      }
      // The big side is past the size from which entries are placed, not sorted.
      if (rows > 4096) expect(model(state, 1).length).toBeGreaterThan(4096);
      const view = h.op.describe(state, 1, { procTime: 0, watermark: WM_MIN });
      expect(view.size).toBe(model(state, 1).length);
      expect(view.entryAt(view.size - 1)).toEqual(view.entries[view.size - 1]);
    });
  }
});
