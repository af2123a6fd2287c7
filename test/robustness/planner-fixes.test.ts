/**
 * Regression tests for the planner bugs the fuzzers found: wrongly typed function arguments and
 * impossible casts are rejected when planning (pointing at the call, in Calcite's words) rather
 * than failing at run time at 1:1; and a long chain of views is not mistaken for a cycle.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { formatDiagnostic } from '../../src/scenario/diagnostic.js';
import { planErr, planOk } from '../planner/helpers.js';

const DDL = [
  "CREATE TABLE a (k STRING, n INT, b BOOLEAN, ts TIMESTAMP(3), big BIGINT) WITH ('connector' = 'kafka');",
  "CREATE TABLE c (k STRING) WITH ('connector' = 'kafka');",
].join('\n');

const query = (expr: string): string => `${DDL}\nSELECT ${expr} AS o FROM a JOIN c ON a.k = c.k;`;

describe('function arguments of the wrong type are plan-time errors at the call', () => {
  it.each([
    ['TO_TIMESTAMP(a.n)', 'TO_TIMESTAMP', 'TO_TIMESTAMP(<INTEGER>)'],
    ['TO_TIMESTAMP(a.ts)', 'TO_TIMESTAMP', 'TO_TIMESTAMP(<TIMESTAMP(3)>)'],
    ['UNIX_TIMESTAMP(a.ts)', 'UNIX_TIMESTAMP', 'UNIX_TIMESTAMP(<TIMESTAMP(3)>)'],
    ['CHAR_LENGTH(a.n)', 'CHAR_LENGTH', 'CHAR_LENGTH(<INTEGER>)'],
    ['SUBSTRING(a.n, 1)', 'SUBSTRING', 'SUBSTRING(<INTEGER>, <INTEGER>)'],
    ["DATE_FORMAT(a.n, 'yyyy')", 'DATE_FORMAT', 'DATE_FORMAT(<INTEGER>, <CHAR(4)>)'],
    ['DATE_FORMAT(a.ts, a.n)', 'DATE_FORMAT', 'DATE_FORMAT(<TIMESTAMP(3)>, <INTEGER>)'],
    ["a.n LIKE 'a'", 'LIKE', '<INTEGER> LIKE <CHAR(1)>'],
    ['IF(a.n, 1, 2)', 'IF', 'IF(<INTEGER>, <INTEGER>, <INTEGER>)'],
  ])('%s', (expr, fn, types) => {
    const e = planErr(query(expr));
    expect(e.message).toMatch(new RegExp(`^Cannot apply '${fn}' to arguments of type '${types.replace(/[()<>]/g, '\\$&')}'\\. Supported form\\(s\\): '`));
    expect(e.at).toBe(expr);
    expect(e.hint).toBeTruthy();
  });

  it.each([
    "TO_TIMESTAMP('2026-10-01 10:00:00')",
    "UNIX_TIMESTAMP('2026-10-01 10:00:00')",
    'CHAR_LENGTH(a.k)',
    'SUBSTRING(a.k, 1, 2)',
    "DATE_FORMAT(a.ts, 'yyyy-MM-dd')",
    "DATE_FORMAT(a.k, 'yyyy')",
    "a.k LIKE 'a%'",
    'IF(a.n > 0, 1, 2)',
    'IF(a.b, a.k, c.k)',
  ])('%s still plans', (expr) => {
    expect(planOk(query(expr)).output.names).toEqual(['o']);
  });

  it('a scenario reports the call at its line and column, not at 1:1', () => {
    const text = ['name: r', 'sql: |', ...DDL.split('\n').map((l) => `  ${l}`), '  SELECT CHAR_LENGTH(a.n) AS o FROM a JOIN c ON a.k = c.k;', 'events: []', ''].join('\n');
    const r = loadScenarioText('f.yaml', text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map(formatDiagnostic)[0]).toMatch(/^f\.yaml:5:10: error: Cannot apply 'CHAR_LENGTH'/);
  });
});

describe('impossible casts are plan-time errors at the CAST', () => {
  it.each([
    ['CAST(a.b AS TIMESTAMP(3))', 'BOOLEAN', 'TIMESTAMP(3)'],
    ['CAST(a.ts AS INT)', 'TIMESTAMP(3)', 'INTEGER'],
    ['CAST(a.big AS DATE)', 'BIGINT', 'DATE'],
  ])('%s', (expr, from, to) => {
    const e = planErr(query(expr));
    expect(e.message).toBe(`Cast function cannot convert value of type ${from} to type ${to}`);
    expect(e.at).toBe(expr);
  });
});

describe('views', () => {
  const chain = (n: number): string => [
    DDL,
    'CREATE VIEW v0 AS SELECT * FROM a;',
    ...Array.from({ length: n }, (_, i) => `CREATE VIEW v${i + 1} AS SELECT * FROM v${i};`),
    `SELECT v${n}.k FROM v${n} JOIN c ON v${n}.k = c.k;`,
  ].join('\n');

  it.each([9, 10, 40])('a chain of %i views over one table plans', (n) => {
    const plan = planOk(chain(n));
    expect(plan.inputs.map((i) => i.table)).toContain('a');
  });

  it('a view that names itself is still a cycle, pointing at the reference', () => {
    const e = planErr(`${DDL}\nCREATE VIEW v AS SELECT * FROM v;\nSELECT a.k FROM a JOIN c ON a.k = c.k;`);
    expect(e.message).toBe("View 'v' refers to itself");
    expect(e.at).toBe('v');
  });

  it('a chain of 10 views runs as a scenario', () => {
    const sql = chain(10).split('\n').map((l) => `  ${l}`);
    const r = loadScenarioText('f.yaml', ['name: r', 'sql: |', ...sql, 'events:', '  - { to: a, row: { k: x } }', '  - { to: c, row: { k: x } }', ''].join('\n'));
    if (!r.ok) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
    const run = runScenario(r.scenario);
    expect(JSON.stringify(run)).toContain('+I');
  });
});
