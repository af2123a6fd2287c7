/**
 * Differential property test: for insert-only inputs, the semi and anti joins (IN, NOT IN,
 * EXISTS, NOT EXISTS, with and without a correlated residual) end with the rows DuckDB's batch
 * query gives, NULL keys included: NOT IN is null-aware (a NULL on either side leaves the row
 * out, an empty subquery keeps every row), EXISTS compares with `=`.
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
  fc.record({ side: fc.constantFrom(0 as const, 1 as const), k: fc.constantFrom('a', 'b', 'c', null), v: fc.integer({ min: 0, max: 4 }) }),
  { maxLength: 16 },
);

const FORMS = ['IN', 'NOT IN', 'EXISTS', 'NOT EXISTS'] as const;
type Form = (typeof FORMS)[number];

/** The WHERE clause, the same text for joinstep and DuckDB. */
function where(form: Form, residual: boolean): string {
  if (form === 'IN' || form === 'NOT IN') return `l.k ${form} (SELECT r.k FROM r${residual ? ' WHERE r.v > 1' : ''})`;
  return `${form} (SELECT 1 FROM r WHERE r.k = l.k${residual ? ' AND r.v <= l.v' : ''})`;
}

function scenarioText(form: Form, residual: boolean, rows: readonly In[]): string {
  const sql = [
    "CREATE TABLE l (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'l', 'format' = 'json');",
    "CREATE TABLE r (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'r', 'format' = 'json');",
    `SELECT l.k, l.v FROM l WHERE ${where(form, residual)};`,
  ];
  const events = rows.map((r) => `  - { to: ${r.side === 0 ? 'l' : 'r'}, row: { k: ${r.k === null ? 'null' : r.k}, v: ${r.v} } }`);
  return `name: generated\nsql: |\n${sql.map((l) => `  ${l}`).join('\n')}\nevents:\n${events.length > 0 ? events.join('\n') : '  []'}\n`;
}

function joinstep(form: Form, residual: boolean, rows: readonly In[]): readonly string[] {
  const loaded = loadScenarioText('generated.yaml', scenarioText(form, residual, rows));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
  return runScenario(loaded.scenario).result;
}

let oracle: Oracle;
beforeAll(async () => {
  oracle = await createOracle();
});
afterAll(() => oracle.close());

describe('semi / anti joins == DuckDB (insert-only input)', () => {
  it('final result equals the batch query for IN, NOT IN, EXISTS and NOT EXISTS', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.constantFrom(...FORMS), fc.boolean(), async (rows, form, residual) => {
        const side = (s: 0 | 1) => rows.filter((r) => r.side === s).map((r): OracleValue[] => [r.k, r.v]);
        const cols = [['k', 'VARCHAR'], ['v', 'INTEGER']] as const;
        const expected = await oracle.query(
          [
            { name: 'l', columns: cols, rows: side(0) },
            { name: 'r', columns: cols, rows: side(1) },
          ],
          `SELECT l.k, l.v FROM l WHERE ${where(form, residual)}`,
        );
        expect([...joinstep(form, residual, rows)]).toEqual(expected);
      }),
      { numRuns: 120 },
    );
  });

  it('the oracle itself is null-aware for NOT IN (sanity check of the helper)', async () => {
    const cols = [['k', 'VARCHAR'], ['v', 'INTEGER']] as const;
    const rows = await oracle.query(
      [
        { name: 'l', columns: cols, rows: [['a', 1], ['b', 2]] },
        { name: 'r', columns: cols, rows: [[null, 3], ['a', 4]] },
      ],
      'SELECT l.k, l.v FROM l WHERE l.k NOT IN (SELECT r.k FROM r)',
    );
    expect(rows).toEqual([]);
  });
});
