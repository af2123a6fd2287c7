import { describe, expect, it } from 'vitest';
import type { TExpr } from '../../src/planner/plan.js';
import { compileExpr, SqlRuntimeError, type EvalContext } from '../../src/values/eval.js';
import type { SqlType, Value } from '../../src/values/types.js';
import { BIGINT, BOOL, cast, DBL, dec, INT, lit, LTZ, NULL_LIT, STR, T, TS } from './texpr.js';

const ctx: EvalContext = { procTime: 0, timeZone: 'UTC' };
const run = (e: TExpr, c: EvalContext = ctx): Value => compileExpr(e)([], c);
const c = (v: Value, from: SqlType, to: SqlType, c2: EvalContext = ctx): Value => run(cast(lit(v, from), to), c2);
const tc = (v: Value, from: SqlType, to: SqlType): Value => run(cast(lit(v, from), to, true));

describe('CAST to strings', () => {
  it('numbers, booleans, decimals', () => {
    expect(c(42, INT, STR)).toBe('42');
    expect(c(true, BOOL, STR)).toBe('TRUE');
    expect(c(false, BOOL, STR)).toBe('FALSE');
    expect(c('1.10', dec(3, 2), STR)).toBe('1.10');
    expect(c('0.00000010', dec(10, 8), STR)).toBe('0.00000010'); // toPlainString, unlike the print form
    expect(c(1e10, DBL, STR)).toBe('1.0E10');
    expect(c(100, DBL, STR)).toBe('100.0');
  });
  it('time values in SQL text forms', () => {
    const t = Date.UTC(2026, 9, 1, 9, 30);
    expect(c(t, TS, STR)).toBe('2026-10-01 09:30:00.000');
    expect(c(t + 250, TS, STR)).toBe('2026-10-01 09:30:00.250');
    expect(c(t, T('TIMESTAMP', 0), STR)).toBe('2026-10-01 09:30:00');
    expect(c(t, LTZ, STR, { ...ctx, timeZone: 'Europe/Berlin' })).toBe('2026-10-01 11:30:00.000');
    expect(c(20727, T('DATE'), STR)).toBe('2026-10-01');
    expect(c(34_215_000, T('TIME', 0), STR)).toBe('09:30:15');
  });
  it('to VARCHAR(n) truncates, to CHAR(n) pads', () => {
    expect(c('abcdef', STR, T('VARCHAR', 3))).toBe('abc');
    expect(c('ab', STR, T('CHAR', 4))).toBe('ab  ');
    expect(c(12345, INT, T('VARCHAR', 2))).toBe('12');
  });
});

describe('CAST to numbers', () => {
  it('DECIMAL → INT truncates toward zero; narrowing wraps', () => {
    expect(c('10.9', dec(3, 1), INT)).toBe(10);
    expect(c('-10.9', dec(3, 1), INT)).toBe(-10);
    expect(c('2147483648', dec(10, 0), INT)).toBe(-2147483648);
    expect(c(300, INT, T('TINYINT'))).toBe(44);
    expect(c(4294967297, BIGINT, INT)).toBe(1);
  });
  it('DOUBLE → INT: toward zero, saturating, NaN → 0', () => {
    expect(c(-1.9, DBL, INT)).toBe(-1);
    expect(c(1e20, DBL, INT)).toBe(2147483647);
    expect(c(NaN, DBL, INT)).toBe(0);
  });
  it('to DECIMAL rounds HALF_UP and overflows to null', () => {
    expect(c(5, INT, dec(10, 2))).toBe('5.00');
    expect(c('5.0', dec(2, 1), dec(10, 2))).toBe('5.00');
    expect(c('1.005', dec(4, 3), dec(10, 2))).toBe('1.01');
    expect(c(12345, INT, dec(4, 0))).toBe(null);
    expect(c(10.5, DBL, dec(5, 1))).toBe('10.5');
    expect(c(0.1, DBL, dec(20, 18))).toBe('0.100000000000000000'); // via Double.toString, as BigDecimal.valueOf
    expect(c(true, BOOL, dec(3, 1))).toBe('1.0');
  });
  it('strings parse or fail; TRY_CAST gives null', () => {
    expect(c(' 42 ', STR, INT)).toBe(42);
    expect(c('12.7', STR, INT)).toBe(12);
    expect(c('-7', STR, BIGINT)).toBe(-7);
    expect(c('1.5', STR, DBL)).toBe(1.5);
    expect(c('12.345', STR, dec(10, 2))).toBe('12.35');
    expect(() => c('abc', STR, INT)).toThrow(SqlRuntimeError);
    expect(() => c('abc', STR, INT)).toThrow("Cannot cast 'abc' to INT");
    expect(() => c('99999999999', STR, INT)).toThrow(SqlRuntimeError);
    expect(() => c('12345', STR, dec(3, 0))).toThrow(SqlRuntimeError);
    expect(tc('abc', STR, INT)).toBe(null);
    expect(tc('abc', STR, dec(10, 2))).toBe(null);
    expect(tc('42', STR, INT)).toBe(42);
    expect(run(cast({ ...NULL_LIT, type: STR }, INT))).toBe(null);
  });
  it('to BOOLEAN', () => {
    expect(c('TRUE', STR, BOOL)).toBe(true);
    expect(c('yes', STR, BOOL)).toBe(true);
    expect(c('0', STR, BOOL)).toBe(false);
    expect(tc('maybe', STR, BOOL)).toBe(null);
    expect(c(2, INT, BOOL)).toBe(true);
    expect(c('0.00', dec(3, 2), BOOL)).toBe(false);
  });
});

describe('CAST between time types', () => {
  const t = Date.UTC(2026, 9, 1, 9, 30, 15, 250);
  it('TIMESTAMP ↔ DATE / TIME / precision', () => {
    expect(c(t, TS, T('DATE'))).toBe(20727);
    expect(c(t, TS, T('TIME', 0))).toBe(34_215_000);
    expect(c(20727, T('DATE'), TS)).toBe(Date.UTC(2026, 9, 1));
    expect(c(t, TS, T('TIMESTAMP', 0))).toBe(t - 250);
    expect(c(-1, TS, T('DATE'))).toBe(-1);
  });
  it('TIMESTAMP ↔ TIMESTAMP_LTZ use the session zone', () => {
    const berlin = { ...ctx, timeZone: 'Europe/Berlin' };
    expect(c(t, TS, LTZ, berlin)).toBe(t - 7_200_000);
    expect(c(t, LTZ, TS, berlin)).toBe(t + 7_200_000);
    expect(c(t, LTZ, TS)).toBe(t);
  });
  it('strings to times', () => {
    expect(c('2026-10-01 09:30:15.25', STR, TS)).toBe(t);
    expect(c('2026-10-01', STR, T('DATE'))).toBe(20727);
    expect(c('09:30:15', STR, T('TIME', 0))).toBe(34_215_000);
    expect(c('2026-10-01 09:30:00', STR, LTZ, { ...ctx, timeZone: '+08:00' })).toBe(Date.UTC(2026, 9, 1, 1, 30));
    expect(() => c('09:30', STR, TS)).toThrow(SqlRuntimeError);
    expect(tc('not a time', STR, TS)).toBe(null);
  });
  it('refuses casts Flink does not have', () => {
    expect(() => compileExpr(cast(lit(1, INT), TS))).toThrow(SqlRuntimeError);
  });
});
