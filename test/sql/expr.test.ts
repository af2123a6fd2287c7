import { describe, expect, it } from 'vitest';
import { show, src, whereOf } from './helpers.js';

const tree = (exprSql: string) => show(whereOf(exprSql).expr);

describe('operator precedence (Calcite / Flink)', () => {
  it.each([
    ['a + b * c', '(+ a (* b c))'],
    ['a * b + c', '(+ (* a b) c)'],
    ['a - b - c', '(- (- a b) c)'],
    ['a / b % c', '(% (/ a b) c)'],
    ['(a + b) * c', '(* (+ a b) c)'],
    ['-a * b', '(* (- a) b)'],
    ['- - a', '(- (- a))'],
    // || binds like * in Calcite (precedence 60), tighter than + (40)
    ["a || b + c", '(+ (|| a b) c)'],
    ["a + b || c", '(+ a (|| b c))'],
    ['a = b + 1', '(= a (+ b 1))'],
    ['a OR b AND c', '(OR a (AND b c))'],
    ['a AND b OR c AND d', '(OR (AND a b) (AND c d))'],
    ['NOT a AND b', '(AND (NOT a) b)'],
    ['NOT a = b', '(NOT (= a b))'],
    ['NOT NOT a', '(NOT (NOT a))'],
    ['a = b AND c <> d', '(AND (= a b) (<> c d))'],
    ['a < b OR a <= b OR a > b OR a >= b', '(OR (OR (OR (< a b) (<= a b)) (> a b)) (>= a b))'],
    // IS NULL binds looser than comparisons (28 < 30)
    ['a = b IS NULL', '(is-null (= a b))'],
    ['a IS NOT NULL AND b IS NULL', '(AND (is-not-null a) (is-null b))'],
    ['NOT a IS NULL', '(NOT (is-null a))'],
    ['a BETWEEN 1 AND 2 AND c', '(AND (between a 1 2) c)'],
    ['a NOT BETWEEN b - 1 AND b + 1', '(not-between a (- b 1) (+ b 1))'],
    ['a BETWEEN SYMMETRIC 2 AND 1', '(between-sym a 2 1)'],
    ['a BETWEEN ASYMMETRIC 1 AND 2', '(between a 1 2)'],
    ['a IN (1, 2, 3) OR b NOT IN (4)', '(OR (in a [1 2 3]) (not-in b [4]))'],
    ["a LIKE 'x%' AND b NOT LIKE c || '%'", "(AND (like a 'x%') (not-like b (|| c '%')))"],
    ['a IS TRUE OR b IS NOT FALSE OR c IS UNKNOWN', '(OR (OR (is-true a) (is-not-false b)) (is-unknown c))'],
    ['a IS DISTINCT FROM b', '(is-distinct a b)'],
    ['a IS NOT DISTINCT FROM b AND c', '(AND (is-not-distinct a b) c)'],
  ])('%s', (exprSql, expected) => {
    expect(tree(exprSql)).toBe(expected);
  });
});

