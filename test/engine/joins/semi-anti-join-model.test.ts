/**
 * Model-based check of the semi / anti join: materializing what the operator emitted gives the
 * left rows that have (semi) or lack (anti) a match among the right rows as they stand.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSemiAntiJoin } from '../../../src/engine/joins/regular/semi-anti-join.js';
import type { Side } from '../../../src/planner/plan.js';
import type { Collector } from '../../../src/engine/types.js';
import type { Row, RowKind, Value } from '../../../src/values/types.js';
import { INT, planOf, STR } from './regular-join-harness.js';

const opArb = fc.record({
  side: fc.constantFrom<Side>(0, 1),
  del: fc.boolean(),
  pick: fc.nat(),
  key: fc.constantFrom('a', 'b', null),
  v: fc.integer({ min: 0, max: 2 }),
  kindBit: fc.boolean(),
});

describe('semi / anti join against a model', () => {
  for (const family of ['semi', 'anti'] as const) {
    it(`${family}: the materialized changelog is the filtered left input`, () => {
      fc.assert(
        fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
          const plan = planOf({
            family,
            joinType: 'inner',
            left: { alias: 'l', columns: [['k', STR], ['v', INT]], layout: { kind: 'InputSideHasNoUniqueKey' } },
            right: { alias: 'r', columns: [['k', STR], ['v', INT]], layout: { kind: 'InputSideHasNoUniqueKey' } },
            keys: [[0, 0]],
          });
          const op = createSemiAntiJoin(plan);
          let state = op.init();
          const inputs: [Row[], Row[]] = [[], []];
          const result = new Map<string, number>();
          const out: Collector = {
            tracing: true,
            trace: () => undefined,
            flag: () => undefined,
            emit: (kind, row) => {
              const key = JSON.stringify(row);
              const n = result.get(key) ?? 0;
              if (kind === '+I' || kind === '+U') result.set(key, n + 1);
              else {
                expect(n).toBeGreaterThan(0);
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
              row = rows.splice(o.pick % rows.length, 1)[0] as Row;
              kind = o.kindBit ? '-U' : '-D';
            } else {
              row = [o.key, o.v] as Value[];
              rows.push(row);
              kind = o.kindBit ? '+U' : '+I';
            }
            state = op.processElement(state, o.side, kind, row, { procTime: 0, watermark: 0 }, out);
          }
          const has = (l: Row): boolean => l[0] !== null && inputs[1].some((r) => r[0] === l[0]);
          const expected = inputs[0].filter((l) => has(l) === (family === 'semi')).map((l) => JSON.stringify(l)).sort();
          const got = [...result].flatMap(([k, n]) => Array.from({ length: n }, () => k)).sort();
          expect(got).toEqual(expected);
        }),
        { numRuns: 300 },
      );
    });
  }
});
