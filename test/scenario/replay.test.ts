/**
 * `replay:` entries (src/scenario/replay.ts): every data format, the arrival rules and their
 * ties, time ranges, mixing with inline events, and bad lines reported at their line and column
 * in the data file with the inline message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioFile, loadScenarioText } from '../../src/scenario/load.js';
import type { LoadResult, ScenarioEvent } from '../../src/scenario/types.js';

const dir = mkdtempSync(join(tmpdir(), 'joinstep-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = `name: replay
date: 2026-10-01
partitions: { orders: 2 }
sql: |
  CREATE TABLE orders (
    id STRING NOT NULL,
    cur STRING,
    amount DECIMAL(10, 2),
    ts TIMESTAMP(3)
  ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE rates (
    cur STRING,
    rate DECIMAL(10, 4),
    PRIMARY KEY (cur) NOT ENFORCED
  ) WITH ('connector' = 'upsert-kafka', 'topic' = 'rates', 'key.format' = 'json', 'value.format' = 'json');
  CREATE TABLE ships (
    sid STRING,
    id STRING,
    PRIMARY KEY (sid) NOT ENFORCED
  ) WITH ('connector' = 'kafka', 'topic' = 'ships', 'format' = 'debezium-json');
queries:
  rated: SELECT o.id, r.rate FROM orders AS o LEFT JOIN rates AS r ON o.cur = r.cur;
  shipped: SELECT o.id, s.sid FROM orders AS o LEFT JOIN ships AS s ON o.id = s.id;
events:
`;

function write(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

function load(events: string): LoadResult {
  return loadScenarioText(join(dir, 's.yaml'), HEAD + events);
}

function events(r: LoadResult): ScenarioEvent[] {
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message}`).join('\n'));
  return [...r.scenario.events];
}

function problems(r: LoadResult): string[] {
  if (r.ok) throw new Error('loaded, but should have failed');
  return r.diagnostics.map((d) => `${d.file.slice(dir.length + 1)}:${d.line}:${d.col}: ${d.message}`);
}

/** A row event's table, op and row as text, for short assertions. */
function brief(e: ScenarioEvent): string {
  if (e.kind !== 'row') return e.kind;
  return `${e.table}/${e.partition} ${e.op} ${e.row.map((v) => (v === null ? 'null' : String(v))).join(',')}`;
}

const T = (hm: string) => Date.parse(`2026-10-01T${hm}:00Z`);
const kcat = (topic: string, partition: number, ts: number, key: unknown, payload: unknown) =>
  JSON.stringify({ topic, partition, offset: 0, tstype: 'create', ts, broker: 0, key, payload: payload === null ? null : JSON.stringify(payload) });

