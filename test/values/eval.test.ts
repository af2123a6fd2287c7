import { describe, expect, it } from 'vitest';
import type { TExpr } from '../../src/planner/plan.js';
import { compileExpr, SqlRuntimeError, type EvalContext } from '../../src/values/eval.js';
import type { Row, Value } from '../../src/values/types.js';
import { BIGINT, BOOL, call, col, DBL, dec, INT, LTZ, lit, NULL_LIT, STR, T, TS } from './texpr.js';

const ctx: EvalContext = { procTime: Date.UTC(2026, 9, 1, 9, 30), timeZone: 'UTC' };
const ev = (e: TExpr, row: Row = [], c: EvalContext = ctx): Value => compileExpr(e)(row, c);
const b = (v: boolean | null): TExpr => (v === null ? { ...NULL_LIT, type: BOOL } : lit(v, BOOL));

describe('three-valued logic', () => {
  const vals = [true, false, null] as const;
  it('AND / OR / NOT truth tables', () => {
    const and = (x: boolean | null, y: boolean | null): boolean | null => (x === false || y === false ? false : x === null || y === null ? null : true);
    const or = (x: boolean | null, y: boolean | null): boolean | null => (x === true || y === true ? true : x === null || y === null ? null : false);
    for (const x of vals) {
      for (const y of vals) {
        expect(ev(call('AND', BOOL, b(x), b(y))), `${x} AND ${y}`).toBe(and(x, y));
        expect(ev(call('OR', BOOL, b(x), b(y))), `${x} OR ${y}`).toBe(or(x, y));
      }
      expect(ev(call('NOT', BOOL, b(x)))).toBe(x === null ? null : !x);
    }
  });
  it('n-ary AND / OR', () => {
    expect(ev(call('AND', BOOL, b(true), b(null), b(false)))).toBe(false);
    expect(ev(call('AND', BOOL, b(true), b(null), b(true)))).toBe(null);
    expect(ev(call('OR', BOOL, b(false), b(null), b(true)))).toBe(true);
  });
  it('IS [NOT] NULL / TRUE / FALSE never yield null', () => {
    for (const x of vals) {
      expect(ev(call('IS NULL', BOOL, b(x)))).toBe(x === null);
      expect(ev(call('IS NOT NULL', BOOL, b(x)))).toBe(x !== null);
      expect(ev(call('IS TRUE', BOOL, b(x)))).toBe(x === true);
      expect(ev(call('IS NOT TRUE', BOOL, b(x)))).toBe(x !== true);
      expect(ev(call('IS FALSE', BOOL, b(x)))).toBe(x === false);
      expect(ev(call('IS NOT FALSE', BOOL, b(x)))).toBe(x !== false);
    }
  });
});

