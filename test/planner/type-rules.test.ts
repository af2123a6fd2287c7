import { describe, expect, it } from 'vitest';
import { flinkTypeName, calciteTypeName, resolveTypeAst } from '../../src/planner/type-names.js';
import { adjustPrecisionScale, arithmeticType, commonType, decimal, roundDecimalType, t } from '../../src/planner/type-rules.js';
import { planOk } from './helpers.js';

const dec = (p: number, s: number) => decimal(p, s, true);
const name = (x: ReturnType<typeof arithmeticType>) => (x ? flinkTypeName(x) : 'none');

describe('DECIMAL arithmetic (LogicalTypeMerging)', () => {
  it('multiplies: p1 + p2 + 1, s1 + s2', () => {
    expect(name(arithmeticType('*', dec(10, 2), dec(10, 4)))).toBe('DECIMAL(21, 6)');
  });
  it('caps at 38 digits keeping the integer part and at least min(s, 6) fraction digits', () => {
    expect(name(arithmeticType('*', dec(30, 10), dec(30, 10)))).toBe('DECIMAL(38, 6)');
    expect(name(arithmeticType('*', dec(30, 20), dec(30, 20)))).toBe('DECIMAL(38, 17)');
    expect(name(arithmeticType('*', dec(38, 2), dec(38, 3)))).toBe('DECIMAL(38, 5)');
    expect(adjustPrecisionScale(40, 2)).toEqual({ p: 38, s: 2 });
  });
  it('adds and subtracts with the larger integer part and scale plus a carry digit', () => {
    expect(name(arithmeticType('+', dec(10, 2), dec(10, 4)))).toBe('DECIMAL(13, 4)');
    expect(name(arithmeticType('-', dec(5, 0), dec(3, 2)))).toBe('DECIMAL(8, 2)');
  });
  it('divides with scale max(6, s1 + p2 + 1)', () => {
    expect(name(arithmeticType('/', dec(10, 2), dec(10, 4)))).toBe('DECIMAL(25, 13)');
    expect(name(arithmeticType('/', dec(38, 10), dec(38, 10)))).toBe('DECIMAL(38, 6)');
  });
  it('takes the modulo in the smaller integer part', () => {
    expect(name(arithmeticType('%', dec(10, 2), dec(5, 1)))).toBe('DECIMAL(6, 2)');
  });
  it('promotes integers to DECIMAL(n, 0) next to a DECIMAL', () => {
    expect(name(arithmeticType('+', t('INT'), dec(10, 2)))).toBe('DECIMAL(13, 2)');
    expect(name(arithmeticType('*', t('BIGINT'), dec(10, 2)))).toBe('DECIMAL(30, 2)');
  });
  it('keeps integer arithmetic integer, in the wider type', () => {
    expect(name(arithmeticType('/', t('INT'), t('INT')))).toBe('INT');
    expect(name(arithmeticType('+', t('INT'), t('BIGINT')))).toBe('BIGINT');
  });
  it('turns DECIMAL with DOUBLE into DOUBLE', () => {
    expect(name(arithmeticType('*', dec(10, 2), t('DOUBLE')))).toBe('DOUBLE');
    expect(name(arithmeticType('+', t('FLOAT'), t('INT')))).toBe('DOUBLE');
  });
  it('rejects non-numeric operands', () => {
    expect(arithmeticType('+', t('STRING'), t('INT'))).toBeUndefined();
  });
  it('is NOT NULL only when both operands are', () => {
    expect(name(arithmeticType('*', decimal(10, 2, false), decimal(10, 4, false)))).toBe('DECIMAL(21, 6) NOT NULL');
  });
  it('rounds a DECIMAL to the requested scale with a carry digit', () => {
    expect(flinkTypeName(roundDecimalType(10, 4, 2, true))).toBe('DECIMAL(9, 2)');
    expect(flinkTypeName(roundDecimalType(10, 2, 4, true))).toBe('DECIMAL(10, 2)');
  });
});

