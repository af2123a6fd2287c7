import { describe, expect, it } from 'vitest';
import { loadScenarioFile, loadScenarioText } from '../../src/scenario/load.js';
import type { LoadResult, Scenario } from '../../src/scenario/types.js';

const SQL = `sql: |
  CREATE TABLE orders (
    order_id STRING,
    amount DECIMAL(10, 2),
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
  ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE customers (
    order_id STRING NOT NULL,
    name STRING
  ) WITH ('connector' = 'kafka', 'topic' = 'customers', 'format' = 'json');
  SELECT o.order_id, o.amount, c.name
  FROM orders AS o JOIN customers AS c ON o.order_id = c.order_id;`;

/** Line 1 is `name`, lines 2..14 the SQL, then `top`, then `events:`; with no `top` the items start on line 16. */
function scenario(events: string, top = ''): string {
  return `name: test\n${SQL}\n${top}events:\n${events}`;
}

function ok(r: LoadResult): Scenario {
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  return r.scenario;
}

function problems(r: LoadResult): string[] {
  if (r.ok) throw new Error('loaded, but should have failed');
  return r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
}

describe('loadScenarioText', () => {
  it('applies the defaults', () => {
    const s = ok(loadScenarioText('t.yaml', scenario('  []')));
    expect(s.file).toBe('t.yaml');
    expect(s.flinkVersion).toBe('2.3');
    expect(s.watermarks).toBe('auto');
    expect(s.date).toBe(0);
    expect(s.partitions).toEqual({ orders: 1, customers: 1 });
    expect(s.config.autoWatermarkIntervalMs).toBe(200);
    expect(s.events).toEqual([]);
    expect(s).not.toHaveProperty('expect');
    expect(s).not.toHaveProperty('demo');
  });

  it('reads an unquoted flink-version by its source text, plus description, demo and partitions', () => {
    const top = 'flink-version: 2.0\ndescription: about\ndemo: "nnnp"\npartitions: { orders: 3 }\n';
    const s = ok(loadScenarioText('t.yaml', scenario('  []', top)));
    expect(s.flinkVersion).toBe('2.0');
    expect(s.description).toBe('about');
    expect(s.demo).toBe('nnnp');
    expect(s.partitions).toEqual({ orders: 3, customers: 1 });
  });

  it('types every event kind, with defaults for op, partition and watermark to', () => {
    const events = [
      '  - { to: orders, row: { order_id: o1, amount: 1.10, ts: "09:30" } }',
      '  - { to: orders, op: -D, partition: 1, row: { order_id: o1 } }',
      '  - { watermark: orders }',
      '  - { watermark: orders, partition: 0, to: max }',
      '  - { watermark: orders, to: 1000 }',
      '  - { idle: orders, partition: 1 }',
      '  - { active: customers }',
      '  - { advance: 5 s, note: five seconds later }',
      '  - { at: "2026-10-01 09:00", note: jump }',
      '  - { at: "2026-10-01 09:00", to: customers, row: { order_id: o1 } }',
    ].join('\n');
    const s = ok(loadScenarioText('t.yaml', scenario(events, 'date: 2026-10-01\npartitions: { orders: 2 }\n')));
    const day = Date.UTC(2026, 9, 1);
    const nine = day + 9 * 3_600_000;
    expect(s.events).toEqual([
      { kind: 'row', table: 'orders', partition: 0, op: '+I', row: ['o1', '1.10', nine + 30 * 60_000], pos: { line: 18, col: 5 } },
      { kind: 'row', table: 'orders', partition: 1, op: '-D', row: ['o1', null, null], pos: { line: 19, col: 5 } },
      { kind: 'watermark', table: 'orders', to: 'generated', pos: { line: 20, col: 5 } },
      { kind: 'watermark', table: 'orders', partition: 0, to: 'max', pos: { line: 21, col: 5 } },
      { kind: 'watermark', table: 'orders', to: 1000, pos: { line: 22, col: 5 } },
      { kind: 'idle', table: 'orders', partition: 1, pos: { line: 23, col: 5 } },
      { kind: 'active', table: 'customers', pos: { line: 24, col: 5 } },
      { kind: 'advance', ms: 5000, note: 'five seconds later', pos: { line: 25, col: 5 } },
      { kind: 'note', at: nine, note: 'jump', pos: { line: 26, col: 5 } },
      { kind: 'row', table: 'customers', partition: 0, op: '+I', row: ['o1', null], at: nine, pos: { line: 27, col: 5 } },
    ]);
  });

  it('lets the first event set the clock anywhere, then never back, counting advances', () => {
    const events = ['  - { at: 5000, note: a }', '  - { advance: 1 s }', '  - { at: 5500, note: b }'].join('\n');
    const r = loadScenarioText('t.yaml', scenario(events, 'date: 2026-10-01\n'));
    // 5000 + 1 s = 6000, so 5500 goes back. The file's date is 2026, so times print in full.
    expect(problems(r)).toEqual(['19:11 processing time cannot go back from 1970-01-01 00:00:06 to 1970-01-01 00:00:05.500']);
  });

  it('collects every problem, in file order', () => {
    const text = [
      'name: many problems',
      'watermarks: sometimes',
      SQL,
      'events:',
      '  - { to: orders, op: "+X", row: { order_id: o1, amuont: 5 } }',
      '  - { to: customers, row: { order_id: null } }',
      '  - { watermark: customers }',
      'colour: blue',
    ].join('\n');
    expect(problems(loadScenarioText('t.yaml', text))).toEqual([
      '2:13 watermarks must be `auto` or `manual`, not "sometimes"',
      '17:23 op must be one of +I, -U, +U, -D, not "+X"',
      '17:50 table `orders` has no column `amuont`',
      '18:39 column `order_id` is NOT NULL, so it cannot be null',
      '19:18 table `customers` has no WATERMARK declaration, so it has no watermark to send',
      '20:1 unknown top-level key `colour`',
    ]);
  });

  it('still reads events when the query is rejected, and returns expect and name', () => {
    const text = scenario('  - { to: orders, row: { nope: 1 } }', 'expect:\n  error: "something"\n').replace(
      'ON o.order_id = c.order_id',
      'ON o.order_id = c.missing_column',
    );
    const r = loadScenarioText('t.yaml', text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.name).toBe('test');
    expect(r.expect).toEqual({ error: 'something' });
    expect(r.diagnostics.length).toBeGreaterThanOrEqual(1);
    expect(r.diagnostics[0]!.line).toBe(14);
  });

  it('rejects a row with `to` but no `row`, and a map with two kinds', () => {
    const events = ['  - { to: orders }', '  - { watermark: orders, advance: 1 s }'].join('\n');
    expect(problems(loadScenarioText('t.yaml', scenario(events)))).toEqual([
      '16:5 this row event has `to:` but no `row:`',
      '17:26 an event has one kind, but this one has both `watermark` and `advance`',
    ]);
  });

  it('rejects keys of another kind, and events to views or unread tables', () => {
    const events = ['  - { watermark: orders, op: +I }'].join('\n');
    expect(problems(loadScenarioText('t.yaml', scenario(events)))).toEqual(['16:26 `op` does not apply to a watermark event']);
  });

  it('reads expect lists, taking an unquoted result row as written', () => {
    const top = 'expect:\n  changelog: ["+I[o1, 1.10, Ann]"]\n  result:\n    - [o1, 1.10, Ann]\n';
    const s = ok(loadScenarioText('t.yaml', scenario('  []', top)));
    expect(s.expect).toEqual({ changelog: ['+I[o1, 1.10, Ann]'], result: ['[o1, 1.10, Ann]'] });
  });

  it('reports an empty file and a file that is not a map at their start', () => {
    expect(problems(loadScenarioText('t.yaml', ''))).toEqual(['1:1 the scenario file is empty']);
    expect(problems(loadScenarioText('t.yaml', '# c\n42\n'))[0]).toMatch(/^2:1 a scenario file must be a YAML map/);
  });
});

