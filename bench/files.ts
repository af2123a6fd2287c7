/**
 * Scenario files for the user's path (`npm run bench` and by hand): the same families and events
 * as bench/scenarios.ts, written as a scenario YAML with one-line events, or as a scenario whose
 * events come from JSON Lines files beside it.
 *
 *   tsx bench/files.ts FAMILY N yaml|jsonl OUT_DIR   → prints the scenario file's path
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Family } from './scenarios.js';

const SQL: Readonly<Record<Family, string>> = {
  'regular-inner': 'SELECT o.k, o.ts, o.x AS id, r.k AS rk, r.ts AS rts, r.x AS v FROM orders AS o JOIN rates AS r ON o.k = r.k;',
  'regular-left': 'SELECT o.k, o.ts, o.x AS id, r.k AS rk, r.ts AS rts, r.x AS v FROM orders AS o LEFT JOIN rates AS r ON o.k = r.k;',
  interval:
    "SELECT o.k, o.ts, o.x AS id, r.k AS rk, r.ts AS rts, r.x AS v FROM orders AS o JOIN rates AS r ON o.k = r.k AND o.ts BETWEEN r.ts - INTERVAL '1' MINUTE AND r.ts + INTERVAL '1' MINUTE;",
  temporal: 'SELECT o.k, o.ts, o.x AS id, r.k AS rk, r.ts AS rts, r.x AS v FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.k = r.k;',
};

function ddl(family: Family): string {
  const upsert = family === 'temporal';
  const rates = upsert
    ? "CREATE TABLE rates (k STRING, ts TIMESTAMP(3), x INT, WATERMARK FOR ts AS ts, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');"
    : "CREATE TABLE rates (k STRING, ts TIMESTAMP(3), x INT, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');";
  return [
    "CREATE TABLE orders (k STRING, ts TIMESTAMP(3), x STRING, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');",
    rates,
    SQL[family],
  ].join('\n');
}

interface GenRow {
  readonly table: 'orders' | 'rates';
  readonly k: string;
  readonly ts: number;
  readonly x: string | number;
}

/** The events of bench/scenarios.ts, in order (see its comment for their shape). */
function* rows(family: Family, n: number, keys = 10_000): Generator<GenRow> {
  const right = (i: number, t: number): GenRow => ({ table: 'rates', k: `k${i % keys}`, ts: t, x: i });
  const left = (i: number, t: number): GenRow => {
    const k = i % keys;
    return { table: 'orders', k: k % 10 === 9 ? `m${k}` : `k${k}`, ts: t, x: `o${i}` };
  };
  if (family !== 'interval' && family !== 'temporal') {
    let out = 0;
    for (let i = 0; i < keys && out < n; i++, out++) yield right(i, i);
    for (let i = 0; out < n; i++, out++) yield left(i, keys + i);
    return;
  }
  for (let i = 0; i < n; i++) yield i % 4 === 0 ? right(i >> 2, i * 10) : left(i >> 2, i * 10);
}

function header(family: Family, n: number): string[] {
  return [`name: bench ${family} ${n}`, 'sql: |', ...ddl(family).split('\n').map((l) => `  ${l}`)];
}

/** Writes the scenario (and its data files) into `dir`; returns the scenario's path. */
export function writeBenchFiles(family: Family, n: number, form: 'yaml' | 'jsonl', dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${family}-${n}-${form}.yaml`);
  const lines = header(family, n);
  if (form === 'yaml') {
    lines.push('events:');
    for (const r of rows(family, n)) lines.push(`  - { to: ${r.table}, row: { k: ${r.k}, ts: ${r.ts}, x: ${r.x} } }`);
    writeFileSync(file, lines.join('\n') + '\n');
    return file;
  }
  // One JSON Lines file per table; ordered by time, they replay the script's order exactly.
  const out: Record<string, string[]> = { orders: [], rates: [] };
  for (const r of rows(family, n)) out[r.table]!.push(JSON.stringify({ k: r.k, ts: r.ts, x: r.x }));
  lines.push('events:');
  for (const table of ['rates', 'orders']) {
    writeFileSync(join(dir, `${family}-${n}-${table}.jsonl`), out[table]!.join('\n') + '\n');
  }
  lines.push('  - replay:', `      - { file: ${family}-${n}-rates.jsonl, to: rates }`, `      - { file: ${family}-${n}-orders.jsonl, to: orders }`, '    time-field: ts');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

if (process.argv[1]?.endsWith('files.ts') && process.argv[2] !== undefined) {
  const [family, n, form, dir] = process.argv.slice(2);
  process.stdout.write(writeBenchFiles(family as Family, Number(n), form as 'yaml' | 'jsonl', dir ?? '.') + '\n');
}
