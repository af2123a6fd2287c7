/**
 * The fast path for one-line events (src/scenario/fast-events.ts) must give exactly what the
 * general path gives: the same Scenario, or the same diagnostics at the same positions. Random
 * scripts mix valid rows with every kind of mistake, other event kinds, and lines outside the
 * fast reader's subset (which send the whole file down the general path).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutEventsBlock } from '../../src/scenario/fast-events.js';
import { readFlowLine } from '../../src/scenario/flow-line.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { LoadResult } from '../../src/scenario/types.js';

const HEAD = `name: fast
date: 2026-10-01
partitions: { orders: 2 }
sql: |
  CREATE TABLE orders (
    id STRING NOT NULL,
    amount DECIMAL(10, 2),
    n INT,
    ok BOOLEAN,
    ts TIMESTAMP(3),
    doubled AS n * 2,
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
  ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE rates (
    cur STRING,
    rate DECIMAL(10, 4),
    ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts,
    PRIMARY KEY (cur) NOT ENFORCED
  ) WITH ('connector' = 'upsert-kafka', 'topic' = 'rates', 'key.format' = 'json', 'value.format' = 'json');
  CREATE TABLE other (x INT) WITH ('connector' = 'kafka', 'topic' = 'x', 'format' = 'json');
  SELECT o.id, o.amount * r.rate AS usd FROM orders AS o
  JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.id = r.cur;
`;

const scalar = fc.constantFrom(
  'o1', 'EUR', '1.10', '-5', '0', '12', '1e3', '0x1F', '0o7', '.5', '.inf', 'null', '~', 'Null', 'true', 'False', 'TRUE',
  '"09:30"', '"2026-10-01 09:30:15.250"', '09:30', "'it''s'", '"a \\" b"', '""', "''", '99999999999999999999', '12:00:00',
  'two words', 'x:y', '-', 'hello # not', '"q\\n"', '[1]', '&a x', '*a', '!!str 5', '9999-12-31', '"10000-01-01"', '1.5e400',
);
const opText = fc.constantFrom('+I', '-U', '+U', '-D', '-u', '"+u"', 'x', '5');
const column = fc.constantFrom('id', 'amount', 'n', 'ok', 'ts', 'doubled', 'cur', 'rate', 'nope', 'x');
const table = fc.constantFrom('orders', 'rates', 'other', 'ordres', '5', 'null');

const row = fc.uniqueArray(fc.tuple(column, scalar), { maxLength: 5, selector: ([c]) => c }).map(
  (cols) => `{ ${cols.map(([c, v]) => `${c}: ${v}`).join(', ')} }`,
);

const rowEvent = fc
  .record({
    to: table,
    row,
    op: fc.option(opText, { nil: undefined }),
    partition: fc.option(fc.constantFrom('0', '1', '2', '-1', '0.5', 'a'), { nil: undefined }),
    at: fc.option(fc.constantFrom('"09:00"', '"10:00"', '"08:00"', '5'), { nil: undefined }),
    note: fc.option(fc.constantFrom('hello', '"a note"', '42', '{ a: 1 }'), { nil: undefined }),
    typo: fc.option(fc.constantFrom('rwo: {}', 'partiton: 1', 'watermark: rates'), { nil: undefined }),
  })
  .map(({ to, row, op, partition, at, note, typo }) => {
    const parts = [`to: ${to}`, `row: ${row}`];
    if (op !== undefined) parts.push(`op: ${op}`);
    if (partition !== undefined) parts.push(`partition: ${partition}`);
    if (at !== undefined) parts.push(`at: ${at}`);
    if (note !== undefined) parts.push(`note: ${note}`);
    if (typo !== undefined) parts.push(typo);
    return `{ ${parts.join(', ')} }`;
  });

const otherEvent = fc.constantFrom(
  '{ watermark: orders, to: "09:30" }',
  '{ watermark: rates }',
  '{ watermark: rates, to: max, partition: 0 }',
  '{ idle: orders, partition: 1 }',
  '{ active: orders }',
  '{ advance: 5 s }',
  '{ advance: -1 }',
  '{ note: just a note }',
  '{ at: "11:00", note: later }',
  '{ to: orders }',
  '{ }',
  '{ to: orders, row: { id: o9 } }   # a comment',
  '{to: orders, row: {id: o8}}',
  '{ to: orders, row: { id: o7 }, }',
  '{ to: orders, to: rates, row: {} }',
);

/** Well-typed rows, so that many scripts load and their events are compared too. */
const goodOrder = fc
  .record({
    id: fc.constantFrom('o1', 'EUR', '"o 2"', "'o3'", '12'),
    amount: fc.option(fc.constantFrom('1.10', '100', '-5', 'null', '"2.5"'), { nil: undefined }),
    n: fc.option(fc.constantFrom('1', '-7', '~', '0x10'), { nil: undefined }),
    ok: fc.option(fc.constantFrom('true', 'FALSE', 'null'), { nil: undefined }),
    ts: fc.option(fc.constantFrom('"09:30"', '"2026-10-01 10:00:00.250"', '0', '1700000000000'), { nil: undefined }),
    op: fc.option(fc.constantFrom('+I', '-U', '+U', '-D', '-d'), { nil: undefined }),
    partition: fc.option(fc.constantFrom('0', '1'), { nil: undefined }),
  })
  .map(({ op, partition, ...cols }) => {
    const values = Object.entries(cols).filter(([, v]) => v !== undefined).map(([c, v]) => `${c}: ${v}`);
    const extra = [op === undefined ? '' : `, op: ${op}`, partition === undefined ? '' : `, partition: ${partition}`].join('');
    return `{ to: orders, row: { ${values.join(', ')} }${extra} }`;
  });