describe('loadScenarioFile', () => {
  it('turns a missing file into a diagnostic at 1:1', async () => {
    const r = await loadScenarioFile('/nonexistent/dir/x.yaml');
    expect(r).toEqual({ ok: false, diagnostics: [{ file: '/nonexistent/dir/x.yaml', line: 1, col: 1, message: 'no such file', hint: 'check the path' }] });
  });
});

describe('partition indexes', () => {
  const hints = (events: string, top = ''): string[] => {
    const r = loadScenarioText('t.yaml', scenario(events, top));
    if (r.ok) throw new Error('loaded, but should have failed');
    return r.diagnostics.map((d) => `${d.message} | ${d.hint ?? ''}`);
  };
  it('a negative index: numbered from 0', () => {
    expect(hints('  - { to: orders, partition: -1, row: { order_id: o1 } }\n')).toEqual(['partition must be a partition index (0, 1, ...), not the number -1 | partitions are numbered from 0: `partition: 0` is the first']);
  });
  it('an index past the table: the partitions to declare, unless no table could have it', () => {
    expect(hints('  - { to: orders, partition: 2, row: { order_id: o1 } }\n', 'partitions: { orders: 2 }\n')).toEqual(['partition 2 is out of range: table `orders` has 2 partitions (0 to 1) | set `partitions: { orders: 3 }` at the top level to use more']);
    expect(hints('  - { to: orders, partition: 256, row: { order_id: o1 } }\n')).toEqual(['partition 256 is out of range: table `orders` has 1 partition (partition 0) | a table has at most 256 partitions here: is 256 the partition\'s index?']);
  });
});

