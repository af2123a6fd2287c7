/**
 * Differential property test: for insert-only inputs, the semi and anti joins (IN, NOT IN,
 * EXISTS, NOT EXISTS, with and without a correlated residual) end with the rows DuckDB's batch
 * query gives, NULL keys included: NOT IN is null-aware (a NULL on either side leaves the row
 * out, an empty subquery keeps every row), EXISTS compares with `=`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOracle, type Oracle } from './duckdb-oracle.js';
import { duckdbResult, joinstepResult, sideRowsArb } from './two-tables.js';

const rowsArb = sideRowsArb(4);

const FORMS = ['IN', 'NOT IN', 'EXISTS', 'NOT EXISTS'] as const;
type Form = (typeof FORMS)[number];

/** The WHERE clause, the same text for joinstep and DuckDB. */
function where(form: Form, residual: boolean): string {
  if (form === 'IN' || form === 'NOT IN') return `l.k ${form} (SELECT r.k FROM r${residual ? ' WHERE r.v > 1' : ''})`;
  return `${form} (SELECT 1 FROM r WHERE r.k = l.k${residual ? ' AND r.v <= l.v' : ''})`;
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
        const select = `SELECT l.k, l.v FROM l WHERE ${where(form, residual)}`;
        expect(joinstepResult(select, rows)).toEqual(await duckdbResult(oracle, select, rows));
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