describe('comparisons', () => {
  it('are null when a side is null', () => {
    expect(ev(call('=', BOOL, col(0, INT), lit(1, INT)), [null])).toBe(null);
    expect(ev(call('<', BOOL, lit(1, INT), col(0, INT)), [null])).toBe(null);
  });
  it('compare INT with DECIMAL exactly, and DECIMALs across scales', () => {
    expect(ev(call('=', BOOL, lit(10, INT), lit('10.00', dec(4, 2))))).toBe(true);
    expect(ev(call('<', BOOL, lit(10, INT), lit('10.01', dec(4, 2))))).toBe(true);
    expect(ev(call('=', BOOL, lit('1.10', dec(3, 2)), lit('1.1', dec(2, 1))))).toBe(true);
    expect(ev(call('>', BOOL, lit('-0.5', dec(2, 1)), lit('-0.50001', dec(6, 5))))).toBe(true);
    expect(ev(call('=', BOOL, lit(9007199254740991, BIGINT), lit('9007199254740991.0', dec(17, 1))))).toBe(true);
    expect(ev(call('<>', BOOL, lit(9007199254740991, BIGINT), lit('9007199254740990.9', dec(17, 1))))).toBe(true);
  });
  it('strings by UTF-16 code units, like Java compareTo', () => {
    expect(ev(call('<', BOOL, lit('B', STR), lit('a', STR)))).toBe(true);
    expect(ev(call('<', BOOL, lit('abc', STR), lit('abd', STR)))).toBe(true);
    expect(ev(call('<', BOOL, lit('ab', STR), lit('abc', STR)))).toBe(true);
    // U+FF5E (one unit 0xFF5E) sorts after U+1F600 (surrogates 0xD83D...) by code units
    expect(ev(call('>', BOOL, lit('\uff5e', STR), lit('😀', STR)))).toBe(true);
  });
  it('DOUBLE with NaN: every comparison false except <>', () => {
    for (const op of ['=', '<', '<=', '>', '>=']) expect(ev(call(op, BOOL, lit(NaN, DBL), lit(1, DBL)))).toBe(false);
    expect(ev(call('<>', BOOL, lit(NaN, DBL), lit(NaN, DBL)))).toBe(true);
  });
  it('timestamps numerically', () => {
    expect(ev(call('<=', BOOL, col(0, TS), col(1, TS)), [1000, 2000])).toBe(true);
  });
  it('IS [NOT] DISTINCT FROM treats nulls as equal', () => {
    expect(ev(call('IS DISTINCT FROM', BOOL, col(0, INT), col(1, INT)), [null, null])).toBe(false);
    expect(ev(call('IS DISTINCT FROM', BOOL, col(0, INT), col(1, INT)), [1, null])).toBe(true);
    expect(ev(call('IS NOT DISTINCT FROM', BOOL, col(0, INT), col(1, INT)), [null, null])).toBe(true);
    expect(ev(call('IS NOT DISTINCT FROM', BOOL, col(0, INT), col(1, dec(3, 1))), [2, '2.0'])).toBe(true);
  });
  it('IN with SQL null semantics', () => {
    const inList = (x: Value, ...items: Value[]): Value =>
      ev(call('IN', BOOL, lit(x, INT), ...items.map((i) => (i === null ? { ...NULL_LIT, type: INT } : lit(i, INT)))));
    expect(inList(1, 1, 2)).toBe(true);
    expect(inList(3, 1, 2)).toBe(false);
    expect(inList(3, 1, null)).toBe(null);
    expect(inList(1, null, 1)).toBe(true);
    expect(ev(call('IN', BOOL, { ...NULL_LIT, type: INT }, lit(1, INT)))).toBe(null);
    expect(ev(call('IN', BOOL, lit(2, INT), lit('2.00', dec(3, 2))))).toBe(true);
  });
  it('BETWEEN', () => {
    expect(ev(call('BETWEEN', BOOL, lit(5, INT), lit(1, INT), lit(5, INT)))).toBe(true);
    expect(ev(call('NOT BETWEEN', BOOL, lit(6, INT), lit(1, INT), lit(5, INT)))).toBe(true);
    expect(ev(call('BETWEEN', BOOL, lit(5, INT), { ...NULL_LIT, type: INT }, lit(4, INT)))).toBe(false);
  });
  it('LIKE: % and _ , regex characters literal, no default escape', () => {
    const like = (s: string, p: string, esc?: string): Value =>
      ev(call('LIKE', BOOL, lit(s, STR), lit(p, STR), ...(esc ? [lit(esc, STR)] : [])));
    expect(like('EUR', 'E%')).toBe(true);
    expect(like('EUR', 'E_R')).toBe(true);
    expect(like('EUR', 'E_')).toBe(false);
    expect(like('a.c', 'a.c')).toBe(true);
    expect(like('abc', 'a.c')).toBe(false);
    expect(like('a\nb', 'a%b')).toBe(true);
    expect(like('(x)+[y]', '(x)+[y]')).toBe(true);
    expect(like('50%', '50!%', '!')).toBe(true);
    expect(like('500', '50!%', '!')).toBe(false);
    expect(like('a\\b', 'a\\b')).toBe(true);
    expect(ev(call('LIKE', BOOL, col(0, STR), col(1, STR)), ['xy', 'x%'])).toBe(true);
    expect(ev(call('LIKE', BOOL, col(0, STR), lit('x%', STR)), [null])).toBe(null);
  });
});

