/**
 * Differential property test: for random on-time inputs closed by the end-of-input watermark,
 * the interval join equals DuckDB's batch join with the same predicate, and the event-time
 * temporal join equals DuckDB's ASOF join (latest version with time <= the probe's time).
 *
 * "On time": the scenarios use manual watermarks and emit none before `to: max`, so no row is
 * late and every cached / buffered row is resolved by the final watermark.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { createOracle, type Oracle, type OracleTable } from './duckdb-oracle.js';

interface In {
  readonly side: 0 | 1;
  readonly k: string;
  /** Seconds. */
  readonly s: number;
}

const inputs = fc.array(fc.record({ side: fc.constantFrom(0 as const, 1 as const), k: fc.constantFrom('a', 'b', 'c'), s: fc.integer({ min: 1, max: 40 }) }), {
  maxLength: 14,
});

function table(name: string, versioned: boolean): string {
  const pk = versioned ? ', PRIMARY KEY (k) NOT ENFORCED' : '';
  const connector = versioned ? "'connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json'" : "'connector' = 'kafka', 'format' = 'json'";
  return `CREATE TABLE ${name} (id STRING, k STRING, ts BIGINT, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt${pk}) WITH (${connector}, 'topic' = '${name}');`;
}

/** Rows get ids l0, l1, ... / r0, r1, ... in arrival order. */
function withIds(rows: readonly In[]): (In & { id: string })[] {
  const n = { 0: 0, 1: 0 };
  return rows.map((r) => ({ ...r, id: `${r.side === 0 ? 'l' : 'r'}${n[r.side]++}` }));
}

function scenarioText(sql: string, rows: readonly (In & { id: string })[]): string {
  const events = rows.map((r) => `  - { to: ${r.side === 0 ? 'l' : 'r'}, row: { id: ${r.id}, k: ${r.k}, ts: ${r.s * 1000} } }`);
  events.push('  - { watermark: l, to: max }', '  - { watermark: r, to: max }');
  const indented = sql.split('\n').map((l) => `  ${l}`).join('\n');
  return `name: generated\nwatermarks: manual\nsql: |\n${indented}\nevents:\n${events.join('\n')}\n`;
}

function joinstepResult(sql: string, rows: readonly (In & { id: string })[]): readonly string[] {
  const loaded = loadScenarioText('generated.yaml', scenarioText(sql, rows));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
  return runScenario(loaded.scenario).result;
}

/** The inputs as DuckDB tables; a versioned table keeps one version per (key, time): the last arrival wins. */
function oracleTables(rows: readonly (In & { id: string })[], dedupeVersions: boolean): OracleTable[] {
  const columns = [['id', 'VARCHAR'], ['k', 'VARCHAR'], ['ts', 'BIGINT']] as const;
  const lastPerVersion = new Map<string, In & { id: string }>();
  for (const r of rows) if (r.side === 1) lastPerVersion.set(dedupeVersions ? `${r.k}|${r.s}` : r.id, r);
  const asRow = (r: In & { id: string }) => [r.id, r.k, r.s * 1000] as const;
  return [
    { name: 'l', columns, rows: rows.filter((r) => r.side === 0).map(asRow) },
    { name: 'r', columns, rows: [...lastPerVersion.values()].map(asRow) },
  ];
}

const JOINS = { inner: 'JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL JOIN' } as const;

function offset(sec: number): string {
  if (sec === 0) return 'r.rt';
  return `r.rt ${sec < 0 ? '-' : '+'} INTERVAL '${Math.abs(sec)}' SECOND`;
}

let oracle: Oracle;
beforeAll(async () => {
  oracle = await createOracle();
});
afterAll(() => oracle.close());

describe('interval and temporal joins against DuckDB', () => {
  it('interval join == batch join with the same bounds (all join types, on-time input)', async () => {
    const bounds = fc.integer({ min: -15, max: 10 }).chain((lower) => fc.tuple(fc.constant(lower), fc.integer({ min: lower - 3, max: lower + 20 })));
    await fc.assert(
      fc.asyncProperty(inputs, bounds, fc.constantFrom('inner', 'left', 'right', 'full' as const), async (raw, [lower, upper], type) => {
        const rows = withIds(raw);
        const sql =
          `${table('l', false)}\n${table('r', false)}\n` +
          `SELECT l.id, r.id AS rid FROM l ${JOINS[type]} r ON l.k = r.k AND l.rt BETWEEN ${offset(lower)} AND ${offset(upper)};`;
        const expected = await oracle.query(oracleTables(rows, false), `SELECT l.id, r.id FROM l ${JOINS[type]} r ON l.k = r.k AND l.ts BETWEEN r.ts + ${lower * 1000} AND r.ts + ${upper * 1000}`);
        expect(joinstepResult(sql, rows)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('event-time temporal join == ASOF join (inner and left, on-time input)', async () => {
    await fc.assert(
      fc.asyncProperty(inputs, fc.constantFrom('inner', 'left' as const), async (raw, type) => {
        const rows = withIds(raw);
        const sql =
          `${table('l', false)}\n${table('r', true)}\n` +
          `SELECT l.id, r.id AS rid FROM l ${JOINS[type]} r FOR SYSTEM_TIME AS OF l.rt AS r ON l.k = r.k;`;
        const asof = type === 'left' ? 'ASOF LEFT JOIN' : 'ASOF JOIN';
        const expected = await oracle.query(oracleTables(rows, true), `SELECT l.id, r.id FROM l ${asof} r ON l.k = r.k AND l.ts >= r.ts`);
        expect(joinstepResult(sql, rows)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
