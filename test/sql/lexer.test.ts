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

  // Each expected value or message is what Flink 2.3's parser made of the same literal (its plan's
  // Calc printed the decoded string), run through the harness.
  describe("Unicode literals, U&'...', and literals continued on a new line", () => {
    const value = (sql: string) => {
      const [t, eof] = tokenize(sql);
      expect(eof?.kind).toBe('eof');
      expect(t?.kind).toBe('string');
      return t?.value;
    };
    const error = (sql: string) => tokenize(sql).find((t) => t.kind === 'error');

    it('decodes four-hex-digit escapes, in either case of U, with quotes doubled as usual', () => {
      expect(value("U&'\\00e9t\\00E9'")).toBe('été');
      expect(value("u&'\\0041'")).toBe('A');
      expect(value("U&'a''b'")).toBe("a'b");
      expect(value("U&'\\d83d\\de00'")).toBe('😀');
    });

    it('reads a doubled escape character as itself, and the four characters as Java parses hex (a sign may lead)', () => {
      expect(value("U&'\\\\x'")).toBe('\\x');
      expect(value("U&'\\+01F600'")).toBe('\u001f600');
    });

    it('takes another escape character from UESCAPE, and the token spans the clause', () => {
      const [t] = tokenize("U&'!0041' /* c */ UESCAPE '!' x");
      expect(t).toMatchObject({ kind: 'string', value: 'A', start: 0, end: 29 });
      expect(kinds("U&'!0041' UESCAPE '!' x")).toEqual(['string:A', 'word:x', 'eof:']);
    });

    it('refuses a malformed escape, naming the character it starts at', () => {
      expect(error("x = U&'\\00'")).toMatchObject({ text: 'Unicode escape sequence starting at character 0 is not exactly four hex digits', start: 4, end: 11 });
      expect(error("U&'ab\\004G'")?.text).toContain('starting at character 2 is not');
    });

    it('refuses an escape character that is not one character, or is a hex digit, a space, + or a double quote', () => {
      expect(error("U&'\\0041' UESCAPE 'ab'")).toMatchObject({ text: "UESCAPE 'ab' must be exactly one character", start: 18, end: 22 });
      for (const c of ['+', 'a', '7', ' ', '"']) {
        expect(error(`U&'\\0041' UESCAPE '${c}'`)?.text).toBe(`UESCAPE '${c}' may not be hex digit, whitespace, plus sign, or double quote`);
      }
    });

    it('joins a literal continued on a later line, a comment between or not, and decodes a continued U& literal whole', () => {
      expect(value("'a'\n  'b'")).toBe('ab');
      expect(value("'a' -- c\n  'b'")).toBe('ab');
      expect(value("U&'\\0041'\n  'b'")).toBe('Ab');
      expect(tokenize("'a'\n'b' x")[0]).toMatchObject({ kind: 'string', value: 'ab', start: 0, end: 7 });
    });

    it('refuses a literal continued on the same line', () => {
      expect(error("x = 'a' 'b'")).toMatchObject({ text: 'String literal continued on same line', start: 8, end: 11 });
      expect(error("U&'\\0041' 'b'")?.text).toBe('String literal continued on same line');
    });

    it('refuses UESCAPE after a plain string literal', () => {
      expect(error("'!0041' UESCAPE '!'")).toMatchObject({ text: 'UESCAPE cannot be specified without Unicode literal introducer', start: 8, end: 15 });
    });
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
