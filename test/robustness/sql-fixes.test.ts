/** Regression tests for the bugs the fuzzers found in src/sql. */
import { describe, expect, it } from 'vitest';
import { parseSql } from '../../src/sql/parser.js';

function errorOf(sql: string): { message: string; hint?: string; start: number; end: number } {
  const r = parseSql(sql);
  if (r.ok) throw new Error(`parsed: ${sql}`);
  return r.error;
}

// invisible or terminal-control characters, and the lone halves of a surrogate pair
const RAW = /[\p{Cc}\p{Cf}\p{Cs}]/u;

describe('source characters in SQL error messages', () => {
  // ESC reached the terminal raw: `SELECT \x1b[2J` cleared the user's screen when the error printed
  it.each([
    ['SELECT \x1b[2J FROM a', '\\u001b'],
    ['SELECT \x07 FROM a', '\\u0007'],
    ['SELECT a\u202eb FROM a', '\\u202e'],
    ['SELECT \u200b FROM a', '\\u200b'],
    ['SELECT \ufeff FROM a', '\\ufeff'],
    ['CREATE TABLE \x00 (a INT)', '\\u0000'],
  ])('%j is shown escaped as Calcite escapes it (%s)', (sql, shown) => {
    const e = errorOf(sql);
    expect(e.message).toContain(`Encountered: "${shown}"`);
    expect(e.message + (e.hint ?? '')).not.toMatch(RAW);
    expect(e.end - e.start).toBe(1);
  });

  it('in an unterminated string or quoted name', () => {
    for (const sql of ["SELECT 'a\x1bb FROM x", 'SELECT `a\x1bb FROM x']) {
      const e = errorOf(sql);
      expect(e.message).toContain('\\u001b');
      expect(e.message).not.toMatch(RAW);
    }
  });

  it('in a token the parser quotes', () => {
    const e = errorOf("SELECT a FROM x 'a\x1b'");
    expect(e.message).toBe('SQL parse failed. Encountered "\'a\\u001b\'"');
  });

  // an emoji was cut in half: the message held a lone surrogate and the span one UTF-16 unit
  it('a character outside the BMP is reported whole', () => {
    const sql = 'SELECT 😀 FROM a';
    const e = errorOf(sql);
    expect(e.message).toBe('SQL parse failed. Lexical error: Encountered: "😀"');
    expect(sql.slice(e.start, e.end)).toBe('😀');
  });

  it('visible characters stay readable', () => {
    expect(errorOf('SELECT a FROM x y é').message).toBe('SQL parse failed. Encountered "é"');
  });
});
