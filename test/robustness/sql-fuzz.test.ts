/**
 * parseSql never throws, never reports an internal error, and points every syntax error at a
 * span inside the text, whatever it is given: token soup, mutated real statements, or any string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParseResult } from '../../src/sql/ast.js';
import { parseSql } from '../../src/sql/parser.js';
import { SQL_SEEDS } from './seeds.js';
import { mutateSqlAll, sqlMutationsArb, tokenSoupArb } from './sql-mutators.js';

const SEED = process.env.FUZZ_SEED === 'random' ? undefined : Number(process.env.FUZZ_SEED ?? 20261129);
const params = { numRuns: Math.min(Number(process.env.FUZZ_RUNS ?? 200), 20000), ...(SEED !== undefined ? { seed: SEED } : {}) };

const LEAKS = /undefined|\[object Object\]|\bNaN\b|internal error/;

function problems(text: string, r: ParseResult): string[] {
  if (r.ok) return [];
  const e = r.error;
  const out: string[] = [];
  if (!(Number.isInteger(e.start) && Number.isInteger(e.end))) out.push(`span ${e.start}..${e.end} is not integers`);
  if (!(e.start >= 0 && e.start <= e.end && e.end <= text.length)) out.push(`span ${e.start}..${e.end} outside 0..${text.length}`);
  if (e.message.trim() === '') out.push('empty message');
  const shown = `${e.message}\n${e.hint ?? ''}`;
  if (LEAKS.test(shown) && !LEAKS.test(text)) out.push(`message leaks an internal value: ${shown}`);
  // an ESC or a bidi override in a message acts on the user's terminal; a lone surrogate is a cut character
  // Flink's form lists the expected tokens on lines of their own (indented); no other line break is allowed.
  const flat = shown.replace(/\nWas expecting( one of)?:(\n {4}\S[^\n]*)+/, '').replace(/\n/, '');
  if (/[\p{Cc}\p{Cf}\p{Cs}]/u.test(flat)) out.push(`message holds a raw invisible character: ${JSON.stringify(shown)}`);
  return out;
}

function holds(text: string): boolean {
  let r: ParseResult;
  try {
    r = parseSql(text);
  } catch (error) {
    throw new Error(`parseSql threw on ${JSON.stringify(text)}: ${String(error)}`);
  }
  const found = problems(text, r);
  if (found.length > 0) throw new Error(`${found.join('; ')}\n  input: ${JSON.stringify(text)}\n  error: ${JSON.stringify(r)}`);
  // deterministic: the same text gives the same result
  expect(JSON.stringify(parseSql(text))).toBe(JSON.stringify(r));
  return true;
}

describe('parseSql on bad input', () => {
  it('has the real statements to mutate, and they parse', () => {
    expect(SQL_SEEDS.length).toBeGreaterThanOrEqual(20);
    for (const sql of SQL_SEEDS) expect(parseSql(sql).ok, sql).toBe(true);
  });

  it('random token soup', () => {
    fc.assert(fc.property(tokenSoupArb, holds), params);
  });

  it('mutated real statements', () => {
    fc.assert(fc.property(fc.constantFrom(...SQL_SEEDS), sqlMutationsArb, (sql, ms) => holds(mutateSqlAll(sql, ms))), params);
  });

  it('arbitrary strings, including unicode and control characters', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), holds), params);
  });

  it('truncated real statements (every prefix is either valid or a clean error)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SQL_SEEDS), fc.nat(), (sql, n) => holds(sql.slice(0, n % (sql.length + 1)))),
      params,
    );
  });

  it('deep nesting of random prefixes, parentheses, calls and chains', () => {
    const layer = fc.constantFrom('(', 'NOT ', '- ', 'COALESCE(', 'CAST(', '(SELECT ', 'CASE WHEN ');
    const closer: Record<string, string> = { '(': ')', 'NOT ': '', '- ': '', 'COALESCE(': ', 1)', 'CAST(': ' AS INT)', '(SELECT ': ' FROM a)', 'CASE WHEN ': ' THEN 1 END' };
    const deep = fc.record({ layers: fc.array(layer, { maxLength: 40 }), repeat: fc.integer({ min: 1, max: 300 }), chain: fc.integer({ min: 0, max: 3000 }) }).map(({ layers, repeat, chain }) => {
      const open = Array.from({ length: repeat }, () => layers.join('')).join('');
      const close = Array.from({ length: repeat }, () => [...layers].reverse().map((l) => closer[l]).join('')).join('');
      const inner = Array(chain + 1).fill('a.n').join(' || ');
      return `SELECT ${open}${inner}${close} FROM a JOIN b ON a.k = b.k`;
    });
    fc.assert(fc.property(deep, holds), { ...params, numRuns: Math.min(params.numRuns, 60) });
  });

  it('mutations do produce errors, so the span checks are exercised', () => {
    const texts = fc.sample(fc.tuple(fc.constantFrom(...SQL_SEEDS), sqlMutationsArb), { numRuns: 100, seed: 3 });
    const failed = texts.filter(([sql, ms]) => !parseSql(mutateSqlAll(sql, ms)).ok).length;
    expect(failed).toBeGreaterThan(30);
  });
});
