/** Planner test helpers: plan SQL text with default options, and read back errors with the text they point at. */
import { expect } from 'vitest';
import { planSql, type PlannerResult } from '../../src/planner/planner.js';
import type { EngineConfig, FlinkVersion, Plan, PlanError } from '../../src/planner/plan.js';
import { parseSql } from '../../src/sql/parser.js';
import { DEFAULT_CONFIG } from '../../src/scenario/config-defaults.js';

/** Flink's defaults, exactly as the loader fills them. */
export const CONFIG: EngineConfig = DEFAULT_CONFIG;

export interface Opts {
  config?: Partial<EngineConfig>;
  flinkVersion?: FlinkVersion;
}

export function planText(sql: string, opts: Opts = {}): PlannerResult {
  const parsed = parseSql(sql);
  if (!parsed.ok) throw new Error(`parse error: ${parsed.error.message} at ${parsed.error.start}`);
  return planSql(parsed.script, { config: { ...CONFIG, ...opts.config }, flinkVersion: opts.flinkVersion ?? '2.3', partitions: {} });
}

export function planOk(sql: string, opts: Opts = {}): Plan {
  const r = planText(sql, opts);
  if (!r.ok) throw new Error(`expected a plan, got: ${r.error.message}`);
  expect(r.queries).toHaveLength(1);
  return (r.queries[0] as { plan: Plan }).plan;
}

/** The planner error and the SQL text its span covers. */
export function planErr(sql: string, opts: Opts = {}): PlanError & { at: string } {
  const r = planText(sql, opts);
  if (r.ok) throw new Error('expected a planning error, but the query planned');
  return { ...r.error, at: sql.slice(r.error.span.start, r.error.span.end) };
}

/** Column names of an input's row at the given indexes. */
export function names(plan: Plan, side: 0 | 1, idx: readonly number[]): string[] {
  return idx.map((i) => plan.inputs[side].columns[i]?.name ?? `?${i}`);
}

// Reusable DDL ---------------------------------------------------------------

export const ORDERS = `CREATE TABLE orders (
  order_id STRING, customer_id STRING, currency STRING, amount DECIMAL(10, 2), order_time TIMESTAMP(3),
  proc AS PROCTIME(),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');`;

export const RATES_UPSERT = `CREATE TABLE rates (
  currency STRING, usd_rate DECIMAL(10, 4), update_time TIMESTAMP(3),
  WATERMARK FOR update_time AS update_time,
  PRIMARY KEY (currency) NOT ENFORCED
) WITH ('connector' = 'upsert-kafka', 'topic' = 'rates', 'key.format' = 'json', 'value.format' = 'json');`;

export const RATES_CDC = `CREATE TABLE rates (
  currency STRING, usd_rate DECIMAL(10, 4), update_time TIMESTAMP(3),
  WATERMARK FOR update_time AS update_time,
  PRIMARY KEY (currency) NOT ENFORCED
) WITH ('connector' = 'kafka', 'topic' = 'rates', 'format' = 'debezium-json');`;

export const RATES_APPEND = `CREATE TABLE rates (
  currency STRING, usd_rate DECIMAL(10, 4), update_time TIMESTAMP(3),
  WATERMARK FOR update_time AS update_time
) WITH ('connector' = 'kafka', 'topic' = 'rates', 'format' = 'json');`;

export const SHIPMENTS = `CREATE TABLE shipments (
  ship_id STRING, order_id STRING, ship_time TIMESTAMP(3),
  WATERMARK FOR ship_time AS ship_time
) WITH ('connector' = 'kafka', 'topic' = 'shipments', 'format' = 'json');`;

export const CUSTOMERS_JDBC = `CREATE TABLE customers (
  customer_id STRING, tier STRING,
  PRIMARY KEY (customer_id) NOT ENFORCED
) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://db/shop', 'table-name' = 'customers');`;
