/**
 * A DuckDB oracle for differential tests: load small tables into an in-memory DuckDB and run a
 * batch SQL query over them. The rows come back printed as joinstep prints a result row
 * (`[a, 1, null]`), sorted, so they compare directly with `runScenario(...).result`.
 * Values are limited to what prints the same in both: VARCHAR, INTEGER / BIGINT, and null.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export type OracleValue = string | number | null;

export interface OracleTable {
  readonly name: string;
  readonly columns: readonly (readonly [name: string, type: 'VARCHAR' | 'INTEGER' | 'BIGINT'])[];
  readonly rows: readonly (readonly OracleValue[])[];
}

export interface Oracle {
  /** (Re)creates the tables with these rows, then runs `sql`; rows printed and sorted. */
  query(tables: readonly OracleTable[], sql: string): Promise<string[]>;
  close(): void;
}

function literal(v: OracleValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return String(v);
  return `'${v.replace(/'/g, "''")}'`;
}

/** A result row as joinstep's `formatResultRow` prints STRING / INT / BIGINT values. */
export function printOracleRow(row: readonly unknown[]): string {
  return `[${row.map((v) => (v === null || v === undefined ? 'null' : String(v))).join(', ')}]`;
}

async function load(c: DuckDBConnection, t: OracleTable): Promise<void> {
  const cols = t.columns.map(([n, ty]) => `"${n}" ${ty}`).join(', ');
  await c.run(`CREATE OR REPLACE TABLE "${t.name}" (${cols})`);
  if (t.rows.length > 0) {
    await c.run(`INSERT INTO "${t.name}" VALUES ${t.rows.map((r) => `(${r.map(literal).join(', ')})`).join(', ')}`);
  }
}

export async function createOracle(): Promise<Oracle> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  return {
    async query(tables, sql) {
      for (const t of tables) await load(conn, t);
      const reader = await conn.runAndReadAll(sql);
      return reader.getRowsJS().map((r) => printOracleRow(r as unknown[])).sort();
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}
