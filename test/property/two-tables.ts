/**
 * The two insert-only tables of the DuckDB property tests, `l (k STRING, v INT)` and
 * `r (k STRING, v INT)`: random rows for them, and one query's final result over those rows from
 * joinstep (a generated scenario, run to its end) and from DuckDB (the same tables, as a batch).
 */
import fc from 'fast-check';
import { runScenario } from '../../src/engine/run.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { Oracle, OracleValue } from './duckdb-oracle.js';

/** A row for `l` (side 0) or `r` (side 1). */
export interface SideRow {
  readonly side: 0 | 1;
  readonly k: string | null;
  readonly v: number;
}

/** Up to 16 rows over keys a, b, c and NULL, values 0..maxV. */
export function sideRowsArb(maxV: number): fc.Arbitrary<SideRow[]> {
  return fc.array(fc.record({ side: fc.constantFrom(0 as const, 1 as const), k: fc.constantFrom('a', 'b', 'c', null), v: fc.integer({ min: 0, max: maxV }) }), { maxLength: 16 });
}

function scenarioText(select: string, rows: readonly SideRow[]): string {
  const sql = [
    "CREATE TABLE l (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'l', 'format' = 'json');",
    "CREATE TABLE r (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'r', 'format' = 'json');",
    `${select};`,
  ];
  const events = rows.map((r) => `  - { to: ${r.side === 0 ? 'l' : 'r'}, row: { k: ${r.k === null ? 'null' : r.k}, v: ${r.v} } }`);
  return `name: generated\nsql: |\n${sql.map((l) => `  ${l}`).join('\n')}\nevents:\n${events.length > 0 ? events.join('\n') : '  []'}\n`;
}

/** joinstep's final result of `select` (Flink SQL) over the rows. */
export function joinstepResult(select: string, rows: readonly SideRow[]): string[] {
  const loaded = loadScenarioText('generated.yaml', scenarioText(select, rows));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
  return [...runScenario(loaded.scenario).result];
}

/** DuckDB's result of `select` (its SQL) over the same rows. */
export function duckdbResult(oracle: Oracle, select: string, rows: readonly SideRow[]): Promise<string[]> {
  const side = (s: 0 | 1) => rows.filter((r) => r.side === s).map((r): OracleValue[] => [r.k, r.v]);
  const cols = [['k', 'VARCHAR'], ['v', 'INTEGER']] as const;
  return oracle.query(
    [
      { name: 'l', columns: cols, rows: side(0) },
      { name: 'r', columns: cols, rows: side(1) },
    ],
    select,
  );
}
