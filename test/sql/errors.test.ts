import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SqlSyntaxError } from '../../src/sql/ast.js';
import { parseSql } from '../../src/sql/parser.js';

function errorOf(sql: string): SqlSyntaxError {
  const r = parseSql(sql);
  if (r.ok) throw new Error(`expected a syntax error for: ${sql}`);
  return r.error;
}

/** Offsets of the `n`-th occurrence (0-based) of `needle` in `sql`. */
function at(sql: string, needle: string, n = 0): { start: number; end: number } {
  let start = -1;
  for (let i = 0; i <= n; i++) start = sql.indexOf(needle, start + 1);
  if (start < 0) throw new Error(`${needle} not in ${sql}`);
  return { start, end: start + needle.length };
}

/** A message whose first line is Flink's `SQL parse failed. <first>`, followed by what was expected. */
const head = (first: string) => expect.stringMatching(new RegExp(`^${`SQL parse failed. ${first}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nWas expecting`));

describe('syntax errors: message, hint and position', () => {
  it('a missing expression after a comma points at the next token', () => {
    const sql = 'SELECT o.order_id,\n  FROM orders o\n  JOIN rates r ON o.currency = r.currency;';
    expect(errorOf(sql)).toEqual({ message: head("Incorrect syntax near the keyword 'FROM' at line 2, column 3."), hint: "an expression is missing after ','", ...at(sql, 'FROM') });
  });

  it("a missing ')' at the end of input points just after the last token", () => {
    const sql = 'SELECT * FROM t WHERE a IN (1, 2\n  ';
    const end = sql.indexOf('2') + 1;
    // Flink places the end of input at the text's last character (the blank after the line break).
    expect(errorOf(sql)).toEqual({ message: head('Encountered "<EOF>" at line 2, column 2.'), hint: "a ')' is missing", start: end, end });
  });

  it("a missing ')' after a column type: WITH commits to WITH LOCAL TIME ZONE, as in Flink, and fails at the '('", () => {
    const sql = "CREATE TABLE t (\n  id STRING,\n  ts TIMESTAMP(3\n) WITH ('connector' = 'kafka');";
    const e = errorOf(sql);
    expect(e.message).toBe('SQL parse failed. Encountered "(" at line 4, column 8.\nWas expecting:\n    "LOCAL" ...');
    expect(e.hint).toContain("a ')' is missing");
    expect({ start: e.start, end: e.end }).toEqual(at(sql, '(', 2));
  });

  it("two statements without ';' between them", () => {
    const sql = "CREATE TABLE t (id STRING) WITH ('connector' = 'kafka')\nSELECT id FROM t;";
    expect(errorOf(sql)).toEqual({ message: head('Encountered "SELECT" at line 2, column 1.'), hint: "statements must be separated by ';'", ...at(sql, 'SELECT') });
  });

  it('an unterminated string literal points at its quote, to the end of that line', () => {
    const sql = "SELECT id FROM t WHERE id = 'abc;\nSELECT 1 FROM u";
    const e = errorOf(sql);
    expect(e.message).toBe('SQL parse failed. Lexical error: Encountered: <EOF> after : "\'abc;"');
    expect(e.hint).toBe('unterminated string literal');
    expect({ start: e.start, end: e.end }).toEqual({ start: sql.indexOf("'"), end: sql.indexOf('\n') });
  });

  it("'!=' is rejected with Flink's conformance message", () => {
    const sql = 'SELECT * FROM t WHERE a != 1';
    expect(errorOf(sql)).toEqual({
      message: "SQL parse failed. Bang equal '!=' is not allowed under the current SQL conformance level",
      hint: "Flink SQL writes 'not equal' as <>",
      ...at(sql, '!='),
    });
  });

  it('a reserved word used as a name asks for backticks', () => {
    const sql = 'SELECT o.id, value FROM t o';
    expect(errorOf(sql)).toEqual({
      message: head('Encountered "value" at line 1, column 14.'),
      hint: 'VALUE is a reserved word in Flink SQL; to use it as a name, quote it with backticks: `value`',
      ...at(sql, 'value'),
    });
  });

  it('a join without ON reports the validator message at the join keywords', () => {
    const sql = 'SELECT * FROM a LEFT OUTER JOIN b WHERE a.k = b.k';
    expect(errorOf(sql)).toEqual({
      message: 'INNER, LEFT, RIGHT or FULL join requires a condition (NATURAL keyword or ON or USING clause)',
      hint: 'add ON <condition> after the joined table',
      ...at(sql, 'LEFT OUTER JOIN'),
    });
  });

  it('a CROSS JOIN with ON is rejected at ON', () => {
    const sql = 'SELECT * FROM a CROSS JOIN b ON a.k = b.k';
    const e = errorOf(sql);
    expect(e.message).toBe('Cannot specify condition (NATURAL keyword, or ON or USING clause) following CROSS JOIN');
    expect({ start: e.start, end: e.end }).toEqual(at(sql, 'ON'));
  });

  it('an unquoted option value points at the value', () => {
    const sql = "CREATE TABLE t (id STRING) WITH ('connector' = 'jdbc', 'port' = 5432)";
    const e = errorOf(sql);
    expect(e.message).toBe('SQL parse failed. Encountered "5432" at line 1, column 65.\nWas expecting:\n    <QUOTED_STRING> ...');
    expect(e.hint).toContain("quote numbers too");
    expect({ start: e.start, end: e.end }).toEqual(at(sql, '5432'));
  });

  it('MILLISECOND is not an interval unit in Flink SQL', () => {
    const sql = "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '250' MILLISECOND)";
    const e = errorOf(sql);
    expect(e.message).toMatch(/^SQL parse failed\. Encountered "MILLISECOND" at line 1, column 74\.\nWas expecting one of:\n {4}"DAY" \.\.\./);
    expect(e.hint).toContain("INTERVAL '0.250' SECOND");
    expect({ start: e.start, end: e.end }).toEqual(at(sql, 'MILLISECOND'));
  });

  it('a table hint after the alias is rejected at the hint', () => {
    const sql = "SELECT * FROM t AS x /*+ OPTIONS('a' = 'b') */";
    const e = errorOf(sql);
    expect(e.message.split('\n')[0]).toBe('SQL parse failed. Encountered "/*+" at line 1, column 22.');
    expect(e.hint).toContain('right after the table name');
    expect({ start: e.start, end: e.end }).toEqual(at(sql, '/*+'));
  });

  it('double-quoted identifiers are a lexical error with a hint about backticks', () => {
    const sql = 'SELECT "id" FROM t';
    const e = errorOf(sql);
    expect(e.message).toBe('SQL parse failed. Lexical error: Encountered: "\\""');
    expect(e.hint).toContain('backticks');
    expect({ start: e.start, end: e.end }).toEqual({ start: 7, end: 8 });
  });

  it('an unclosed block comment points at its opening', () => {
    const sql = 'SELECT * FROM t /* note';
    expect(errorOf(sql)).toMatchObject({ message: 'SQL parse failed. Lexical error: the comment is not closed', ...at(sql, '/*') });
  });

  it('CASE without END', () => {
    const sql = "SELECT CASE WHEN a THEN 'x' FROM t";
    expect(errorOf(sql)).toEqual({ message: head('Encountered "FROM" at line 1, column 29.'), hint: 'CASE must be closed with END', ...at(sql, 'FROM') });
  });

  it('reports the first error in text order: a syntax error before a lexical one', () => {
    const sql = "SELECT a b c FROM t WHERE x = 'open";
    expect(errorOf(sql)).toMatchObject({ message: head('Encountered "c" at line 1, column 12.'), ...at(sql, 'c') });
  });

  it('reports the first error in text order: a lexical error before a syntax error', () => {
    const sql = 'SELECT "a" FROM t WHERE';
    expect(errorOf(sql).start).toBe(7);
  });

  it('an error in a later statement keeps its absolute offset', () => {
    const sql = 'CREATE TABLE a (k STRING);\nCREATE TABLE b (k STRING,);\nSELECT * FROM a';
    const e = errorOf(sql);
    // Line and column count from the start of the whole SQL text, as Flink counts a script.
    expect(e.message.split('\n')[0]).toBe('SQL parse failed. Encountered ")" at line 2, column 26.');
    expect({ start: e.start, end: e.end }).toEqual(at(sql, ')', 1));
  });

  it('an inline PRIMARY KEY must be NOT ENFORCED', () => {
    const sql = 'CREATE TABLE a (k STRING PRIMARY KEY, v INT)';
    const e = errorOf(sql);
    expect(e.message).toContain("Flink doesn't support ENFORCED mode for PRIMARY KEY constraint");
    expect({ start: e.start, end: e.end }).toEqual(at(sql, 'PRIMARY KEY'));
  });

  it('syntax Flink accepts but joinstep does not is named as such, not as a Flink error', () => {
    const sql = 'SELECT * FROM a UNION SELECT * FROM b';
    const e = errorOf(sql);
    expect(e.message).toBe('joinstep does not support UNION in a query');
    expect(e.message).not.toContain('SQL parse failed');
    expect({ start: e.start, end: e.end }).toEqual(at(sql, 'UNION'));
  });

  it('a query without FROM is reported at SELECT', () => {
    const sql = 'SELECT 1;';
    expect(errorOf(sql)).toMatchObject({ start: 0, end: 6, hint: 'add FROM <table> after the select list' });
  });
});

describe('parseSql never throws', () => {
  it('turns an internal failure into an error at offset 0', () => {
    const r = parseSql(undefined as unknown as string);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/^internal error in joinstep's SQL parser/);
      expect([r.error.start, r.error.end]).toEqual([0, 0]);
    }
  });

  it('returns a result with in-range offsets for arbitrary text', () => {
    const pieces = fc.constantFrom(
      'SELECT', 'FROM', 'WHERE', 'JOIN', 'ON', 'CREATE', 'TABLE', 'WITH', 'AS', 'FOR', 'SYSTEM_TIME', 'OF', 'INTERVAL',
      "'5'", 'SECOND', '(', ')', ',', ';', '=', '+', '*', 'a', 'b.c', '1.5', '/*+', '*/', "'", '`', 'CASE', 'END', 'NOT', 'IN',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), fc.string(), (words, noise) => {
        const sql = words.join(' ') + noise;
        const r = parseSql(sql);
        if (!r.ok) {
          expect(r.error.message).not.toMatch(/^internal error/);
          expect(0 <= r.error.start && r.error.start <= r.error.end && r.error.end <= sql.length).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('CREATE TABLE rules Flink checks while parsing', () => {
  it('a second WATERMARK is rejected at that WATERMARK', () => {
    const sql = 'CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts, WATERMARK FOR ts AS ts)';
    const e = errorOf(sql);
    expect(e.message).toBe('Multiple WATERMARK statements is not supported yet.');
    expect(e.start).toBe(at(sql, 'WATERMARK', 1).start);
    expect(sql.slice(e.start, e.end)).toBe('WATERMARK FOR ts AS ts');
  });

  it('a second primary key (inline or table-level) is rejected', () => {
    const sql = 'CREATE TABLE t (k STRING PRIMARY KEY NOT ENFORCED, v INT, PRIMARY KEY (v) NOT ENFORCED)';
    const e = errorOf(sql);
    expect(e.message).toBe('Duplicate primary key definition');
    expect(sql.slice(e.start, e.end)).toBe('PRIMARY KEY (v) NOT ENFORCED');
  });
});