describe('common types (COALESCE, CASE)', () => {
  it('keeps CHAR only when every branch is CHAR of one length; ragged CHARs become VARCHAR, as Flink plans them', () => {
    // Real Flink 2.3 plans CASE WHEN v > 1 THEN 'big' ELSE 'small' END as VARCHAR(5) and emits 'big' unpadded.
    expect(flinkTypeName(commonType([t('CHAR', false, 1), t('CHAR', false, 3)]) as never)).toBe('VARCHAR(3) NOT NULL');
    expect(flinkTypeName(commonType([t('CHAR', false, 3), t('CHAR', false, 3)]) as never)).toBe('CHAR(3) NOT NULL');
  });
  it('widens to VARCHAR / STRING', () => {
    expect(flinkTypeName(commonType([t('CHAR', false, 1), t('STRING', true, 2147483647)]) as never)).toBe('STRING');
  });
  it('merges decimals by integer part and scale', () => {
    expect(flinkTypeName(commonType([dec(10, 2), dec(5, 4)]) as never)).toBe('DECIMAL(12, 4)');
    expect(flinkTypeName(commonType([t('INT'), dec(5, 2)]) as never)).toBe('DECIMAL(12, 2)');
  });
  it('adopts the other type for NULL and fails for unrelated types', () => {
    expect(flinkTypeName(commonType([t('NULL'), t('INT', false)]) as never)).toBe('INT');
    expect(commonType([t('BOOLEAN'), t('INT')])).toBeUndefined();
  });
});

describe('type names and defaults', () => {
  const ast = (n: string, args: number[] = []) => ({ name: n, args, nullable: true, start: 0, end: 1 });
  it("applies Flink's defaults", () => {
    const d = resolveTypeAst(ast('DECIMAL'));
    const ts = resolveTypeAst(ast('TIMESTAMP'));
    const s = resolveTypeAst(ast('STRING'));
    expect(d.ok && flinkTypeName(d.type)).toBe('DECIMAL(10, 0)');
    expect(ts.ok && flinkTypeName(ts.type)).toBe('TIMESTAMP(6)');
    expect(s.ok && calciteTypeName(s.type)).toBe('VARCHAR(2147483647)');
  });
  it('names unknown types and bad precisions', () => {
    const u = resolveTypeAst(ast('STRIN'));
    expect(!u.ok && u.message).toBe("Unknown datatype name 'STRIN'");
    const p = resolveTypeAst(ast('DECIMAL', [40, 2]));
    expect(!p.ok && p.message).toContain('Decimal precision must be between 1 and 38');
  });
});

describe('result types in a planned query', () => {
  const sql = (select: string) => `
    CREATE TABLE a (k STRING, amt DECIMAL(10, 2), n INT, ms BIGINT, ts TIMESTAMP(3),
      lt AS TO_TIMESTAMP_LTZ(ms, 3), p AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
      WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');
    CREATE TABLE b (k STRING, rate DECIMAL(10, 4)) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');
    SELECT ${select} FROM a JOIN b ON a.k = b.k;`;
  const types = (select: string) => planOk(sql(select)).output.types.map((x) => flinkTypeName(x));
  it('types DECIMAL(10,2) * DECIMAL(10,4) as DECIMAL(21, 6)', () => {
    expect(types('a.amt * b.rate')).toEqual(['DECIMAL(21, 6)']);
  });
  it('types time functions and literals as Flink does', () => {
    expect(types("a.lt, a.p, a.ts - INTERVAL '5' MINUTE, 1.10, 42, 'abc', CAST(a.n AS BIGINT)")).toEqual([
      'TIMESTAMP_LTZ(3)', 'TIMESTAMP_LTZ(3) NOT NULL', 'TIMESTAMP(3)', 'DECIMAL(3, 2) NOT NULL', 'INT NOT NULL', 'CHAR(3) NOT NULL', 'BIGINT',
    ]);
  });
  it('types COALESCE and CASE with the common type', () => {
    expect(types("COALESCE(a.amt, 0), CASE WHEN a.n > 1 THEN 'a' ELSE 'abc' END, COALESCE(b.rate, a.amt)")).toEqual([
      'DECIMAL(12, 2) NOT NULL', 'VARCHAR(3) NOT NULL', 'DECIMAL(12, 4)',
    ]);
  });
});
