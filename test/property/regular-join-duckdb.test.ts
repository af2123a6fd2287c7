/**
 * Differential property test: for insert-only inputs, the regular join's final materialized
 * result (what `joinstep run --result` prints) equals DuckDB's batch join of the same rows, for
 * every join type, with NULL keys, duplicates and a residual condition.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOracle, type Oracle } from './duckdb-oracle.js';
import { duckdbResult, joinstepResult, sideRowsArb } from './two-tables.js';

const rowsArb = sideRowsArb(5);

const JOINS = { inner: 'JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL JOIN' } as const;
type JoinType = keyof typeof JOINS;

let oracle: Oracle;
beforeAll(async () => {
  oracle = await createOracle();
});
afterAll(() => oracle.close());

describe('regular join == DuckDB batch join (insert-only input)', () => {
  it('final result equals the batch join, all join types', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.constantFrom<JoinType>('inner', 'left', 'right', 'full'), fc.boolean(), async (rows, type, residual) => {
        const on = `l.k = r.k${residual ? ' AND l.v <= r.v' : ''}`;
        const expected = await duckdbResult(oracle, `SELECT l.k, l.v, r.k, r.v FROM l ${JOINS[type]} r ON ${on}`, rows);
        expect(joinstepResult(`SELECT l.k, l.v, r.k AS rk, r.v AS rv FROM l ${JOINS[type]} r ON ${on}`, rows)).toEqual(expected);
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