describe('replay: JSON Lines', () => {
  it('reads plain rows as +I for the table, in file order, at their data-file positions', () => {
    write('a.jsonl', '{"id": "o1", "amount": 1.10}\n\n{"id": "o2", "cur": "EUR", "ts": "09:30"}\n');
    const evs = events(load('  - { replay: a.jsonl, to: orders, partition: 1 }\n'));
    expect(evs.map(brief)).toEqual(['orders/1 +I o1,null,1.10,null', `orders/1 +I o2,EUR,null,${T('09:30')}`]);
    expect(evs.map((e) => [e.file?.endsWith('a.jsonl'), e.pos.line, e.pos.col])).toEqual([
      [true, 1, 1],
      [true, 3, 1],
    ]);
  });

  it('keeps a number as written for a DECIMAL and a STRING column', () => {
    write('d.jsonl', '{"id": 12, "amount": 1.10}\n');
    const [e] = events(load('  - { replay: d.jsonl, to: orders }\n'));
    expect(e).toMatchObject({ row: ['12', null, expect.anything(), null] });
  });

  it('reports a bad value at its line and column in the data file, with the inline message', () => {
    write('bad.jsonl', '{"id": "o1"}\n{"id": "o2", "amount": "abc"}\n{"amount": 1}\n{"id": "o4", "nope": 1}\n{"id": "o5",\n');
    const inline = problems(load('  - { to: orders, row: { id: o2, amount: "abc" } }\n'))[0]!.replace(/^[^ ]+ /, '');
    expect(problems(load('  - { replay: bad.jsonl, to: orders }\n'))).toEqual([
      `bad.jsonl:2:24: ${inline}`,
      'bad.jsonl:3:1: this row for `orders` has no value for NOT NULL column `id`',
      'bad.jsonl:4:14: table `orders` has no column `nope`',
      'bad.jsonl:5:13: expected a quoted field name, not the end of the line',
    ]);
  });

  it('says a NUL byte is one, with its line, where a file is otherwise UTF-8', () => {
    write('nul.jsonl', '{"id": "o1"}\n{"id": "o2"}\n{"id": "o\u00003"}\n');
    const r = load('  - { replay: nul.jsonl, to: orders }\n');
    if (r.ok) throw new Error('loaded, but should have failed');
    expect(r.diagnostics.map((d) => [d.message, d.hint])).toEqual([
      [`data file ${join(dir, 'nul.jsonl')} holds a NUL byte (line 3): it is not a text file`, 'a data file is JSON Lines, CSV or a Kafka capture, as UTF-8 text: is this the right file?'],
    ]);
  });

  it('interleaves several files by a time field; equal times keep the file order, then the line order', () => {
    write('t1.jsonl', ['{"id": "a1", "ts": "09:00"}', '{"id": "a2", "ts": "09:05"}', '{"id": "a3", "ts": "09:05"}'].join('\n'));
    write('t2.jsonl', ['{"id": "b1", "ts": "09:05"}', '{"id": "b2", "ts": "08:00"}'].join('\n'));
    const evs = events(load('  - { replay: [t1.jsonl, t2.jsonl], to: orders, time-field: ts }\n'));
    expect(evs.map((e) => (e.kind === 'row' ? e.row[0] : e.kind))).toEqual(['b2', 'a1', 'a2', 'a3', 'b1']);
  });

  it('takes file order with order: files, and one record per (file, partition) stream with round-robin', () => {
    write('r1.jsonl', '{"id": "a1"}\n{"id": "a2"}\n{"id": "a3"}\n');
    write('r2.jsonl', '{"id": "b1"}\n');
    const ids = (r: LoadResult) => events(r).map((e) => (e.kind === 'row' ? `${e.row[0]}/${e.partition}` : e.kind));
    expect(ids(load('  - { replay: [r2.jsonl, r1.jsonl], to: orders }\n'))).toEqual(['b1/0', 'a1/0', 'a2/0', 'a3/0']);
    const rr = '  - replay: [{ file: r1.jsonl, to: orders }, { file: r2.jsonl, to: orders, partition: 1 }]\n    order: round-robin\n';
    expect(ids(load(rr))).toEqual(['a1/0', 'b1/1', 'a2/0', 'a3/0']);
  });

  it('mixes with inline events, which keep their place', () => {
    write('m.jsonl', '{"id": "f1"}\n');
    const evs = events(load('  - { note: first }\n  - { replay: m.jsonl, to: orders }\n  - { advance: 5 s }\n  - { to: orders, row: { id: i1 } }\n'));
    expect(evs.map(brief)).toEqual(['note', 'orders/0 +I f1,null,null,null', 'advance', 'orders/0 +I i1,null,null,null']);
  });
});

describe('replay: CSV', () => {
  it('reads a header and records; unquoted fields as plain scalars, quoted ones as strings, empty as null', () => {
    write('c.csv', 'id,amount,cur\no1,1.10,EUR\n"o,2",,"GBP"""\n');
    expect(events(load('  - { replay: c.csv, to: orders }\n')).map(brief)).toEqual(['orders/0 +I o1,EUR,1.10,null', 'orders/0 +I o,2,GBP",null,null']);
  });

  it('reports a bad cell and a short record at their positions', () => {
    write('cb.csv', 'id,amount\no1,abc\no2\n');
    expect(problems(load('  - { replay: cb.csv, to: orders }\n'))).toEqual([
      expect.stringMatching(/^cb\.csv:2:4: column `amount`: /),
      'cb.csv:3:1: this CSV record has 1 field, but the header has 2',
    ]);
    write('cs.csv', 'id,amount\no2\n');
    expect(problems(load('  - { replay: cs.csv, to: orders }\n'))).toEqual(['cs.csv:2:1: this CSV record has 1 field, but the header has 2']);
  });
});

