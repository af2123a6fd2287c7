/**
 * Generated benchmark scenarios (built directly as typed Scenario/Plan data, no YAML): one
 * million events per case, keys spread so that output stays about one row per probe row.
 */
import type { ColumnDef, EngineConfig, InputPlan, Plan, TableDef, TExpr } from '../src/planner/plan.js';
import type { Scenario, ScenarioEvent } from '../src/scenario/types.js';
import type { SqlType } from '../src/values/types.js';
import { DEFAULT_CONFIG } from '../src/scenario/config-defaults.js';

const STRING: SqlType = { kind: 'STRING', nullable: true };
const INT: SqlType = { kind: 'INT', nullable: true };
const TS: SqlType = { kind: 'TIMESTAMP', nullable: true, precision: 3 };
const span = { start: 0, end: 0 } as unknown as ColumnDef['span'];
const pos = { line: 1, col: 1 };
const col = (index: number, type: SqlType): TExpr => ({ k: 'col', index, type, name: `c${index}` });

function table(name: string, third: SqlType, pk?: number[]): TableDef {
  const cols: [string, SqlType][] = [['k', STRING], ['ts', TS], ['x', third]];
  return {
    name,
    columns: cols.map(([n, type], i) => ({ name: n, type, kind: 'physical', span, timeAttr: i === 1 ? 'rowtime' : undefined })),
    watermark: { column: 1, expr: col(1, TS), text: 'ts' },
    primaryKey: pk,
    options: [],
    connector: pk === undefined ? 'kafka' : 'upsert-kafka',
    nature: pk === undefined ? 'append' : 'upsert',
    span,
  };
}

function input(t: TableDef, extra: Partial<InputPlan> = {}): InputPlan {
  return {
    table: t.name,
    alias: t.name,
    dropUpdateBefore: false,
    columns: t.columns.map((c) => ({ name: c.name, type: c.type, timeAttr: c.timeAttr })),
    changelogMode: ['+I'],
    upsertKeys: [],
    stateLayout: { kind: 'InputSideHasNoUniqueKey' },
    timeAttr: { index: 1, kind: 'rowtime' },
    stateTtlMs: 0,
    stateTtlSource: 'none',
    ...extra,
  };
}

const CONFIG: EngineConfig = DEFAULT_CONFIG;

export type Family = 'regular-inner' | 'regular-left' | 'interval' | 'temporal';

function planFor(family: Family): Plan {
  const orders = table('orders', STRING);
  const upsert = family === 'temporal';
  const rates = table('rates', INT, upsert ? [0] : undefined);
  const right = upsert
    ? input(rates, { changelogNormalize: { key: [0] }, dropUpdateBefore: true, changelogMode: ['+I', '+U', '-D'], upsertKeys: [[0]] })
    : input(rates);
  const types = [STRING, TS, STRING, STRING, TS, INT];
  const base: Plan = {
    family: family === 'regular-inner' || family === 'regular-left' ? 'regular' : family,
    joinType: family === 'regular-inner' || family === 'interval' ? 'inner' : 'left',
    tables: [orders, rates],
    inputs: [input(orders), right],
    keys: { left: [0], right: [0], nullSafe: [false] },
    project: types.map((t, i) => col(i, t)),
    output: { names: ['k', 'ts', 'id', 'rk', 'rts', 'v'], types, changelogMode: ['+I', '-D'], upsertKeys: [] },
    flinkVersion: '2.3',
    notes: [],
  };
  if (family === 'interval') {
    return { ...base, interval: { lowerMs: -60_000, upperMs: 60_000, timeKind: 'rowtime', minCleanupMs: 0, negativeWindow: false } };
  }
  return base;
}

/**
 * The script: first one right row per key (a small dimension), then left rows cycling over the
 * keys with increasing time; every 10th left key is missing on the right (padded in a LEFT join).
 * Interval and temporal cases interleave right rows so that state keeps moving with time.
 */
function events(family: Family, n: number, keys: number): ScenarioEvent[] {
  const out: ScenarioEvent[] = [];
  const right = (i: number, t: number): ScenarioEvent => ({ kind: 'row', table: 'rates', partition: 0, op: '+I', row: [`k${i % keys}`, t, i], pos });
  const left = (i: number, t: number): ScenarioEvent => {
    const k = i % keys;
    return { kind: 'row', table: 'orders', partition: 0, op: '+I', row: [k % 10 === 9 ? `m${k}` : `k${k}`, t, `o${i}`], pos };
  };
  const timed = family === 'interval' || family === 'temporal';
  if (!timed) {
    for (let i = 0; i < keys; i++) out.push(right(i, i));
    for (let i = 0; out.length < n; i++) out.push(left(i, keys + i));
    return out;
  }
  // Time advances 10 ms per event; one right row per 4 events keeps versions / windows moving.
  // Each group of 4 events shares a key: one right row, then three left rows.
  for (let i = 0; out.length < n; i++) out.push(i % 4 === 0 ? right(i >> 2, i * 10) : left(i >> 2, i * 10));
  return out;
}

export function benchScenario(family: Family, n: number, keys = 10_000): Scenario {
  return {
    file: `bench-${family}.yaml`,
    name: family,
    date: 0,
    flinkVersion: '2.3',
    watermarks: 'auto',
    partitions: {},
    config: CONFIG,
    sql: '',
    queries: [{ name: 'q', plan: planFor(family) }],
    events: events(family, n, keys),
  };
}

export const FAMILIES: readonly Family[] = ['regular-inner', 'regular-left', 'interval', 'temporal'];
