/**
 * The request handed to the Flink harness (docs/flink-harness.md, "Request"): expectations are
 * written from the protocol — Flink's print format per type, 1-based steps, `partition: null` for
 * every partition, configuration as the file wrote it — not copied from the code's output.
 */
import { describe, expect, it } from 'vitest';
import { toHarnessRequest } from '../../src/flink/harness-request.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';

const YAML = `
name: request shapes
date: 2026-10-01
watermarks: manual
partitions: { orders: 2 }
config:
  table.exec.state.ttl: 10 s
  table.exec.source.idle-timeout: 1 min
sql: |
  CREATE TABLE orders (
    order_id STRING, amount DECIMAL(10, 2), paid BOOLEAN, day_ DATE, at_time TIME(0),
    order_time TIMESTAMP(3), seen TIMESTAMP_LTZ(3), qty INT, ratio DOUBLE,
    doubled AS amount * 2,
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
  ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE customers (
    order_id STRING, name STRING, PRIMARY KEY (order_id) NOT ENFORCED
  ) WITH ('connector' = 'upsert-kafka', 'topic' = 'c', 'key.format' = 'json', 'value.format' = 'json');
  SELECT o.order_id, c.name FROM orders AS o JOIN customers AS c ON o.order_id = c.order_id;
events:
  - { to: orders, partition: 1, at: "09:00", row: { order_id: o1, amount: 1.1, paid: true, day_: 2026-10-01, at_time: "09:30:15", order_time: "09:30:15.250", seen: "09:30", qty: 3, ratio: 0.5 } }
  - { to: orders, row: { order_id: "o\\u001b2", amount: 10, order_time: "09:31" } }
  - { watermark: orders, to: "10:00" }
  - { watermark: orders, partition: 0, to: max }
  - { idle: orders, partition: 0 }
  - { active: orders }
  - { advance: 1 min }
  - { note: "nothing happens" }
  - { to: customers, op: -D, row: { order_id: o1 } }
`;

function load(text: string, file = 'req.yaml'): Scenario {
  const loaded = loadScenarioText(file, text);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  return loaded.scenario;
}

const DAY = Date.UTC(2026, 9, 1);

