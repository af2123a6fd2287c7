/** Regression tests for the bugs the fuzzers found in src/sql. */
import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../src/scenario/load.js';
import { MAX_DEPTH } from '../../src/sql/depth.js';
import { parseSql } from '../../src/sql/parser.js';
import { checkScenarioText } from './check.js';

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
    // Calcite's spelling (JavaCC add_escapes): quotes escaped, a control character as \uXXXX.
    expect(e.message.split('\n')[0]).toBe('SQL parse failed. Encountered "\\\'a\\u001b\\\'" at line 1, column 17.');
    for (const line of e.message.split('\n')) expect(line).not.toMatch(RAW);
  });

  // an emoji was cut in half: the message held a lone surrogate and the span one UTF-16 unit
  it('a character outside the BMP is reported whole', () => {
    const sql = 'SELECT 😀 FROM a';
    const e = errorOf(sql);
    expect(e.message).toBe('SQL parse failed. Lexical error: Encountered: "😀"');
    expect(sql.slice(e.start, e.end)).toBe('😀');
  });

  it("a token outside ASCII is spelled as Flink's parser spells it", () => {
    // Flink 2.3.0: `Encountered "\u00e9" at line 1, column 19.` (test/sql/fixtures/flink-parse-errors.json)
    expect(errorOf('SELECT a FROM x y é').message.split('\n')[0]).toBe('SQL parse failed. Encountered "\\u00e9" at line 1, column 19.');
  });
});

describe('deeply nested SQL', () => {
  const query = (expr: string) => `SELECT ${expr} AS x FROM a JOIN b ON a.k = b.k`;
  const shapes: Record<string, (n: number) => string> = {
    parentheses: (n) => `${'('.repeat(n)}a.n${')'.repeat(n)}`,
    'NOT chain': (n) => `${'NOT '.repeat(n)}TRUE`,
    'unary minus': (n) => `${'- '.repeat(n)}a.n`,
    'a + a + ... (a left-deep tree)': (n) => Array(n).fill('a.n').join(' + '),
    'AND chain': (n) => Array(n).fill('a.n = 1').join(' AND '),
    'nested calls': (n) => `${'COALESCE('.repeat(n)}a.n${', 1)'.repeat(n)}`,
    'nested subqueries': (n) => `${'(SELECT '.repeat(n)}1${' FROM a)'.repeat(n)}`,
  };

  // 5000 parentheses ended in "internal error ... Maximum call stack size exceeded" at 1:1, and
  // 3000 terms of a + a + ... parsed, then crashed the planner with a stack trace
  it.each(Object.keys(shapes))('%s: a clean error past the limit, at the SQL', (shape) => {
    for (const n of [MAX_DEPTH + 10, 3000, 20000]) {
      const sql = query(shapes[shape]!(n));
      const r = parseSql(sql);
      expect(r.ok, `${shape} × ${n}`).toBe(false);
      if (r.ok) continue;
      expect(r.error.message).toBe(`joinstep does not support SQL nested more than ${MAX_DEPTH} levels deep`);
      expect(r.error.start).toBeGreaterThanOrEqual(7);
      expect(r.error.end).toBeLessThanOrEqual(sql.length);
    }
  });

  it.each(Object.keys(shapes))('%s: well below the limit still parses', (shape) => {
    expect(parseSql(query(shapes[shape]!(50))).ok).toBe(true);
  });

  // the planner and the evaluator recurse too: the deepest SQL the parser lets through must run
  it.each(Object.keys(shapes).filter((s) => s !== 'nested subqueries'))('%s just under the limit loads and runs', (shape) => {
    const text = [
      'name: deep',
      'sql: |',
      "  CREATE TABLE a (k STRING, n INT) WITH ('connector' = 'kafka');",
      "  CREATE TABLE b (k STRING) WITH ('connector' = 'kafka');",
      `  ${query(shapes[shape]!(MAX_DEPTH - 12))};`,
      'events:',
      '  - { to: b, row: { k: x } }',
      '  - { to: a, row: { k: x, n: 1 } }',
      '',
    ].join('\n');
    const outcome = checkScenarioText(text, true);
    expect(outcome.problems).toEqual([]);
    expect(outcome.kind).not.toBe('crashed');
  });

  it('a left-deep chain is reported at its start', () => {
    const sql = query(shapes['a + a + ... (a left-deep tree)']!(1000));
    const r = parseSql(sql);
    expect(r.ok ? -1 : r.error.start).toBe(sql.indexOf('a.n'));
  });

  it('through the loader: a diagnostic in the file, no stack trace', () => {
    const text = [
      'name: deep',
      'sql: |',
      "  CREATE TABLE a (k STRING, n INT) WITH ('connector' = 'kafka');",
      "  CREATE TABLE b (k STRING) WITH ('connector' = 'kafka');",
      `  ${query(Array(3000).fill('a.n').join(' + '))};`,
      'events: []',
      '',
    ].join('\n');
    const r = loadScenarioText('f.yaml', text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics[0]).toMatchObject({ line: 5, col: 10 });
    expect(checkScenarioText(text, true).problems).toEqual([]);
  });
});