describe('arithmetic', () => {
  it('propagates null', () => {
    expect(ev(call('+', INT, col(0, INT), lit(1, INT)), [null])).toBe(null);
    expect(ev(call('*', dec(10, 2), col(0, dec(5, 2)), lit(1, INT)), [null])).toBe(null);
  });
  it('wraps INT and BIGINT as Java does', () => {
    expect(ev(call('+', INT, lit(2147483647, INT), lit(1, INT)))).toBe(-2147483648);
    expect(ev(call('*', INT, lit(65536, INT), lit(65536, INT)))).toBe(0);
    expect(ev(call('-', INT, lit(-2147483648, INT), lit(1, INT)))).toBe(2147483647);
    expect(ev(call('/', INT, lit(-2147483648, INT), lit(-1, INT)))).toBe(-2147483648);
    expect(ev(call('/', INT, lit(-7, INT), lit(2, INT)))).toBe(-3);
    expect(ev(call('%', INT, lit(-7, INT), lit(2, INT)))).toBe(-1);
    expect(ev(call('+', T('TINYINT'), lit(127, T('TINYINT')), lit(1, T('TINYINT'))))).toBe(-128);
    expect(ev(call('*', BIGINT, lit(4294967296, BIGINT), lit(4294967296, BIGINT)))).toBe(0); // 2^64 wraps to 0
    expect(ev(call('+', BIGINT, lit(9007199254740991, BIGINT), lit(1, BIGINT)))).toBe(9007199254740992);
    expect(ev(call('NEG', INT, lit(-2147483648, INT)))).toBe(-2147483648);
  });
  it('integer division by zero fails', () => {
    expect(() => ev(call('/', INT, lit(1, INT), lit(0, INT)))).toThrow(SqlRuntimeError);
    expect(() => ev(call('%', INT, lit(1, INT), lit(0, INT)))).toThrow(SqlRuntimeError);
    expect(() => ev(call('/', dec(10, 6), lit('1.0', dec(2, 1)), lit('0.00', dec(3, 2))))).toThrow(SqlRuntimeError);
  });
  it('DECIMAL results are rounded to the node type, overflow is null', () => {
    // amount DECIMAL(10, 2) * usd_rate DECIMAL(10, 4) → DECIMAL(21, 6)
    expect(ev(call('*', dec(21, 6), col(0, dec(10, 2)), col(1, dec(10, 4))), ['100.00', '1.1000'])).toBe('110.000000');
    expect(ev(call('+', dec(11, 2), lit('1.10', dec(10, 2)), lit(2, INT)))).toBe('3.10');
    expect(ev(call('/', dec(38, 6), lit(1, INT), lit(3, INT)))).toBe('0.333333');
    expect(ev(call('/', dec(16, 6), lit('10.00', dec(4, 2)), lit('15', dec(2, 0))))).toBe('0.666667');
    expect(ev(call('*', dec(38, 6), lit('100000000000000000000', dec(21, 0)), lit('1000000000000000000', dec(19, 0))))).toBe(null);
    expect(ev(call('*', dec(5, 2), lit('999.99', dec(5, 2)), lit(2, INT)))).toBe(null);
    expect(ev(call('%', dec(3, 1), lit('-7.5', dec(2, 1)), lit(2, INT)))).toBe('-1.5');
    expect(ev(call('NEG', dec(3, 2), lit('0.50', dec(3, 2))))).toBe('-0.50');
  });
  it('DOUBLE arithmetic and mixed DECIMAL/DOUBLE', () => {
    expect(ev(call('+', DBL, lit(0.1, DBL), lit(0.2, DBL)))).toBe(0.1 + 0.2);
    expect(ev(call('*', DBL, lit('1.10', dec(3, 2)), lit(2, DBL)))).toBe(2.2);
    expect(ev(call('/', DBL, lit(1, DBL), lit(0, DBL)))).toBe(Infinity);
    expect(ev(call('*', T('FLOAT'), lit(Math.fround(0.1), T('FLOAT')), lit(3, INT)))).toBe(Math.fround(Math.fround(0.1) * 3));
  });
  it('TIMESTAMP ± INTERVAL', () => {
    const t = Date.UTC(2026, 9, 1, 9, 30);
    expect(ev(call('-', TS, col(0, TS), lit(5000, T('INTERVAL'))), [t])).toBe(t - 5000);
    expect(ev(call('+', LTZ, col(0, LTZ), lit(1_800_000, T('INTERVAL'))), [t])).toBe(t + 1_800_000);
    expect(ev(call('+', T('DATE'), lit(20727, T('DATE')), lit(86_400_000, T('INTERVAL'))))).toBe(20728);
  });
});

