/**
 * The direct JSON Lines row reader (src/scenario/json-row.ts) must give, whenever it gives a row,
 * exactly the row of the general reader (json-line.ts into FastRows.row), and it must read the
 * common shape itself. Random lines mix spacing, field order, escapes, numbers in every JSON
 * form, words, nulls, nested objects, lists, duplicate and unknown fields, and trailing text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FastRows } from '../../src/scenario/fast-row.js';
import { JsonRowReader } from '../../src/scenario/json-row.js';
import { readJsonObject } from '../../src/scenario/json-line.js';
import { fastRowsFor } from './fast-rows-fixture.js';
import type { LightMap } from '../../src/scenario/flow-line.js';

const SQL = `CREATE TABLE t (
    id STRING NOT NULL, n INT, amount DECIMAL(10, 2), ok BOOLEAN, ts TIMESTAMP(3), d DOUBLE, big BIGINT, lt TIMESTAMP_LTZ(0), small TINYINT,
    doubled AS n * 2, PRIMARY KEY (id) NOT ENFORCED
  ) WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'key.format' = 'json', 'value.format' = 'json');
  CREATE TABLE u (k STRING) WITH ('connector' = 'kafka', 'topic' = 'u', 'format' = 'json');
  SELECT t.id, u.k FROM t JOIN u ON t.id = u.k;`;

function table(): { rows: FastRows; t: NonNullable<ReturnType<FastRows['table']>> } {
  const rows = fastRowsFor(SQL, ['t', 'u']);
  return { rows, t: rows.table('t')! };
}

const values: Record<string, readonly string[]> = {
  id: ['"o1"', '"o\\"2"', '"é ü"', '12', 'null', '"a\\\\b"', '""'],
  n: ['1', '-7', '0', '1.5', '1e3', '"5"', 'null', 'true', '2147483648', '-0', '-2147483648', '00', '-', '-01', '7E1', '2147483647'],
  amount: ['1.10', '100', '"2.5"', '-0.001', '1E2', '12345678901.5', 'null'],
  ok: ['true', 'false', '"true"', 'null', '1'],
  ts: ['"09:30"', '"2026-10-01 10:00:00.250"', '0', '1700000000000', '"nope"', '99999999999999999', 'null', '-0', '-62135596800000', '-62135596800001', '253402300800000', '012', '5.0'],
  d: ['1.5', '-0.0', '1e308', '"NaN"', '3'],
  big: ['9223372036854775807', '9223372036854775808', '-12', '"7"', '9007199254740991', '9007199254740992', '-9007199254740992'],
  lt: ['1700000000999', '-1', '"2026-10-01 10:00:00"', '0'],
  small: ['127', '128', '-129', '"1"'],
  doubled: ['4'],
  nope: ['1'],
  '"id"': ['"dup"'],
};

const names = Object.keys(values);
const field = fc.constantFrom(...names).chain((name) => fc.constantFrom(...values[name]!).map((v) => ({ name, v })));
const space = fc.constantFrom('', ' ', '  ', '\t', ' \r');
const line = fc.record({
  fields: fc.array(fc.tuple(field, space, space), { maxLength: 7 }),
  lead: space,
  tail: fc.constantFrom('', ' ', '\r', ' x', ',', '}', '\n'),
  odd: fc.constantFrom(undefined, undefined, undefined, '{"a": 1}', '[1]', 'tru', '"x'),
});

type Line = typeof line extends fc.Arbitrary<infer T> ? T : never;

function render(l: Line): string {
  const parts = l.fields.map(([f, s1, s2]) => `${s1}${f.name === '"id"' ? '"id"' : JSON.stringify(f.name)}${s2}:${s1}${f.v}${s2}`);
  if (l.odd !== undefined) parts.push(`"n": ${l.odd}`);
  return `${l.lead}{${parts.join(',')}}${l.tail}`;
}

function lightMap(text: string): LightMap {
  const r = readJsonObject(text, 0);
  if (!r.ok) throw new Error(r.message);
  return r.map;
}

describe('JSON Lines rows read straight from the text', () => {
  it('gives the general reader\u2019s row whenever it gives one', () => {
    const { rows, t } = table();
    const direct = new JsonRowReader(rows, t, '+I');
    let readDirect = 0;
    fc.assert(
      fc.property(line, (l) => {
        const text = render(l);
        const mine = direct.read(text, 0);
        const light = readJsonObject(text, 0);
        let general = light.ok ? rows.row(t, light.map, '+I') : undefined;
        if (light.ok) {
          let i = light.end;
          while (text[i] === ' ' || text[i] === '\t' || text[i] === '\r') i++;
          if (i < text.length && text[i] !== '\n') general = undefined;
        }
        if (mine !== undefined) {
          readDirect++;
          expect(mine).toEqual(general);
          expect(direct.objectStart).toBe(light.ok ? light.map.start : -1);
        }
      }),
      { numRuns: 3000 },
    );
    // The common shape is read directly (a reader that gave up on everything would pass above).
    expect(readDirect).toBeGreaterThan(10);
  });

  it('reads the common shape, in any field order', () => {
    const { rows, t } = table();
    const direct = new JsonRowReader(rows, t, '+I');
    expect(direct.read('{"id": "o1", "n": 3, "amount": 1.10, "ok": true, "ts": "09:30"}\n', 0)).toEqual(rows.row(t, lightMap('{"id": "o1", "n": 3, "amount": 1.10, "ok": true, "ts": "09:30"}'), '+I'));
    expect(direct.read('{"ts": 0, "id": "o2"}', 0)?.[0]).toBe('o2');
    // Plain integers and strings (read without the scalar objects) as the general reader reads them.
    for (const l of ['{"id": "a", "n": -0, "ts": -0, "big": -0, "lt": 1700000000999, "small": -128}', '{"id": "", "n": 2147483648}', '{"id": "b", "ts": 253402300800000}', '{"id": 12, "doubled": 4}']) {
      expect(direct.read(l, 0), l).toEqual(rows.row(t, lightMap(l), '+I'));
    }
    const zeros = direct.read('{"id": "a", "n": -0, "ts": -0, "big": -0, "lt": 1700000000999}', 0)!;
    expect([Object.is(zeros[1], 0), Object.is(zeros[4], -0), Object.is(zeros[6], 0), zeros[7]]).toEqual([true, true, true, 1700000000000]);
    expect(direct.read('{"id": "o1", "id": "o2"}', 0)).toBeUndefined();
    expect(direct.read('{"id": "o\\u0031"}', 0)).toBeUndefined();
  });
});