const goodRate = fc
  .record({ cur: fc.constantFrom('EUR', 'USD'), rate: fc.constantFrom('1.10', '0.5', 'null'), ts: fc.constantFrom('"09:00"', '5') })
  .map(({ cur, rate, ts }) => `{ to: rates, row: { cur: ${cur}, rate: ${rate}, ts: ${ts} } }`);

const line = fc.oneof(
  { weight: 6, arbitrary: goodOrder },
  { weight: 3, arbitrary: goodRate },
  { weight: 1, arbitrary: rowEvent },
  { weight: 1, arbitrary: otherEvent },
);

const script = fc.record({
  items: fc.array(line, { maxLength: 8 }),
  indent: fc.constantFrom('  ', '', '    '),
  blank: fc.boolean(),
  tail: fc.constantFrom('', 'expect:\n  changelog: []\n', 'demo: "jj"\n', 'expect: { result: 5 }\n', 'bogus: 1\n'),
});

function render({ items, indent, blank, tail }: { items: string[]; indent: string; blank: boolean; tail: string }): string {
  const lines = items.map((l, i) => `${indent}- ${l}${blank && i === 1 ? '\n\n# between\n' : ''}`);
  return `${HEAD}events:\n${lines.join('\n')}\n${tail}`;
}

function both(text: string): [LoadResult, LoadResult] {
  return [loadScenarioText('f.yaml', text), loadScenarioText('f.yaml', text, { fastEvents: false })];
}

describe('fast events loading', () => {
  it('gives the general path\u2019s Scenario or diagnostics on random scripts', () => {
    let loaded = 0;
    fc.assert(
      fc.property(script, (s) => {
        const [fast, general] = both(render(s));
        expect(fast).toEqual(general);
        if (fast.ok && fast.scenario.events.length > 0) loaded++;
      }),
      { numRuns: 400 },
    );
    // Enough of the scripts load for their events to be compared, not only their diagnostics.
    expect(loaded).toBeGreaterThan(40);
  });

  it('takes the fast path for one-line items and reads valid rows with their positions', () => {
    const text = `${HEAD}events:\n  - { to: rates, row: { cur: EUR, rate: 1.10, ts: "09:00" } }\n\n  - { to: orders, row: { id: EUR, amount: 100, ts: "09:30" }, partition: 1 }\n`;
    expect(cutEventsBlock(text)?.offsets.length).toBe(2);
    const [fast, general] = both(text);
    expect(fast).toEqual(general);
    if (!fast.ok) throw new Error(fast.diagnostics[0]!.message);
    const firstLine = HEAD.split('\n').length + 1;
    expect(fast.scenario.events.map((e) => e.pos)).toEqual([
      { line: firstLine, col: 5 },
      { line: firstLine + 2, col: 5 },
    ]);
    expect(fast.scenario.events[1]).toMatchObject({ kind: 'row', table: 'orders', partition: 1, op: '+I' });
  });

  it('reports a bad value on a fast line at its line and column, as the general path does', () => {
    const text = `${HEAD}events:\n  - { to: orders, row: { id: o1, n: abc } }\nexpect: { changelog: [] }\n`;
    expect(cutEventsBlock(text)).toBeDefined();
    const [fast, general] = both(text);
    expect(fast).toEqual(general);
    if (fast.ok) throw new Error('loaded');
    const line = HEAD.split('\n').length + 1;
    expect(fast.diagnostics.map((d) => `${d.line}:${d.col}`)).toEqual([`${line}:${'  - { to: orders, row: { id: o1, n: '.length + 1}`]);
  });

  it('keeps the positions of keys after the events block', () => {
    const text = `${HEAD}events:\n  - { to: orders, row: { id: o1 } }\n  - { to: orders, row: { id: o2 } }\nbogus: 1\n`;
    const [fast, general] = both(text);
    expect(fast).toEqual(general);
    if (fast.ok) throw new Error('loaded');
    expect(fast.diagnostics[0]).toMatchObject({ line: HEAD.split('\n').length + 3, col: 1 });
  });

  it('leaves multi-line items, lists and anchors to the general path', () => {
    expect(cutEventsBlock(`${HEAD}events:\n  - { to: orders,\n      row: { id: o1 } }\n`)).toBeUndefined();
    expect(cutEventsBlock(`${HEAD}events:\n  - to: orders\n    row: { id: o1 }\n`)).toBeUndefined();
    expect(readFlowLine('{ to: orders, row: [1] }', 0)).toBeUndefined();
    expect(readFlowLine('{ to: &a orders }', 0)).toBeUndefined();
    expect(readFlowLine('{ to: orders } trailing', 0)).toBeUndefined();
    expect(readFlowLine('{ a: "x\\ty" }', 0)).toBeUndefined();
  });

  it('resolves plain scalars as the YAML library does', () => {
    const m = readFlowLine('{ a: 1.10, b: 0x1F, c: null, d: True, e: 1e3, f: -0, g: word, h: .NaN, i: 12345678901234567890 }', 0)!;
    const values = m.values.map((v) => (v.map ? undefined : v.value));
    expect(values.slice(0, 7)).toEqual([1.1, 31, null, true, 1000, -0, 'word']);
    expect(values[7]).toBeNaN();
    expect(values[8]).toBe(12345678901234567890);
  });
});
