import { describe, expect, it } from 'vitest';
import { printable } from '../../src/values/printable.js';
import { formatDuration, formatResultRow, formatRow, formatValue, resultRowFormatter } from '../../src/values/format.js';
import { parseValue, type ScalarInput } from '../../src/values/literal.js';
import type { SqlType, Value } from '../../src/values/types.js';

const T = (kind: SqlType['kind'], precision?: number, scale?: number): SqlType => ({ kind, nullable: true, precision, scale });

describe('formatValue: spec §5', () => {
  it.each<[SqlType, Value, string]>([
    [T('STRING'), null, 'null'],
    [T('INT'), null, 'null'],
    [T('STRING'), 'EUR', 'EUR'],
    [T('VARCHAR', 10), 'a, b', 'a, b'],
    [T('BOOLEAN'), true, 'true'],
    [T('BOOLEAN'), false, 'false'],
    [T('INT'), 42, '42'],
    [T('INT'), -7, '-7'],
    [T('BIGINT'), 9000000000, '9000000000'],
    [T('DECIMAL', 21, 6), '110.000000', '110.000000'],
    [T('DECIMAL', 10, 2), '1.10', '1.10'],
    [T('DECIMAL', 10, 8), '0.00000010', '1.0E-7'],
    [T('DOUBLE'), 1.1, '1.1'],
    [T('DOUBLE'), 1e10, '1.0E10'],
    [T('DOUBLE'), 100, '100.0'],
    [T('FLOAT'), Math.fround(0.1), '0.1'],
    [T('TIMESTAMP', 3), Date.UTC(2026, 9, 1, 9, 30), '2026-10-01T09:30'],
    [T('TIMESTAMP', 3), Date.UTC(2026, 9, 1, 9, 30, 15), '2026-10-01T09:30:15'],
    [T('TIMESTAMP', 3), Date.UTC(2026, 9, 1, 9, 30, 15, 250), '2026-10-01T09:30:15.250'],
    [T('TIMESTAMP_LTZ', 3), Date.UTC(2026, 9, 1, 9, 30), '2026-10-01T09:30:00Z'],
    [T('TIMESTAMP_LTZ', 3), 8, '1970-01-01T00:00:00.008Z'],
    [T('DATE'), 20727, '2026-10-01'],
    [T('TIME', 0), 34_215_000, '09:30:15'],
    [T('INTERVAL'), 5000, 'PT5S'],
  ])('%j %j → %s', (type, v, want) => {
    expect(formatValue(type, v)).toBe(want);
  });

  it('prints durations as java.time.Duration', () => {
    expect(formatDuration(0)).toBe('PT0S');
    expect(formatDuration(5_400_000)).toBe('PT1H30M');
    expect(formatDuration(250)).toBe('PT0.25S');
    expect(formatDuration(-1500)).toBe('PT-1.5S');
    expect(formatDuration(90_000_000)).toBe('PT25H');
  });
});