describe('toHarnessRequest', () => {
  const request = toHarnessRequest(load(YAML), 'run');

  it('carries the scenario header: date as epoch ms, manual watermarks, every table partitioned', () => {
    expect(request.op).toBe('run');
    expect(request.scenario.name).toBe('request shapes');
    expect(request.scenario.file).toBe('req.yaml');
    expect(request.scenario.flinkVersion).toBe('2.3');
    expect(request.scenario.date).toBe(DAY);
    expect(request.scenario.watermarks).toBe('manual');
    expect(request.scenario.partitions).toEqual({ orders: 2, customers: 1 });
  });

  it('hands the config over as the file wrote it, with the format\'s UTC when no zone is named', () => {
    expect(request.scenario.config).toEqual({
      'table.exec.state.ttl': '10 s',
      'table.exec.source.idle-timeout': '1 min',
      'table.local-time-zone': 'UTC',
    });
  });

  it('hands the SQL over verbatim', () => {
    expect(request.scenario.sql).toContain("WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND");
    expect(request.scenario.sql.trim().endsWith('ON o.order_id = c.order_id;')).toBe(true);
  });

  it('prints each row value in Flink\'s print format for its type; computed columns are absent', () => {
    const first = request.scenario.events[0]!;
    expect(first).toEqual({
      step: 1,
      kind: 'row',
      table: 'orders',
      partition: 1,
      op: '+I',
      at: DAY + 9 * 3_600_000,
      row: {
        order_id: 'o1',
        amount: '1.10',
        paid: 'true',
        day_: '2026-10-01',
        at_time: '09:30:15',
        order_time: '2026-10-01T09:30:15.250',
        seen: '2026-10-01T09:30:00Z',
        qty: '3',
        ratio: '0.5',
      },
    });
  });

  it('sends missing nullable columns as JSON null and strings raw (no escaping in the protocol)', () => {
    const second = request.scenario.events[1]!;
    expect(second).toMatchObject({ step: 2, partition: 0, row: { order_id: 'o\u001b2', amount: '10.00', paid: null, seen: null, order_time: '2026-10-01T09:31' } });
    expect(second).not.toHaveProperty('at');
  });

  it('numbers steps from 1 in file order and uses partition null for "every partition"', () => {
    const rest = request.scenario.events.slice(2);
    expect(rest).toEqual([
      { step: 3, kind: 'watermark', table: 'orders', partition: null, to: DAY + 10 * 3_600_000 },
      { step: 4, kind: 'watermark', table: 'orders', partition: 0, to: 'max' },
      { step: 5, kind: 'idle', table: 'orders', partition: 0 },
      { step: 6, kind: 'active', table: 'orders', partition: null },
      { step: 7, kind: 'advance', ms: 60_000 },
      { step: 8, kind: 'note' },
      { step: 9, kind: 'row', table: 'customers', partition: 0, op: '-D', row: { order_id: 'o1', name: null } },
    ]);
  });

  it('survives JSON: the request line is valid JSON with no raw newline', () => {
    const line = JSON.stringify(toHarnessRequest(load(YAML), 'plan', 0, 'r7'));
    expect(line).not.toContain('\n');
    const back = JSON.parse(line) as { id: string; op: string };
    expect(back.id).toBe('r7');
    expect(back.op).toBe('plan');
  });

  it('sends a file with queries: as its DDL followed by the chosen query', () => {
    const multi = load(`
name: two queries
sql: |
  CREATE TABLE a (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');
  CREATE TABLE b (k STRING, w INT) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');
queries:
  inner: SELECT a.k, v, w FROM a JOIN b ON a.k = b.k;
  left: SELECT a.k, v, w FROM a LEFT JOIN b ON a.k = b.k;
events:
  - { to: a, row: { k: x, v: 1 } }
`);
    const second = toHarnessRequest(multi, 'run', 1).scenario.sql;
    expect(second).toContain('CREATE TABLE b');
    expect(second.trim().endsWith('SELECT a.k, v, w FROM a LEFT JOIN b ON a.k = b.k;')).toBe(true);
    expect(second).not.toContain('FROM a JOIN b');
  });

  it('sends SQL that joinstep rejected, with the events checked against the declared tables', () => {
    const loaded = loadScenarioText(
      'rejected.yaml',
      `
name: rejected
config: { table.local-time-zone: Europe/Berlin }
sql: |
  CREATE TABLE a (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');
  CREATE TABLE b (k STRING, w INT) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');
  SELECT a.k FROM a JOIN b ON a.k = b.nope;
events:
  - { note: x }
  - { to: b, row: { k: x, w: 2 } }
`,
    );
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.rejectedSql).toBeDefined();
    const req = toHarnessRequest(loaded.rejectedSql!, 'run');
    // Flink may well run a query joinstep rejects: it gets the file's events, typed by the DDL
    expect(req.scenario.events).toEqual([{ step: 1, kind: 'note' }, { step: 2, kind: 'row', table: 'b', partition: 0, op: '+I', row: { k: 'x', w: '2' } }]);
    expect(req.scenario.config).toEqual({ 'table.local-time-zone': 'Europe/Berlin' });
    expect(req.scenario.sql).toContain('b.nope');
  });

  it('keeps no rejected SQL for a file whose problems are elsewhere (a bad event)', () => {
    const loaded = loadScenarioText(
      'bad.yaml',
      `
name: bad event
sql: |
  CREATE TABLE a (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');
  CREATE TABLE b (k STRING, w INT) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');
  SELECT a.k FROM a JOIN b ON a.k = b.k;
events:
  - { to: a, row: { k: x, v: not-a-number } }
`,
    );
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.rejectedSql).toBeUndefined();
  });
});