describe('replay: CSV shape problems', () => {
  it.each([
    ['an unterminated quoted field', 'id,amount\no1,1\n"o2,2\n', 'u.csv:3:1: unterminated quoted CSV field'],
    ['text after a closing quote', 'id,amount\n"o1"x,1\n', 'q.csv:2:5: a quoted CSV field must end at a `,` or the end of the line'],
    ['a quote inside an unquoted field', 'id,amount\no"1,1\n', 'i.csv:2:1: a `"` inside an unquoted CSV field'],
    ['a header naming a column twice', 'id,id\n', 'h.csv:1:4: the CSV header names `id` twice'],
    ['an empty file', '', 'e.csv:1:1: the CSV file is empty: it needs a header line of column names'],
    ['a record with too many fields', 'id,amount\no1,1,2\n', 'f.csv:2:1: this CSV record has 3 fields, but the header has 2'],
  ])('%s: at its position, with a hint', (_what, text, expected) => {
    const name = expected.split(':')[0]!;
    write(name, text);
    const r = load(`  - { replay: ${name}, to: orders }\n`);
    expect(problems(r)).toEqual([expected]);
    if (!r.ok) expect(r.diagnostics[0]!.hint ?? '').not.toBe('');
  });
});

describe('replay: Kafka topic dumps (kcat -J)', () => {
  it('maps topics to tables, keeps partitions, orders by timestamp and sets the processing time from it', () => {
    write(
      'k.jsonl',
      [
        kcat('orders', 1, T('09:02'), 'o1', { id: 'o1', cur: 'EUR' }),
        kcat('fx', 0, T('09:01'), '{"cur":"EUR"}', { cur: 'EUR', rate: 1.1 }),
        kcat('fx', 0, T('09:03'), '{"cur":"EUR"}', null),
        kcat('fx', 0, T('09:04'), 'GBP', null),
      ].join('\n'),
    );
    const evs = events(load('  - { replay: k.jsonl, format: kafka, topics: { fx: rates } }\n'));
    expect(evs.map(brief)).toEqual(['rates/0 +I EUR,1.1000', 'orders/1 +I o1,EUR,null,null', 'rates/0 -D EUR,null', 'rates/0 -D GBP,null']);
    expect(evs.map((e) => e.at)).toEqual([T('09:01'), T('09:02'), T('09:03'), T('09:04')]);
  });

  it('reads debezium envelopes for a debezium-json table and skips its tombstones', () => {
    write(
      'dbz.jsonl',
      [
        kcat('ships', 0, 1, 's1', { before: null, after: { sid: 's1', id: 'o1' }, op: 'c' }),
        kcat('ships', 0, 2, 's1', { before: { sid: 's1', id: 'o1' }, after: { sid: 's1', id: 'o2' }, op: 'u' }),
        kcat('ships', 0, 3, 's1', { before: { sid: 's1', id: 'o2' }, after: null, op: 'd' }),
        kcat('ships', 0, 4, 's1', null),
      ].join('\n'),
    );
    expect(events(load('  - { replay: dbz.jsonl, format: kafka, processing-time: none }\n')).map(brief)).toEqual([
      'ships/0 +I s1,o1',
      'ships/0 -U s1,o1',
      'ships/0 +U s1,o2',
      'ships/0 -D s1,o2',
    ]);
  });

  it('ties on the timestamp keep the file order, then the line order', () => {
    write('k1.jsonl', [kcat('orders', 0, 5, 'a', { id: 'a1' }), kcat('orders', 0, 5, 'a', { id: 'a2' })].join('\n'));
    write('k2.jsonl', kcat('orders', 1, 5, 'b', { id: 'b1' }));
    const ids = events(load('  - { replay: [k2.jsonl, k1.jsonl], format: kafka }\n')).map((e) => (e.kind === 'row' ? e.row[0] : e.kind));
    expect(ids).toEqual(['b1', 'a1', 'a2']);
  });

  it('selects a time range with from / until, so inline events can stand at a given time', () => {
    write('kr.jsonl', [kcat('orders', 0, T('09:00'), 'a', { id: 'a1' }), kcat('orders', 0, T('10:00'), 'b', { id: 'b1' })].join('\n'));
    const evs = events(
      load(
        '  - { replay: kr.jsonl, format: kafka, until: "09:30" }\n  - { at: "09:30", note: half }\n  - { replay: kr.jsonl, format: kafka, from: "09:30" }\n',
      ),
    );
    expect(evs.map((e) => `${brief(e)}@${e.at ?? ''}`)).toEqual([`orders/0 +I a1,null,null,null@${T('09:00')}`, `note@${T('09:30')}`, `orders/0 +I b1,null,null,null@${T('10:00')}`]);
  });

  it('reports a tombstone for an append-only table, a bad partition and a bad payload at the data-file position', () => {
    write(
      'kb.jsonl',
      [
        kcat('orders', 0, 1, 'a', null),
        kcat('orders', 2, 2, 'a', { id: 'a' }),
        JSON.stringify({ topic: 'orders', partition: 0, ts: 3, payload: '{"id": ' }),
        JSON.stringify({ topic: 'nope', partition: 0, ts: 4, payload: '{}' }),
      ].join('\n'),
    );
    const got = problems(load('  - { replay: kb.jsonl, format: kafka }\n'));
    expect(got).toHaveLength(4);
    expect(got[0]).toMatch(/^kb\.jsonl:1:\d+: a tombstone \(null payload\) for append-only table `orders`$/);
    expect(got[1]).toMatch(/^kb\.jsonl:2:\d+: partition 2 is out of range: table `orders` has 2 partitions \(0 to 1\)$/);
    expect(got[2]).toMatch(/^kb\.jsonl:3:\d+: the payload is not a JSON object: /);
    expect(got[3]).toMatch(/^kb\.jsonl:4:\d+: no table for topic `nope`$/);
  });
});

