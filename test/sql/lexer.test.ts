import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/sql/lexer.js';

const kinds = (sql: string) => tokenize(sql).map((t) => `${t.kind}:${t.kind === 'word' || t.kind === 'op' ? t.text : t.value}`);

describe('lexer', () => {
  it('reads words case-insensitively through value, keeping the text', () => {
    const [t] = tokenize('sElEcT');
    expect(t).toMatchObject({ kind: 'word', text: 'sElEcT', value: 'SELECT', start: 0, end: 6 });
  });

  it('unescapes backtick identifiers and keeps their case', () => {
    const [t] = tokenize('`My ``odd`` Name`');
    expect(t).toMatchObject({ kind: 'quoted', value: 'My `odd` Name', start: 0, end: 17 });
  });

  it("unescapes '' inside string literals", () => {
    const [t] = tokenize("'it''s'");
    expect(t).toMatchObject({ kind: 'string', value: "it's", text: "'it''s'" });
  });

  it('reads integer, decimal and exponent numbers', () => {
    expect(kinds('42 1.10 .5 1E3 1.5e-3')).toEqual(['number:42', 'number:1.10', 'number:.5', 'number:1E3', 'number:1.5e-3', 'eof:']);
  });

  it('reads two-character operators before one-character ones', () => {
    expect(kinds('<> <= >= != || = < > + - * / % ( ) , . ;').slice(0, -1).map((k) => k.slice(3))).toEqual([
      '<>', '<=', '>=', '!=', '||', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '.', ';',
    ]);
  });

  it('skips -- and /* */ comments', () => {
    expect(kinds('a -- note\n/* block\n comment */ b')).toEqual(['word:a', 'word:b', 'eof:']);
  });

  it('turns /*+ ... */ into hint tokens with ordinary tokens inside', () => {
    expect(kinds("/*+ STATE_TTL('o' = '1d') */")).toEqual([
      'hintStart:/*+', 'word:STATE_TTL', 'op:(', "string:o", 'op:=', "string:1d", 'op:)', 'hintEnd:*/', 'eof:',
    ]);
  });

  it('stops at an unterminated string with an error token at its quote', () => {
    const tokens = tokenize("a = 'abc\nmore");
    const err = tokens.find((t) => t.kind === 'error');
    expect(err).toMatchObject({ start: 4, end: 8, hint: 'unterminated string literal' });
    expect(tokens.at(-1)?.kind).toBe('eof');
  });

  it('reports double-quoted identifiers with a hint about backticks', () => {
    const err = tokenize('SELECT "a" FROM t').find((t) => t.kind === 'error');
    expect(err?.start).toBe(7);
    expect(err?.hint).toContain('backticks');
  });

  // Speed is measured by `npm run bench`, not asserted here; this checks a long script stays whole.
  it('tokenizes a long script completely', () => {
    const sql = "CREATE TABLE t (a STRING, b DECIMAL(10, 2), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('k' = 'v');\n".repeat(200);
    const tokens = tokenize(sql);
    expect(tokens.filter((t) => t.kind === 'error')).toEqual([]);
    expect(tokens.length).toBeGreaterThan(5000);
  });
});
