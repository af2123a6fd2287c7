import { describe, expect, it } from 'vitest';
import { parseValue, type ScalarInput, type ValueResult } from '../../src/values/literal.js';
import type { SqlType } from '../../src/values/types.js';

const T = (kind: SqlType['kind'], precision?: number, scale?: number): SqlType => ({ kind, nullable: true, precision, scale });
const ctx = { dateMs: Date.UTC(2026, 9, 1), timeZone: 'UTC' };
const num = (text: string): ScalarInput => ({ text, yamlType: 'number', quoted: false });
const str = (text: string, quoted = true): ScalarInput => ({ text, yamlType: 'string', quoted });
const bool = (text: string): ScalarInput => ({ text, yamlType: 'boolean', quoted: false });
const NULL: ScalarInput = { text: '~', yamlType: 'null', quoted: false };

function value(r: ValueResult): unknown {
  if (!r.ok) throw new Error(`unexpected error: ${r.message}`);
  return r.value;
}
function error(r: ValueResult): { message: string; hint?: string } {
  if (r.ok) throw new Error(`expected an error, got ${String(r.value)}`);
  return r;
}

describe('parseValue', () => {
  it('null for any type', () => {
    for (const k of ['STRING', 'INT', 'DECIMAL', 'TIMESTAMP', 'BOOLEAN'] as const) expect(value(parseValue(T(k, 10, 2), NULL, ctx))).toBeNull();
  });

  it('strings take the source text of any scalar', () => {
    expect(value(parseValue(T('STRING'), num('007'), ctx))).toBe('007');
    expect(value(parseValue(T('VARCHAR', 5), num('1.10'), ctx))).toBe('1.10');
    expect(value(parseValue(T('STRING'), bool('true'), ctx))).toBe('true');
    expect(value(parseValue(T('CHAR', 3), str('EUR'), ctx))).toBe('EUR');
  });

  it('booleans: only true / false', () => {
    expect(value(parseValue(T('BOOLEAN'), bool('true'), ctx))).toBe(true);
    expect(value(parseValue(T('BOOLEAN'), bool('False'), ctx))).toBe(false);
    expect(error(parseValue(T('BOOLEAN'), str('yes', false), ctx)).hint).toBe('write true or false');
    expect(parseValue(T('BOOLEAN'), num('1'), ctx).ok).toBe(false);
  });

  it('integers: range-checked, integers only', () => {
    expect(value(parseValue(T('INT'), num('-7'), ctx))).toBe(-7);
    expect(value(parseValue(T('TINYINT'), num('127'), ctx))).toBe(127);
    expect(error(parseValue(T('TINYINT'), num('128'), ctx)).message).toBe('128 is out of range for TINYINT');
    expect(parseValue(T('SMALLINT'), num('-32769'), ctx).ok).toBe(false);
    expect(parseValue(T('INT'), num('2147483648'), ctx).ok).toBe(false);
    expect(value(parseValue(T('BIGINT'), num('9000000000'), ctx))).toBe(9000000000);
    expect(value(parseValue(T('BIGINT'), num('9007199254740991'), ctx))).toBe(9007199254740991);
    const big = error(parseValue(T('BIGINT'), num('9007199254740993'), ctx));
    expect(big.hint).toContain('2^53-1');
    expect(error(parseValue(T('INT'), num('1.5'), ctx)).message).toBe('1.5 is not a valid INT');
    expect(error(parseValue(T('INT'), num('1.5'), ctx)).hint).toBe('an INT column takes an integer');
    expect(error(parseValue(T('BIGINT'), num('1.5'), ctx)).hint).toBe('a BIGINT column takes an integer');
    const time = error(parseValue(T('BIGINT'), str('09:30'), ctx));
    expect(time.message).toBe('"09:30" is not a valid BIGINT');
    expect(time.hint).toContain('epoch milliseconds');
    expect(parseValue(T('INT'), bool('true'), ctx).ok).toBe(false);
  });

  it('decimals from the source text, cast as Flink casts', () => {
    expect(value(parseValue(T('DECIMAL', 10, 2), num('1.10'), ctx))).toBe('1.10');
    expect(value(parseValue(T('DECIMAL', 10, 2), num('1.5'), ctx))).toBe('1.50');
    expect(value(parseValue(T('DECIMAL', 10, 2), str('12.34'), ctx))).toBe('12.34');
    expect(value(parseValue(T('DECIMAL', 10, 2), num('1.005'), ctx))).toBe('1.01');
    expect(value(parseValue(T('DECIMAL', 10, 2), num('100'), ctx))).toBe('100.00');
    expect(value(parseValue(T('DECIMAL', 4, 2), num('123.4'), ctx))).toBeNull();
    expect(value(parseValue(T('DECIMAL', 10, 4), num('1.0E-2'), ctx))).toBe('0.0100');
    expect(parseValue(T('DECIMAL', 10, 2), str('twelve'), ctx).ok).toBe(false);
  });

  it('floating point', () => {
    expect(value(parseValue(T('DOUBLE'), num('0.1'), ctx))).toBe(0.1);
    expect(value(parseValue(T('DOUBLE'), num('1.0E10'), ctx))).toBe(1e10);
    expect(value(parseValue(T('DOUBLE'), num('.nan'), ctx))).toBeNaN();
    expect(value(parseValue(T('DOUBLE'), num('-.inf'), ctx))).toBe(-Infinity);
    expect(value(parseValue(T('FLOAT'), num('0.1'), ctx))).toBe(Math.fround(0.1));
    expect(parseValue(T('DOUBLE'), str('abc'), ctx).ok).toBe(false);
  });

  it('dates, times and timestamps', () => {
    expect(value(parseValue(T('DATE'), str('2026-10-01', false), ctx))).toBe(20727);
    expect(parseValue(T('DATE'), str('2026-10-32', false), ctx).ok).toBe(false);
    expect(value(parseValue(T('TIME', 0), str('09:30:15'), ctx))).toBe(34_215_000);
    expect(value(parseValue(T('TIME', 0), str('09:30:15.250'), ctx))).toBe(34_215_000);
    expect(value(parseValue(T('TIME', 3), str('09:30:15.250'), ctx))).toBe(34_215_250);
    expect(value(parseValue(T('TIMESTAMP', 3), str('09:30'), ctx))).toBe(Date.UTC(2026, 9, 1, 9, 30));
    expect(value(parseValue(T('TIMESTAMP', 3), num('1700000000000'), ctx))).toBe(1700000000000);
    expect(value(parseValue(T('TIMESTAMP', 0), str('09:30:15.250'), ctx))).toBe(Date.UTC(2026, 9, 1, 9, 30, 15));
    const berlin = { ...ctx, timeZone: 'Europe/Berlin' };
    expect(value(parseValue(T('TIMESTAMP_LTZ', 3), str('09:30'), berlin))).toBe(Date.UTC(2026, 9, 1, 7, 30));
    expect(value(parseValue(T('TIMESTAMP', 3), str('09:30'), berlin))).toBe(Date.UTC(2026, 9, 1, 9, 30));
    const bad = error(parseValue(T('TIMESTAMP', 3), str('9:3o'), ctx));
    expect(bad.message).toContain('"9:3o" is not a time');
  });

  it('intervals as durations', () => {
    expect(value(parseValue(T('INTERVAL'), str('5 s', false), ctx))).toBe(5000);
    expect(value(parseValue(T('INTERVAL'), num('250'), ctx))).toBe(250);
  });
});
