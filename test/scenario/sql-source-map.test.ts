import { describe, expect, it } from 'vitest';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { createSqlSourceMap } from '../../src/scenario/sql-source-map.js';

/** Parses `text`, maps the offset of `needle` in the `sql` value, returns the file's line:col. */
function locate(text: string, needle: string, occurrence = 0): string {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  expect(doc.errors).toEqual([]);
  if (!isMap(doc.contents)) throw new Error('not a map');
  const node = doc.contents.get('sql', true);
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) throw new Error('no sql');
  const value = String(node.value);
  let offset = -1;
  for (let i = 0; i <= occurrence; i++) offset = value.indexOf(needle, offset + 1);
  expect(offset).toBeGreaterThanOrEqual(0);
  const map = createSqlSourceMap(text, { range: node.range, type: node.type }, value);
  const pos = lc.linePos(map(offset));
  return `${pos.line}:${pos.col}`;
}

describe('sql source map', () => {
  it('maps a literal block line to its YAML line, indentation plus column', () => {
    const text = 'name: x\nsql: |\n  CREATE TABLE a (id INT);\n  SELECT *\n  FROM a JION b;\nevents: []\n';
    // "JION" is on file line 5, after two spaces of indentation and "FROM a ": column 10.
    expect(locate(text, 'JION')).toBe('5:10');
    expect(locate(text, 'CREATE')).toBe('3:3');
    expect(locate(text, 'SELECT')).toBe('4:3');
  });

  it('keeps extra indentation of more-indented lines and handles |- and a header comment', () => {
    const text = 'sql: |- # the query\n    SELECT a\n      FROM t\n';
    expect(locate(text, 'FROM')).toBe('3:7');
  });

  it('maps an explicit indentation indicator block', () => {
    const text = 'sql: |2\n     SELECT a\n  FROM t\n';
    expect(locate(text, 'SELECT')).toBe('2:6');
    expect(locate(text, 'FROM')).toBe('3:3');
  });

  it('maps a folded block, whose line breaks became spaces', () => {
    const text = 'sql: >\n  SELECT a\n  FROM t\n  WHERE x\n';
    expect(locate(text, 'WHERE')).toBe('4:3');
  });

  it('maps plain and quoted scalars, including escapes and doubled quotes', () => {
    expect(locate('sql: SELECT a FROM t\n', 'FROM')).toBe('1:15');
    expect(locate('sql: "SELECT \\"a\\" FROM t"\n', 'FROM')).toBe('1:20');
    expect(locate("sql: 'SELECT ''x'' FROM t'\n", 'FROM')).toBe('1:20');
    expect(locate('sql: "SELECT a\n  FROM t"\n', 'FROM')).toBe('2:3');
  });

  it('maps the end of the text just after the last character', () => {
    const text = 'sql: |\n  SELECT a FROM\nevents: []\n';
    const lc = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lc });
    const node = (doc.contents as never as { get(k: string, keep: true): unknown }).get('sql', true);
    if (!isScalar(node) || typeof node.value !== 'string' || !node.range) throw new Error('no sql');
    const map = createSqlSourceMap(text, { range: node.range, type: node.type }, node.value);
    const pos = lc.linePos(map(node.value.length));
    // "  SELECT a FROM" ends at column 15; the end is column 16 of line 2.
    expect(`${pos.line}:${pos.col}`).toBe('2:16');
  });
});
