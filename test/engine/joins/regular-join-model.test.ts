/**
 * Model-based check of the regular join: for any valid changelog (retractions only of rows that
 * are there), materializing what the operator emitted gives exactly the SQL join of the inputs
 * as they stand, for every join type and flink-version, with NULL keys and duplicate rows.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRegularJoin } from '../../../src/engine/joins/regular/regular-join.js';
import type { FlinkVersion, JoinType, Side } from '../../../src/planner/plan.js';
import type { Collector } from '../../../src/engine/types.js';
import type { Row, RowKind, Value } from '../../../src/values/types.js';
import { INT, planOf, STR } from './regular-join-harness.js';

type Op = { side: Side; del: boolean; pick: number; key: string | null; v: number; kindBit: boolean };

const opArb: fc.Arbitrary<Op> = fc.record({
  side: fc.constantFrom<Side>(0, 1),
  del: fc.boolean(),
  pick: fc.nat(),
  key: fc.constantFrom('a', 'b', null),
  v: fc.integer({ min: 0, max: 2 }),
  kindBit: fc.boolean(),
});

/** The SQL join of two multisets on column 0 (NULL never equal), rows as JSON. */
function expectedJoin(t: JoinType, left: Row[], right: Row[]): string[] {
  const out: string[] = [];
  const matched = new Set<number>();
  left.forEach((l) => {
    let any = false;
    right.forEach((r, ri) => {
      if (l[0] !== null && l[0] === r[0]) {
        out.push(JSON.stringify([...l, ...r]));
        matched.add(ri);
        any = true;
      }
    });
    if (!any && (t === 'left' || t === 'full')) out.push(JSON.stringify([...l, null, null]));
  });
  if (t === 'right' || t === 'full') right.forEach((r, ri) => { if (!matched.has(ri)) out.push(JSON.stringify([null, null, ...r])); });
  return out.sort();
}

function run(t: JoinType, version: FlinkVersion, ops: Op[], tracing: boolean): { result: string[]; emitted: string[] } {
  const plan = planOf({
    joinType: t,
    left: { alias: 'l', columns: [['k', STR], ['v', INT]], layout: { kind: 'InputSideHasNoUniqueKey' } },
    right: { alias: 'r', columns: [['k', STR], ['v', INT]], layout: { kind: 'InputSideHasNoUniqueKey' } },
    keys: [[0, 0]],
    flinkVersion: version,
  });
  const op = createRegularJoin(plan);
  let state = op.init();
  const inputs: [Row[], Row[]] = [[], []];
  const result = new Map<string, number>();
  const emitted: string[] = [];
  const out: Collector = {
    tracing,
    trace: () => undefined,
    flag: () => undefined,
    emit: (kind, row) => {
      const key = JSON.stringify(row);
      emitted.push(kind + key);
      const n = result.get(key) ?? 0;
      if (kind === '+I' || kind === '+U') result.set(key, n + 1);
      else {
        expect(n, `retracting ${kind}${key} that is not in the result`).toBeGreaterThan(0);
        if (n === 1) result.delete(key);
        else result.set(key, n - 1);
      }
    },
  };
  for (const o of ops) {
    const rows = inputs[o.side];
    let kind: RowKind;
    let row: Row;
    if (o.del && rows.length > 0) {
      const i = o.pick % rows.length;
      row = rows[i] as Row;
      rows.splice(i, 1);
      kind = o.kindBit ? '-U' : '-D';
    } else {
      row = [o.key, o.v] as Value[];
      rows.push(row);
      kind = o.kindBit ? '+U' : '+I';
    }
    state = op.processElement(state, o.side, kind, row, { procTime: 0, watermark: 0 }, out);
  }
  const materialized = [...result].flatMap(([k, n]) => Array.from({ length: n }, () => k)).sort();
  expect(materialized).toEqual(expectedJoin(t, inputs[0], inputs[1]));
  return { result: materialized, emitted };
}

describe('regular join against a model', () => {
  for (const t of ['inner', 'left', 'right', 'full'] as const) {
    for (const version of ['2.0', '2.2', '2.4'] as const) {
      it(`${t} join, flink ${version}: the materialized changelog is the join of the inputs`, () => {
        fc.assert(fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => void run(t, version, ops, true)), { numRuns: 150 });
      });
    }
  }

  it('emits the same rows with tracing off', () => {
    fc.assert(
      fc.property(fc.constantFrom<JoinType>('inner', 'left', 'right', 'full'), fc.array(opArb, { maxLength: 40 }), (t, ops) => {
        expect(run(t, '2.3', ops, false).emitted).toEqual(run(t, '2.3', ops, true).emitted);
      }),
      { numRuns: 100 },
    );
  });
});