describe('primaries', () => {
  it.each([
    ["INTERVAL '5' SECOND", "(interval '5' SECOND)"],
    ["INTERVAL '5' SECONDS", "(interval '5' SECOND)"],
    ["interval '2' hours", "(interval '2' HOUR)"],
    ["INTERVAL '1' DAY", "(interval '1' DAY)"],
    ["INTERVAL '3' MONTH", "(interval '3' MONTH)"],
    ["INTERVAL '1' YEAR", "(interval '1' YEAR)"],
    ["INTERVAL '10:30' MINUTE TO SECOND", "(interval '10:30' MINUTE SECOND)"],
    ["INTERVAL '1 02' DAY TO HOUR", "(interval '1 02' DAY HOUR)"],
    ["INTERVAL '1.250' SECOND(3)", "(interval '1.250' SECOND)"],
    ["INTERVAL -'5' MINUTE", "(interval '-5' MINUTE)"],
    ["TIMESTAMP '2026-10-01 09:30:00'", "(TIMESTAMP '2026-10-01 09:30:00')"],
    ["DATE '2026-10-01'", "(DATE '2026-10-01')"],
    ["TIME '09:30:00'", "(TIME '09:30:00')"],
    ["TIMESTAMP_LTZ '2026-10-01 09:30:00'", "(TIMESTAMP_LTZ '2026-10-01 09:30:00')"],
    ["TIMESTAMP WITH LOCAL TIME ZONE '2026-10-01 09:30:00'", "(TIMESTAMP_LTZ '2026-10-01 09:30:00')"],
    ['TRUE AND FALSE OR NULL', '(OR (AND TRUE FALSE) NULL)'],
    ["'it''s'", "'it's'"],
    ['1.10 + 1E3', '(+ 1.10 1E3)'],
    ['CAST(a AS DECIMAL(10, 2))', '(cast a DECIMAL(10,2))'],
    ['TRY_CAST(a AS INT)', '(try-cast a INT)'],
    ['CAST(a AS TIMESTAMP(3) WITH LOCAL TIME ZONE)', '(cast a TIMESTAMP_LTZ(3))'],
    ["CASE WHEN a > 1 THEN 'x' WHEN a IS NULL THEN 'n' ELSE 'y' END", "(case [(> a 1) 'x'] [(is-null a) 'n'] else 'y')"],
    ["CASE a WHEN 1 THEN 'one' END", "(case a [1 'one'])"],
    ['PROCTIME()', '(PROCTIME)'],
    ['coalesce(a, b, 0)', '(COALESCE a b 0)'],
    ['COUNT(*)', '(COUNT *)'],
    ['COUNT(DISTINCT a)', '(COUNT distinct a)'],
    ['CURRENT_TIMESTAMP', '(CURRENT_TIMESTAMP)'],
    ['LOCALTIMESTAMP', '(LOCALTIMESTAMP)'],
    ['CURRENT_TIMESTAMP(3)', '(CURRENT_TIMESTAMP 3)'],
    ['ROW_NUMBER() OVER (PARTITION BY a ORDER BY t DESC)', '(ROW_NUMBER over)'],
    ['`select`.`from` = o.`Mixed Case`', '(= select.from o.Mixed Case)'],
    ['EXISTS (SELECT 1 FROM u)', '(exists subquery)'],
    ['NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k)', '(NOT (exists subquery))'],
    ['a IN (SELECT k FROM u)', '(in a subquery)'],
    ['a = (SELECT MAX(k) FROM u)', '(= a (subquery))'],
  ])('%s', (exprSql, expected) => {
    expect(tree(exprSql)).toBe(expected);
  });

  it('gives every node the offsets of its source text', () => {
    const { expr, sql } = whereOf("o.amount * r.rate >= CAST(x AS INT) AND o.ts BETWEEN r.ts - INTERVAL '1' HOUR AND r.ts");
    if (expr.kind !== 'binary') throw new Error('expected AND');
    expect(src(sql, expr)).toBe("o.amount * r.rate >= CAST(x AS INT) AND o.ts BETWEEN r.ts - INTERVAL '1' HOUR AND r.ts");
    expect(src(sql, expr.opSpan)).toBe('AND');
    const cmp = expr.left;
    if (cmp.kind !== 'binary' || cmp.left.kind !== 'binary') throw new Error('expected >= over *');
    expect(src(sql, cmp)).toBe('o.amount * r.rate >= CAST(x AS INT)');
    expect(src(sql, cmp.left)).toBe('o.amount * r.rate');
    expect(src(sql, cmp.right)).toBe('CAST(x AS INT)');
    expect(src(sql, cmp.left.left)).toBe('o.amount');
    const between = expr.right;
    if (between.kind !== 'between') throw new Error('expected BETWEEN');
    expect(src(sql, between.low)).toBe("r.ts - INTERVAL '1' HOUR");
    expect(between.low.kind === 'binary' && src(sql, between.low.right)).toBe("INTERVAL '1' HOUR");
  });

  it('spans calls, names and OVER clauses', () => {
    const { expr, sql } = whereOf('ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY t) = 1');
    if (expr.kind !== 'binary' || expr.left.kind !== 'call') throw new Error('expected a call');
    expect(src(sql, expr.left)).toBe('ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY t)');
    expect(src(sql, expr.left.nameSpan)).toBe('ROW_NUMBER');
    expect(expr.left.over && src(sql, expr.left.over)).toBe('OVER (PARTITION BY a, b ORDER BY t)');
    expect(expr.left.over?.orderBy[0]?.desc).toBe(false);
  });
});
