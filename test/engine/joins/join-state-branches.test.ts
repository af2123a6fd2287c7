/**
 * Join-state buckets share their entries between versions (collections/shared-log.ts): a kept
 * state (a checkpoint) and the states after it read one growing array. A run that goes back to a
 * kept state (a seek's replay, a what-if edit) must never see what the first run added after it,
 * and the first run must never see the branch's rows, in or out of transient edits.
 */
import { describe, expect, it } from 'vitest';
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';
import type { JoinState } from '../../../src/engine/state/record-state.js';
import type { Collector } from '../../../src/engine/types.js';
import type { StateLayout } from '../../../src/planner/plan.js';
import type { Row, RowKind } from '../../../src/values/types.js';
import { leftJoinHarness, type Harness } from './regular-join-harness.js';

const LAYOUTS: (StateLayout | undefined)[] = [undefined, { kind: 'InputSideHasUniqueKey', uniqueKey: [1] }];

/** Right rows, each step in a fresh edit when `edit` (a bulk run between two checkpoints). */
function run(h: Harness<JoinState>, edit: boolean, rows: readonly Row[], kind: RowKind = '+I'): void {
  const quiet: Collector = { emit: () => undefined, trace: () => undefined, flag: () => undefined, tracing: false };
  const prev = useEdit(edit ? newEdit() : null);
  try {
    // The same row objects each time: a replay appends exactly what the first run appended.
    for (const r of rows) h.state = h.op.processElement(h.state, 1, kind, r, { procTime: 0, watermark: Number.NEGATIVE_INFINITY }, quiet);
  } finally {
    useEdit(prev);
  }
}

function rightRows(h: Harness<JoinState>): string[] {
  return h.describe(1).entries.map((e) => `${e.row} ${e.tags.join(' ')}`.trim());
}

const r = (id: number, v: string): Row => ['hot', id, v];

describe('join-state buckets: branches from a kept state', () => {
  for (const layout of LAYOUTS) {
    for (const edit of [true, false]) {
      it(`${layout?.kind ?? 'InputSideHasNoUniqueKey'}, ${edit ? 'in transient edits' : 'without edits'}: a branch and the first run never see each other's rows`, () => {
        const h = leftJoinHarness(layout);
        const base = Array.from({ length: 10 }, (_, i) => r(i, `a${i}`));
        run(h, edit, base);
        const kept = h.state;
        const keptJson = JSON.stringify(kept);
        const keptRows = rightRows(h);
        const shown = (id: number, v: string): string => `+I[hot, ${id}, ${v}]${layout === undefined ? ' count=1' : ''}`;

        // The first run: two new rows, then a row that is stored already (a count or an overwrite).
        const first = [r(10, 'first'), r(11, 'first'), base[3] as Row];
        run(h, edit, first);
        const firstState = h.state;
        const firstRows = rightRows(h);

        // A replay: the same first row (shared), then different ones.
        h.state = kept;
        run(h, edit, [first[0] as Row, r(11, 'branch'), r(12, 'branch')]);
        const branchRows = rightRows(h);
        expect(branchRows).toEqual([...keptRows, shown(10, 'first'), shown(11, 'branch'), shown(12, 'branch')]);

        // A what-if: another row first, and a retraction of a kept row.
        h.state = kept;
        run(h, edit, [r(20, 'whatif')]);
        run(h, edit, [base[5] as Row], '-D');
        expect(rightRows(h)).toEqual([...keptRows.filter((x) => x !== shown(5, 'a5')), shown(20, 'whatif')]);

        h.state = firstState;
        expect(rightRows(h)).toEqual(firstRows);
        h.state = kept;
        expect(rightRows(h)).toEqual(keptRows);
        expect(JSON.stringify(kept)).toBe(keptJson);
        // The first run's rows: a duplicate is counted in its place; an overwrite by unique key keeps
        // its place too (a HashMap put on an existing key does not move it).
        const firstExpected =
          layout === undefined
            ? [...keptRows.map((x) => (x === shown(3, 'a3') ? '+I[hot, 3, a3] count=2' : x)), shown(10, 'first'), shown(11, 'first')]
            : [...keptRows, shown(10, 'first'), shown(11, 'first')];
        expect(firstRows).toEqual(firstExpected);
      });
    }
  }
});