describe('rows', () => {
  it('formats a changelog row and a result row', () => {
    const types = [T('STRING'), T('TIMESTAMP', 3), T('DECIMAL', 21, 6)];
    const row = ['o1', Date.UTC(2026, 9, 1, 9, 30), '110.000000'];
    expect(formatRow('+I', row, types)).toBe('+I[o1, 2026-10-01T09:30, 110.000000]');
    expect(formatRow('-U', ['s1', null], [T('STRING'), T('INT')])).toBe('-U[s1, null]');
    expect(formatResultRow(row, types)).toBe('[o1, 2026-10-01T09:30, 110.000000]');
  });

  it('resultRowFormatter prints what formatResultRow prints, row after row', () => {
    const types = [T('STRING'), T('TIMESTAMP', 3), T('TIMESTAMP', 0), T('DECIMAL', 10, 8), T('DOUBLE'), T('TIMESTAMP_LTZ', 3), T('INT'), T('BOOLEAN'), T('DATE'), T('TIME', 3), T('INTERVAL')];
    const t = Date.UTC(2026, 9, 1, 9, 30, 15, 250);
    const rows: Value[][] = [
      ['o1', t, t, '0.00000010', 100, t, 7, true, 20727, 34_215_250, 5000],
      // the same timestamps again (a column remembers its last text), then others and nulls
      ['o2', t, t, '1.50000000', 1e10, 8, -7, false, 0, 0, 250],
      ['o3', t + 1, t + 999, null, null, null, null, null, null, null, null],
      ['o4', -1, Date.UTC(10000, 0, 1), '-0.00000001', -0.5, -1, 0, true, -1, 999, -1500],
      [null, 0, 0, '0', 0, 0, 9000000000, false, 2932896, 86_399_999, 90_000_000],
    ];
    const format = resultRowFormatter(types);
    for (const row of rows) expect(format(row)).toBe(formatResultRow(row, types));
    expect(format(['only', t])).toBe('[only, 2026-10-01T09:30:15.250]');
    expect(format([])).toBe('[]');
    // a value beyond the types (a column the schema does not type) prints as values() prints it
    const short = resultRowFormatter([T('STRING')]);
    expect(short(['a', 1, null, undefined as unknown as Value])).toBe(formatResultRow(['a', 1, null, undefined as unknown as Value], [T('STRING')]));
    expect(short(['a', 1, null])).toBe('[a, 1, null]');
  });

  it('resultRowFormatter prints what formatResultRow prints at every width, rows of another length too', () => {
    const all = [T('STRING'), T('TIMESTAMP', 3), T('INT'), T('DECIMAL', 10, 2), T('BOOLEAN'), T('DOUBLE'), T('TIMESTAMP', 0), T('DATE'), T('BIGINT'), T('TIME', 3)];
    const values: Value[] = ['a, b', Date.UTC(2026, 9, 1, 9, 30, 15, 250), -7, '1.10', true, 1e10, Date.UTC(2026, 9, 1, 9, 30), 20727, 9000000000, 34_215_250];
    for (let width = 0; width <= all.length; width++) {
      const types = all.slice(0, width);
      const format = resultRowFormatter(types);
      const row = values.slice(0, width);
      const nulls = row.map(() => null);
      for (const r of [row, nulls, row, values.slice(0, width + 1), values.slice(0, Math.max(0, width - 1))]) {
        expect(format(r)).toBe(formatResultRow(r, types));
      }
    }
  });

  it("a TIMESTAMP column's minute text and seconds table print Java's LocalDateTime text", () => {
    // The oracle: Date's ISO text, trimmed as LocalDateTime.toString trims (no `:00` seconds of
    // a whole minute, no `.000`), for years 0..9999 where both print four digits.
    const java = (ms: number): string => {
      const iso = new Date(ms).toISOString().slice(0, -1);
      return iso.endsWith(':00.000') ? iso.slice(0, -7) : iso.endsWith('.000') ? iso.slice(0, -4) : iso;
    };
    const format = resultRowFormatter([T('TIMESTAMP', 3), T('TIMESTAMP', 3)]);
    let seed = 7;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const base = Date.UTC(2026, 9, 1, 23, 58);
    for (let i = 0; i < 20_000; i++) {
      // runs inside one minute, across minutes and days, and far jumps (before 1970 too)
      const a = i % 50 === 0 ? Math.floor((random() - 0.3) * 2e14) : base + Math.floor(random() * 5 * 60_000) - 60_000;
      const b = i % 3 === 0 ? a : base + (i % 120_000);
      expect(format([a, b])).toBe(`[${java(a)}, ${java(b)}]`);
    }
    // the general way's precisions and values beyond the tables
    for (const p of [0, 1, 2, 3]) {
      const one = resultRowFormatter([T('TIMESTAMP', p)]);
      for (let i = 0; i < 2_000; i++) {
        const v = Math.floor((random() - 0.5) * 1e13);
        expect(one([v])).toBe(formatResultRow([v], [T('TIMESTAMP', p)]));
      }
      expect(one([Date.UTC(10000, 0, 1, 0, 0, 1, 5)])).toBe(formatResultRow([Date.UTC(10000, 0, 1, 0, 0, 1, 5)], [T('TIMESTAMP', p)]));
      expect(one([0.5])).toBe(formatResultRow([0.5], [T('TIMESTAMP', p)]));
    }
  });

  it('pads time fields the same in and out of the digit tables', () => {
    // years past 9999 take the general way
    expect(formatValue(T('TIMESTAMP', 3), Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe('2026-01-02T03:04:05.006');
    expect(formatValue(T('TIMESTAMP', 3), Date.UTC(2026, 0, 2, 3, 4, 5, 60))).toBe('2026-01-02T03:04:05.060');
    expect(formatValue(T('TIMESTAMP', 3), Date.UTC(12026, 11, 31, 23, 59, 59, 999))).toBe('+12026-12-31T23:59:59.999');
    expect(formatValue(T('TIME', 3), 45_296_007)).toBe('12:34:56.007');
  });

  it('keeps the print format raw but escapes control characters for the UI', () => {
    const s = 'a\nb\tc\u001b[31md\u007f\u2028';
    expect(formatValue(T('STRING'), s)).toBe(s);
    // One spelling for the UI, the commands and the messages (printable.ts): Calcite's.
    expect(printable(s)).toBe('a\\nb\\tc\\u001b[31md\\u007f\\u2028');
    expect(printable('plain text, ünïcode ✓')).toBe('plain text, ünïcode ✓');
  });
});

/** The conformance example test/conformance/examples/print-format.yaml: its `a` rows through parseValue and formatRow. */
describe('print-format.yaml conformance', () => {
  const ctx = { dateMs: Date.UTC(2026, 9, 1), timeZone: 'UTC' };
  const cols: [string, SqlType][] = [
    ['id', T('STRING')],
    ['n', T('INT')],
    ['big', T('BIGINT')],
    ['amt', T('DECIMAL', 10, 2)],
    ['ok', T('BOOLEAN')],
    ['ratio', T('DOUBLE')],
    ['ts', T('TIMESTAMP', 3)],
    ['lts', T('TIMESTAMP_LTZ', 3)],
  ];
  const plain = (text: string, yamlType: ScalarInput['yamlType']): ScalarInput => ({ text, yamlType, quoted: false });
  const str = (text: string): ScalarInput => ({ text, yamlType: 'string', quoted: true });
  function row(scalars: ScalarInput[]): Value[] {
    return scalars.map((s, i) => {
      const r = parseValue((cols[i] as [string, SqlType])[1], s, ctx);
      if (!r.ok) throw new Error(r.message);
      return r.value;
    });
  }
  const types = [...cols.map((c) => c[1]), T('STRING')];
  it('first row', () => {
    const r = row([
      plain('x', 'string'), plain('7', 'number'), plain('9000000000', 'number'), plain('1.5', 'number'),
      plain('true', 'boolean'), plain('0.1', 'number'), str('09:30'), str('09:30:15.250'),
    ]);
    expect(formatRow('+I', [...r, null], types)).toBe(
      '+I[x, 7, 9000000000, 1.50, true, 0.1, 2026-10-01T09:30, 2026-10-01T09:30:15.250Z, null]',
    );
  });
  it('second row', () => {
    const r = row([
      plain('x', 'string'), plain('-7', 'number'), plain('0', 'number'), str('12.34'),
      plain('false', 'boolean'), plain('1.0E10', 'number'), str('09:30:15.250'), str('09:30'),
    ]);
    expect(formatRow('+I', [...r, null], types)).toBe(
      '+I[x, -7, 0, 12.34, false, 1.0E10, 2026-10-01T09:30:15.250, 2026-10-01T09:30:00Z, null]',
    );
  });
});
