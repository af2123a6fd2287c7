/**
 * Verdicts of `joinstep flink` and `joinstep test --flink` given Flink's answer: both reject, one
 * rejects, a run that differs. Flink's side is a stand-in answer here (the real harness is tested
 * in real-flink.test.ts); joinstep's side is the real engine.
 */
import { describe, expect, it } from 'vitest';
import { compareQuery, compareRejected } from '../../src/cli/flink-compare.js';
import { changelogMatches } from '../../src/cli/test-flink.js';
import type { FlinkHarness, FlinkRunResult } from '../../src/flink/harness-client.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';

const EUR = `
name: EUR order
date: 2026-10-01
watermarks: manual
sql: |
  CREATE TABLE orders (
    order_id STRING, currency STRING, amount DECIMAL(10, 2), order_time TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
  ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE rates (
    currency STRING, usd_rate DECIMAL(10, 4), update_time TIMESTAMP(3),
    WATERMARK FOR update_time AS update_time,
    PRIMARY KEY (currency) NOT ENFORCED
  ) WITH ('connector' = 'upsert-kafka', 'topic' = 'rates', 'key.format' = 'json', 'value.format' = 'json');
  SELECT o.order_id, o.order_time, o.amount * r.usd_rate AS amount_usd
  FROM orders AS o
  LEFT JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r
  ON o.currency = r.currency;
events:
  - { to: rates,  row: { currency: EUR, usd_rate: 1.10, update_time: "09:00" } }
  - { to: orders, row: { order_id: o1, currency: EUR, amount: 100, order_time: "09:30" } }
  - { watermark: orders, to: "10:00" }
  - { watermark: rates, to: "10:00" }
`;

function scenario(text = EUR): Scenario {
  const r = loadScenarioText('eur.yaml', text);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.scenario;
}

/** A harness that answers every request with `answer` (its id echoed). */
function fake(answer: Omit<Extract<FlinkRunResult, { ok: true }>, 'id'> | Omit<Extract<FlinkRunResult, { ok: false }>, 'id'>): FlinkHarness {
  return { build: { mavenVersion: '2.3.0' }, run: async () => ({ id: 'r1', ...answer }) } as unknown as FlinkHarness;
}

const ran = (changelog: [number, string][], result: string[], watermarks: [number, number][] = []) => ({
  ok: true as const,
  flinkVersion: '2.3.0',
  plan: '== Optimized Physical Plan ==',
  pinnedConfig: { 'table.exec.mini-batch.enabled': 'false' },
  changelog: changelog.map(([step, text]) => ({ step, op: text.slice(0, 2), text })),
  result,
  watermarks: watermarks.map(([step, value]) => ({ step, value })),
  unorderedSteps: [],
  notExpressible: null,
});

// Both inputs at 10:00: the temporal join forwards its combined input watermark unchanged.
const WM_1000 = Date.UTC(2026, 9, 1, 10);

describe('compareQuery', () => {
  it('agrees when Flink prints the same rows at the same steps, with the same result and watermarks', async () => {
    const v = await compareQuery(fake(ran([[4, '+I[o1, 2026-10-01T09:30, 110.000000]']], ['[o1, 2026-10-01T09:30, 110.000000]'], [[4, WM_1000]])), scenario(), 0);
    expect(v.lines.join('\n')).toContain('joinstep and Flink 2.3.0 agree.');
    expect(v.status).toBe('agree');
  });

  it('differs when Flink emits the row at another step', async () => {
    const v = await compareQuery(fake(ran([[3, '+I[o1, 2026-10-01T09:30, 110.000000]']], ['[o1, 2026-10-01T09:30, 110.000000]'], [[4, WM_1000]])), scenario(), 0);
    expect(v.status).toBe('differ');
    expect(v.lines.join('\n')).toContain('first difference at step 3');
  });

  it('a Flink planner rejection of a query joinstep plans is a disagreement, with Flink\'s message', async () => {
    const v = await compareQuery(fake({ ok: false, phase: 'plan', error: { class: 'org.apache.flink.table.api.ValidationException', message: 'no way' } }), scenario(), 0);
    expect(v.status).toBe('differ');
    expect(v.lines.join('\n')).toContain('Flink 2.3.0 rejects the query; joinstep plans it.');
    expect(v.lines.join('\n')).toContain('ValidationException: no way');
  });

  it('reports a scenario the harness cannot express as such, not as agreement', async () => {
    const v = await compareQuery(fake({ ...ran([], []), notExpressible: 'because of reasons' }), scenario(), 0);
    expect(v.status).toBe('not-expressible');
    expect(v.lines).toEqual(['not expressible on real Flink: because of reasons']);
  });
});

describe('compareRejected', () => {
  const rejectedText = EUR.replace('ON o.currency = r.currency', 'ON o.currency = r.nope');
  const loaded = loadScenarioText('rejected.yaml', rejectedText);
  if (loaded.ok || loaded.rejectedSql === undefined) throw new Error('the test scenario should be rejected by joinstep');
  const rejected = loaded.rejectedSql;

  it('both reject: agreement, showing both messages', async () => {
    const v = await compareRejected(fake({ ok: false, phase: 'plan', error: { class: 'org.apache.flink.table.api.ValidationException', message: "From line 14, column 31 to line 14, column 36: Column 'nope' not found in table 'r'" } }), rejected, loaded.diagnostics, 0);
    expect(v.status).toBe('agree');
    const text = v.lines.join('\n');
    expect(text).toContain('Both reject the query:');
    expect(text).toMatch(/joinstep: rejected\.yaml:\d+:\d+: error: /);
    expect(text).toContain("Column 'nope' not found");
  });

  it('both reject with other messages: a disagreement (joinstep is to give Flink\'s own error)', async () => {
    const v = await compareRejected(fake({ ok: false, phase: 'plan', error: { class: 'org.apache.flink.table.api.ValidationException', message: 'Temporal Table Join requires primary key in versioned table, but no primary key can be found.' } }), rejected, loaded.diagnostics, 0);
    expect(v.status).toBe('differ');
    expect(v.summary).toBe('both reject the query, with different messages');
    expect(v.lines.join('\n')).toContain('no primary key can be found');
  });

  it('only joinstep rejects: a disagreement showing Flink\'s plan', async () => {
    const v = await compareRejected(fake(ran([], [])), rejected, loaded.diagnostics, 0);
    expect(v.status).toBe('differ');
    expect(v.lines.join('\n')).toContain('joinstep rejects the query; Flink 2.3.0 plans it:');
  });
});

describe('changelogMatches (test --flink)', () => {
  const answer = (rows: [number, string][], unorderedSteps: number[] = []) => ({ ...ran(rows, []), id: 'r1', unorderedSteps });

  it('compares in order', () => {
    expect(changelogMatches(['+I[a]', '+I[b]'], answer([[1, '+I[a]'], [2, '+I[b]']])).ok).toBe(true);
    expect(changelogMatches(['+I[b]', '+I[a]'], answer([[1, '+I[a]'], [2, '+I[b]']])).ok).toBe(false);
  });

  it('compares an unordered step as a multiset, and counts it', () => {
    const r = changelogMatches(['+I[b]', '+I[a]', '+I[c]'], answer([[1, '+I[a]'], [1, '+I[b]'], [2, '+I[c]']], [1]));
    expect(r).toEqual({ ok: true, unordered: 1 });
    expect(changelogMatches(['+I[c]', '+I[a]', '+I[b]'], answer([[1, '+I[a]'], [1, '+I[b]'], [2, '+I[c]']], [1])).ok).toBe(false);
  });
});
