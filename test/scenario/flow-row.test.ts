/**
 * The direct reader of one-line row events (src/scenario/flow-row.ts) must give, whenever it
 * gives an event, exactly the light reader's event (flow-line.ts into FastRows.event), and it
 * must read the common shape itself. Random lines vary spacing, key order, table and column
 * names, and scalars of every kind YAML resolves differently (null and boolean words, integers
 * long and short, floats, quoted strings, words with `-`), plus duplicates and comments.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FastRows } from '../../src/scenario/fast-row.js';
import { FlowRowReader } from '../../src/scenario/flow-row.js';
import { readFlowLine } from '../../src/scenario/flow-line.js';
import { fastRowsFor } from './fast-rows-fixture.js';

const SQL = `CREATE TABLE orders (
    id STRING NOT NULL, n INT, amount DECIMAL(10, 2), ok BOOLEAN, ts TIMESTAMP(3), big BIGINT, s STRING,
    doubled AS n * 2, PRIMARY KEY (id) NOT ENFORCED
  ) WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'key.format' = 'json', 'value.format' = 'json');
  CREATE TABLE rates (k STRING) WITH ('connector' = 'kafka', 'topic' = 'u', 'format' = 'json');
  SELECT o.id, r.k FROM orders AS o JOIN rates AS r ON o.id = r.k;`;

function rowsFor(): FastRows {
  return fastRowsFor(SQL, ['orders', 'rates']);
}

const scalar = fc.constantFrom(
  'o1', 'EUR', 'a-b', '_x', 'null', 'Null', 'NULL', '~', 'true', 'False', 'TRUE', 'yes', '12', '-5', '007', '0', '-0',
  '123456789012345', '1234567890123456', '-', '1.10', '1e3', '0x1F', '.5', '.inf', '"q"', "'s'", '2026-10-01', '9:30', 'a b',
);
const column = fc.constantFrom('n', 'amount', 'ok', 'ts', 'big', 's', 's', 's', 'doubled', 'nope', 'true', '5', 'id');
const sp = fc.constantFrom('', ' ', '  ');
const line = fc.record({
  table: fc.constantFrom('orders', 'orders', 'orders', 'rates', 'other', '5', 'null', 'ord-ers'),
  id: fc.constantFrom('o1', 'o1', 'a-b', 'null', '12', '"q"', '~'),
  fields: fc.array(fc.tuple(column, scalar, sp), { maxLength: 4 }),
  s1: sp,
  s2: sp,
  swap: fc.constantFrom(false, false, false, true),
  tail: fc.constantFrom('', '', '', ' ', ' # c', ', op: +I', 'x'),
});
type Line = typeof line extends fc.Arbitrary<infer T> ? T : never;

function render(l: Line): string {
  const fields: [string, string, string][] = [['id', l.id, ''], ...l.fields];
  const row = `{${l.s1}${fields.map(([c, v, s]) => `${c}: ${v}${s}`).join(`,${l.s2}`)}${l.s1}}`;
  const parts = l.swap ? [`row: ${row}`, `to: ${l.table}`] : [`to: ${l.table}`, `row: ${row}`];
  const tail = l.tail.startsWith(',') ? l.tail : '';
  return `{${l.s1}${parts.join(', ')}${tail}${l.s1}}${l.tail.startsWith(',') ? '' : l.tail}`;
}

describe('one-line row events read straight from the text', () => {
  it('gives the light reader\u2019s event whenever it gives one', () => {
    const rows = rowsFor();
    const direct = new FlowRowReader(rows);
    let readDirect = 0;
    const pos = { line: 3, col: 5 };
    fc.assert(
      fc.property(line, (l) => {
        const text = render(l);
        const mine = direct.read(text, 0, pos);
        if (mine === undefined) return;
        readDirect++;
        const light = readFlowLine(text, 0);
        expect(light, text).toBeDefined();
        expect(mine).toEqual(rows.event(light!, pos));
      }),
      { numRuns: 4000 },
    );
    expect(readDirect).toBeGreaterThan(30);
  });

  it('reads the common shape', () => {
    const direct = new FlowRowReader(rowsFor());
    const ev = direct.read('{ to: orders, row: { id: o1, n: 3, s: abc } }', 0, { line: 1, col: 1 });
    expect(ev).toMatchObject({ table: 'orders', op: '+I', partition: 0, pos: { line: 1, col: 1 } });
    expect(ev?.kind === 'row' ? [ev.row[0], ev.row[1], ev.row[6]] : []).toEqual(['o1', 3, 'abc']);
    expect(direct.read('{ to: orders, row: { id: o1, ok: null } }', 0, { line: 1, col: 1 })).toBeUndefined();
    expect(direct.read('{ to: orders, row: { id: o1 } } # note', 0, { line: 1, col: 1 })).toBeUndefined();
  });
});