describe('replay: the entry itself', () => {
  it('reports unknown keys, a missing table, an unknown format and a missing file in the scenario', () => {
    const line = HEAD.split('\n').length;
    expect(problems(load('  - { replay: x.jsonl, to: orders, bogus: 1 }\n'))[0]).toBe(`s.yaml:${line}:36: unknown replay key \`bogus\``);
    expect(problems(load('  - { replay: x.jsonl }\n'))[0]).toMatch(/a jsonl replay needs `to:`/);
    expect(problems(load('  - { replay: x.txt, to: orders }\n'))[0]).toMatch(/cannot tell the format of .*x\.txt from the file name/);
    expect(problems(load('  - { replay: missing.jsonl, to: orders }\n'))[0]).toMatch(/^s\.yaml:\d+:15: data file .*missing\.jsonl: no such file$/);
    expect(problems(load('  - { replay: x.jsonl, to: orders, order: time }\n'))[0]).toMatch(/`order: time` needs `time-field:`/);
    expect(problems(load('  - { replay: [{ file: k.jsonl, partition: 1 }], format: kafka }\n'))[0]).toMatch(/Kafka records carry their own partition/);
  });

  it('caps the problems of one data file', () => {
    write('many.jsonl', Array.from({ length: 30 }, () => '{"id": "o", "amount": "x"}').join('\n'));
    const got = problems(load('  - { replay: many.jsonl, to: orders }\n'));
    expect(got).toHaveLength(21);
    expect(got[20]).toMatch(/10 more problems in .*many\.jsonl not shown/);
  });
});

describe('the bundled capture', () => {
  it('scenarios/kafka-capture-replay.yaml loads its events from scenarios/data', async () => {
    const r = await loadScenarioFile('scenarios/kafka-capture-replay.yaml');
    const evs = events(r);
    expect(evs.filter((e) => e.file !== undefined).map((e) => e.file)).toEqual([
      'scenarios/data/capture-fx-rates.kcat.jsonl',
      'scenarios/data/capture-orders.kcat.jsonl',
      'scenarios/data/capture-orders.kcat.jsonl',
      'scenarios/data/capture-fx-rates.kcat.jsonl',
      'scenarios/data/capture-fx-rates.kcat.jsonl',
      'scenarios/data/capture-orders.kcat.jsonl',
    ]);
  });
});
