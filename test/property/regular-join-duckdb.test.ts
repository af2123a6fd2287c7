/**
 * Differential property test: for insert-only inputs, the regular join's final materialized
 * result (what `joinstep run --result` prints) equals DuckDB's batch join of the same rows, for
 * every join type, with NULL keys, duplicates and a residual condition.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { createOracle, type Oracle, type OracleValue } from './duckdb-oracle.js';

interface In {
  readonly side: 0 | 1;
  readonly k: string | null;
  readonly v: number;
}

const rowsArb = fc.array(
  fc.record({ side: fc.constantFrom(0 as const, 1 as const), k: fc.constantFrom('a', 'b', 'c', null), v: fc.integer({ min: 0, max: 5 }) }),
  { maxLength: 16 },
);

const JOINS = { inner: 'JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL JOIN' } as const;
type JoinType = keyof typeof JOINS;

function scenarioText(type: JoinType, residual: boolean, rows: readonly In[]): string {
  const cond = `l.k = r.k${residual ? ' AND l.v <= r.v' : ''}`;
  const sql = [
    "CREATE TABLE l (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'l', 'format' = 'json');",
    "CREATE TABLE r (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'r', 'format' = 'json');",
    `SELECT l.k, l.v, r.k AS rk, r.v AS rv FROM l ${JOINS[type]} r ON ${cond};`,
  ];
  const events = rows.map((r) => `  - { to: ${r.side === 0 ? 'l' : 'r'}, row: { k: ${r.k === null ? 'null' : r.k}, v: ${r.v} } }`);
  return `name: generated\nsql: |\n${sql.map((l) => `  ${l}`).join('\n')}\nevents:\n${events.length > 0 ? events.join('\n') : '  []'}\n`;
}

function joinstep(type: JoinType, residual: boolean, rows: readonly In[]): readonly string[] {
  const loaded = loadScenarioText('generated.yaml', scenarioText(type, residual, rows));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
  return runScenario(loaded.scenario).result;
}

let oracle: Oracle;
beforeAll(async () => {
  oracle = await createOracle();
});
afterAll(() => oracle.close());

describe('regular join == DuckDB batch join (insert-only input)', () => {
  it('final result equals the batch join, all join types', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.constantFrom<JoinType>('inner', 'left', 'right', 'full'), fc.boolean(), async (rows, type, residual) => {
        const side = (s: 0 | 1) => rows.filter((r) => r.side === s).map((r): OracleValue[] => [r.k, r.v]);
        const cols = [['k', 'VARCHAR'], ['v', 'INTEGER']] as const;
        const expected = await oracle.query(
          [
            { name: 'l', columns: cols, rows: side(0) },
            { name: 'r', columns: cols, rows: side(1) },
          ],
          `SELECT l.k, l.v, r.k, r.v FROM l ${JOINS[type]} r ON l.k = r.k${residual ? ' AND l.v <= r.v' : ''}`,
        );
        expect([...joinstep(type, residual, rows)]).toEqual(expected);
      }),
      { numRuns: 80 },
    );
  });

  it('the oracle itself sees NULL keys as non-matching (sanity check of the helper)', async () => {
    const cols = [['k', 'VARCHAR'], ['v', 'INTEGER']] as const;
    const rows = await oracle.query(
      [
        { name: 'l', columns: cols, rows: [[null, 1], ['a', 2]] },
        { name: 'r', columns: cols, rows: [[null, 3], ['a', 4]] },
      ],
      'SELECT l.k, l.v, r.k, r.v FROM l FULL JOIN r ON l.k = r.k',
    );
    expect(rows).toEqual(['[a, 2, a, 4]', '[null, 1, null, null]', '[null, null, null, 3]']);
  });
});