describe('functions', () => {
  it('COALESCE / IFNULL convert to the node type', () => {
    expect(ev(call('COALESCE', dec(12, 2), col(0, dec(10, 2)), lit(0, INT)), [null])).toBe('0.00');
    expect(ev(call('COALESCE', dec(12, 2), col(0, dec(10, 2)), lit(0, INT)), ['1.50'])).toBe('1.50');
    expect(ev(call('IFNULL', STR, col(0, STR), lit('n/a', T('CHAR', 3))), [null])).toBe('n/a');
    expect(ev(call('COALESCE', INT, col(0, INT), col(1, INT)), [null, null])).toBe(null);
  });
  it('NULLIF', () => {
    expect(ev(call('NULLIF', INT, lit(1, INT), lit(1, INT)))).toBe(null);
    expect(ev(call('NULLIF', INT, lit(1, INT), lit(2, INT)))).toBe(1);
    expect(ev(call('NULLIF', INT, lit(1, INT), { ...NULL_LIT, type: INT }))).toBe(1);
  });
  it('CASE picks the first TRUE branch (UNKNOWN is not TRUE)', () => {
    const e: TExpr = {
      k: 'case',
      type: T('CHAR', 5),
      whens: [
        { when: call('>', BOOL, col(0, INT), lit(10, INT)), then: lit('big', T('CHAR', 3)) },
        { when: call('>', BOOL, col(0, INT), lit(0, INT)), then: lit('small', T('CHAR', 5)) },
      ],
    };
    expect(ev(e, [11])).toBe('big  '); // CHAR(5): Flink pads the shorter branch
    expect(ev(e, [1])).toBe('small');
    expect(ev(e, [0])).toBe(null);
    expect(ev(e, [null])).toBe(null);
    const withElse: TExpr = { ...e, type: STR, else: lit('none', STR) } as TExpr;
    expect(ev(withElse, [null])).toBe('none');
  });
  it('string functions', () => {
    expect(ev(call('UPPER', STR, lit('eur', STR)))).toBe('EUR');
    expect(ev(call('LOWER', STR, lit('EUR', STR)))).toBe('eur');
    expect(ev(call('CHAR_LENGTH', INT, lit('a😀b', STR)))).toBe(3);
    expect(ev(call('CONCAT', STR, lit('a', STR), lit(1, INT) as TExpr, lit('b', STR)))).toBe('a1b');
    expect(ev(call('CONCAT', STR, lit('a', STR), { ...NULL_LIT, type: STR }))).toBe(null);
    expect(ev(call('||', STR, lit('a', STR), lit('b', STR)))).toBe('ab');
    expect(ev(call('TRIM', STR, lit('  a b  ', STR)))).toBe('a b');
    expect(ev(call('SUBSTRING', STR, lit('abcdef', STR), lit(2, INT), lit(3, INT)))).toBe('bcd');
    expect(ev(call('SUBSTRING', STR, lit('abcdef', STR), lit(-2, INT)))).toBe('ef');
  });
  it('numeric functions', () => {
    expect(ev(call('ABS', INT, lit(-5, INT)))).toBe(5);
    expect(ev(call('ABS', dec(3, 2), lit('-0.50', dec(3, 2))))).toBe('0.50');
    expect(ev(call('ROUND', dec(3, 1), lit('5.555', dec(5, 3)), lit(1, INT)))).toBe('5.6');
    expect(ev(call('ROUND', dec(4, 0), lit('-2.5', dec(2, 1))))).toBe('-3');
    expect(ev(call('ROUND', DBL, lit(2.675, DBL), lit(2, INT)))).toBe(2.68); // via the Java text 2.675, HALF_UP
    expect(ev(call('ROUND', INT, lit(1250, INT), lit(-2, INT)))).toBe(1300);
    expect(ev(call('FLOOR', dec(2, 0), lit('10.5', dec(3, 1))))).toBe('10');
    expect(ev(call('CEIL', dec(2, 0), lit('10.5', dec(3, 1))))).toBe('11');
    expect(ev(call('FLOOR', dec(2, 0), lit('-10.5', dec(3, 1))))).toBe('-11');
    expect(ev(call('FLOOR', DBL, lit(-1.5, DBL)))).toBe(-2);
    expect(ev(call('%', INT, lit(7, INT), lit(3, INT)))).toBe(1);
    expect(ev(call('POWER', DBL, lit(2, INT), lit(10, INT)))).toBe(1024);
  });
  it('time functions', () => {
    expect(ev(call('PROCTIME', LTZ))).toBe(ctx.procTime);
    expect(ev(call('TO_TIMESTAMP_LTZ', LTZ, col(0, BIGINT), lit(3, INT)), [1700000000123])).toBe(1700000000123);
    expect(ev(call('TO_TIMESTAMP_LTZ', T('TIMESTAMP_LTZ', 0), col(0, BIGINT), lit(0, INT)), [1700000000])).toBe(1700000000000);
    expect(ev(call('TO_TIMESTAMP_LTZ', LTZ, col(0, BIGINT), lit(3, INT)), [null])).toBe(null);
    expect(ev(call('TO_TIMESTAMP_LTZ', LTZ, col(0, BIGINT), lit(0, INT)), [253402300800])).toBe(null); // past 9999-12-31
    expect(ev(call('TO_TIMESTAMP_LTZ', LTZ, col(0, dec(10, 3)), lit(3, INT)), ['1234.567'])).toBe(1234);
    const t = Date.UTC(2026, 9, 1, 9, 5, 7, 8);
    expect(ev(call('DATE_FORMAT', STR, lit(t, TS), lit('yyyy-MM-dd HH:mm:ss.SSS', STR)))).toBe('2026-10-01 09:05:07.008');
    expect(ev(call('DATE_FORMAT', STR, lit(t, LTZ), lit("HH 'o''clock' MMM", STR)), [], { ...ctx, timeZone: '+02:00' })).toBe("11 o'clock Oct");
    expect(ev(call('TIMESTAMPADD', TS, lit('MONTH', STR), lit(1, INT), lit(Date.UTC(2026, 0, 31), TS)))).toBe(Date.UTC(2026, 1, 28));
    expect(ev(call('TIMESTAMPADD', TS, lit('HOUR', STR), lit(2, INT), lit(t, TS)))).toBe(t + 7_200_000);
    expect(ev(call('TIMESTAMPDIFF', INT, lit('MINUTE', STR), lit(0, TS), lit(150_000, TS)))).toBe(2);
    // Calcite counts a month once adding it (clamped to the month's end) does not pass the later time
    const diffMonths = (a: number, z: number): Value => ev(call('TIMESTAMPDIFF', INT, lit('MONTH', STR), lit(a, TS), lit(z, TS)));
    expect(diffMonths(Date.UTC(2026, 0, 31), Date.UTC(2026, 1, 28))).toBe(1);
    expect(diffMonths(Date.UTC(2026, 0, 31), Date.UTC(2026, 1, 27))).toBe(0);
    expect(diffMonths(Date.UTC(2026, 1, 27), Date.UTC(2026, 0, 31))).toBe(0);
    expect(diffMonths(Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))).toBe(12);
    expect(ev(call('TIMESTAMPDIFF', INT, lit('YEAR', STR), lit(Date.UTC(2026, 0, 1), TS), lit(Date.UTC(2027, 11, 31), TS)))).toBe(1);
    expect(ev(call('LOCALTIMESTAMP', TS), [], { ...ctx, timeZone: '+08:00' })).toBe(ctx.procTime + 8 * 3_600_000);
    expect(ev(call('CURRENT_WATERMARK', TS))).toBe(null);
    expect(ev(call('CURRENT_WATERMARK', TS), [], { ...ctx, watermark: 5 })).toBe(5);
  });
  it('refuses what it cannot evaluate at compile time', () => {
    expect(() => compileExpr(call('NO_SUCH_FN', INT))).toThrow(SqlRuntimeError);
  });
});