describe('events and the tables they name', () => {
  const text = [
    'name: t',
    'sql: |',
    "  CREATE TABLE orders (order_id STRING, customer_id STRING, proc_time AS PROCTIME()) WITH ('connector' = 'kafka', 'topic' = 'o', 'format' = 'json');",
    "  CREATE TABLE customers (customer_id STRING, name STRING, PRIMARY KEY (customer_id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = 'jdbc:x', 'table-name' = 'c');",
    "  CREATE TABLE unused (x STRING) WITH ('connector' = 'kafka', 'topic' = 'u', 'format' = 'json');",
    "  CREATE TABLE out_t (order_id STRING, name STRING, PRIMARY KEY (order_id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'x', 'key.format' = 'json', 'value.format' = 'json');",
    '  CREATE VIEW v AS SELECT * FROM customers;',
    '  INSERT INTO out_t SELECT o.order_id, c.name FROM orders AS o JOIN customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.customer_id = c.customer_id ON CONFLICT DO DEDUPLICATE;',
    'events:',
    '  - { to: customers, op: +U, row: { customer_id: c1, name: Ann } }',
    '  - { to: orders, row: { order_id: o1, proc_time: "09:00" } }',
    '  - { to: out_t, row: { order_id: o1 } }',
    '  - { to: unused, row: { x: a } }',
    '  - { idle: customers }',
    '  - { to: v, row: { customer_id: c2 } }',
  ].join('\n');

  it('explains each wrong target: computed proctime, the sink, an unread table, a lookup table, a view', () => {
    const r = loadScenarioText('t.yaml', text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => `${d.line}:${d.col}`)).toEqual(['11:40', '12:11', '13:11', '14:13', '15:11']);
    const [proc, sink, unused, idle, view] = r.diagnostics;
    expect(proc!.message).toContain('`proc_time` of `orders` is computed from the processing time');
    expect(proc!.hint).toContain('`at:` or `advance:`');
    expect(sink!.message).toContain('`out_t` is the sink');
    expect(unused!.message).toContain('does not read table `unused`');
    expect(idle!.message).toContain('`customers` is a lookup table');
    expect(view!.message).toContain('`v` is a view');
    expect(view!.hint).toContain('`customers`');
  });

  it('accepts +U on a lookup table', () => {
    const only = text.split('\n').slice(0, 10).join('\n');
    const s = ok(loadScenarioText('t.yaml', only));
    expect(s.events[0]).toMatchObject({ kind: 'row', table: 'customers', op: '+U', row: ['c1', 'Ann'] });
  });
});

describe('required values of the right shape', () => {
  it('rejects sql that is not text and events that are empty', () => {
    expect(problems(loadScenarioText('t.yaml', 'name: t\nsql: 42\nevents: []\n'))).toEqual([
      '2:6 sql must be a text block with the SQL statements, not the number 42',
    ]);
    expect(problems(loadScenarioText('t.yaml', `name: t\n${SQL}\nevents:\n`))).toEqual([
      '15:1 events must be a list (write `events: []` for none)',
    ]);
  });
});
