/**
 * SQL syntax errors in Flink's form, checked against what Flink 2.3.0's own parser says.
 *
 * fixtures/flink-parse-errors.json holds, for each statement, the message of Flink's parser
 * (FlinkSqlParserImpl of org.apache.flink:flink-sql-parser:2.3.0, configured as Flink's planner
 * configures it: Lex.JAVA, FlinkSqlConformance.DEFAULT, identifier length 256; `parseStmtList`,
 * then "SQL parse failed. " + SqlParseException.getMessage(), trailing blanks trimmed). It was
 * produced by a small Java program outside this repository; no Java runs at test time.
 *
 * joinstep's grammar is a subset of Flink's, so its list of expected tokens is a subset of
 * Flink's (Flink lists 150 tokens that can start an expression); the first line, with the token
 * and its position, is Flink's exactly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSql } from '../../src/sql/parser.js';
import { MAX_EXPECTED_SHOWN } from '../../src/sql/expected.js';
import { loadScenarioText } from '../../src/scenario/load.js';

const CASES = JSON.parse(readFileSync(new URL('./fixtures/flink-parse-errors.json', import.meta.url), 'utf8')) as Record<string, { sql: string; flink: string }>;

/**
 * Where Flink's parser fails at another token: it looked two tokens ahead (`IS 5` is one
 * alternative of its grammar) and reports the first of them; joinstep reads IS and fails at 5.
 */
const LOOKAHEAD = new Set(['is-five']);

function messageOf(sql: string): string {
  const r = parseSql(sql);
  if (r.ok) throw new Error(`expected a syntax error for: ${sql}`);
  return r.error.message;
}

/** The expected tokens of a message, each as its line shows it (`"FROM" ...`, `<EOF>`). */
function listed(message: string): string[] {
  return message
    .split('\n')
    .slice(2)
    .map((l) => l.trim())
    .filter((l) => l !== '...');
}

describe("SQL syntax errors against Flink 2.3.0's parser", () => {
  it('the fixture holds the cases, each a failure in Flink', () => {
    expect(Object.keys(CASES).length).toBeGreaterThanOrEqual(20);
    for (const c of Object.values(CASES)) expect(c.flink).toMatch(/^SQL parse failed\. /);
  });

  for (const [name, c] of Object.entries(CASES)) {
    if (LOOKAHEAD.has(name)) continue;
    it(`${name}: Flink's first line, and expected tokens Flink expects too`, () => {
      const ours = messageOf(c.sql);
      const lines = ours.split('\n');
      expect(lines[0]).toBe(c.flink.split('\n')[0]);
      const flink = listed(c.flink);
      const mine = listed(ours);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.length).toBeLessThanOrEqual(MAX_EXPECTED_SHOWN);
      for (const token of mine) expect(flink, `${token} is not in Flink's list`).toContain(token);
      expect(lines[1]).toBe(mine.length === 1 && lines.length === 3 ? 'Was expecting:' : 'Was expecting one of:');
    });
  }

  it('where joinstep knows every alternative, the whole message is Flink\'s', () => {
    for (const name of ['type-paren', 'insert-no-into']) expect(messageOf(CASES[name]!.sql)).toBe(CASES[name]!.flink);
    // Flink also lists `<EOF> "AS" "LIKE" ";"` after a CREATE TABLE's options, in this order.
    expect(messageOf(CASES['no-semicolon']!.sql)).toBe(CASES['no-semicolon']!.flink);
  });

  it('a long list is cut after the first eight, then "..."', () => {
    const m = messageOf(CASES['on-eof']!.sql).split('\n');
    expect(m).toHaveLength(2 + MAX_EXPECTED_SHOWN + 1);
    expect(m.at(-1)).toBe('    ...');
    expect(listed(CASES['on-eof']!.flink).length).toBeGreaterThan(100);
    // Cut, the list shows first what kind of thing belongs there, then keywords.
    expect(listed(messageOf(CASES['on-eof']!.sql)).slice(0, 4)).toEqual(['<UNSIGNED_INTEGER_LITERAL> ...', '<QUOTED_STRING> ...', '<BACK_QUOTED_IDENTIFIER> ...', '<IDENTIFIER> ...']);
  });

  it("a lower-case keyword is Encountered, a capitalised one 'Incorrect syntax near the keyword' (Calcite compares the text as written)", () => {
    expect(messageOf('select a, from t').split('\n')[0]).toBe('SQL parse failed. Encountered "from" at line 1, column 11.');
    expect(messageOf('select a, FROM t').split('\n')[0]).toBe("SQL parse failed. Incorrect syntax near the keyword 'FROM' at line 1, column 11.");
  });

  it('the list comes from the grammar at the failing token, not from the message wording', () => {
    // The same token, WITH, fails in two grammar states and lists different tokens.
    expect(listed(messageOf("CREATE TABLE t (id INT\nWITH ('a' = 'b')"))).toEqual(expect.arrayContaining(['"," ...', '")" ...']));
    expect(listed(messageOf("CREATE TABLE t (ts TIMESTAMP(3) WITH ('a' = 'b')"))).toEqual(['"LOCAL" ...']);
  });
});

describe('in a scenario file', () => {
  it('the diagnostic points into the YAML; the message counts lines and columns in the SQL, as Flink does', () => {
    const text = [
      'name: x',
      'sql: |',
      '  CREATE TABLE t (',
      '    id STRING,',
      '    ts TIMESTAMP(3',
      "  ) WITH ('connector' = 'kafka');",
      'events: []',
      '',
    ].join('\n');
    const r = loadScenarioText('f.yaml', text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    // The `(` after WITH: YAML line 6, column 10 (the block's indentation of 2, then column 8).
    expect(r.diagnostics[0]).toMatchObject({
      line: 6,
      col: 10,
      message: 'SQL parse failed. Encountered "(" at line 4, column 8.\nWas expecting:\n    "LOCAL" ...',
      hint: expect.stringContaining("a ')' is missing before it"),
    });
  });
});
