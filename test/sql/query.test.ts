import { describe, expect, it } from 'vitest';
import type { JoinItem, TableRef } from '../../src/sql/ast.js';
import { parseOk, query, show, showFrom, src } from './helpers.js';

describe('SELECT', () => {
  it('reads select items: *, t.*, expressions with and without AS', () => {
    const sql = 'SELECT *, o.*, `r`.*, a + 1 AS x, b y, c FROM t';
    const items = query(sql).items;
    expect(items.map((i) => (i.kind === 'star' ? `${i.qualifier?.value ?? ''}*` : `${show(i.expr)}@${i.alias?.value ?? ''}`))).toEqual([
      '*', 'o*', 'r*', '(+ a 1)@x', 'b@y', 'c@',
    ]);
    expect(items.map((i) => src(sql, i))).toEqual(['*', 'o.*', '`r`.*', 'a + 1 AS x', 'b y', 'c']);
  });

  it('reads DISTINCT, WHERE, GROUP BY and HAVING', () => {
    const q = query('SELECT DISTINCT k, COUNT(*) FROM t WHERE a > 1 GROUP BY k, j HAVING COUNT(*) > 2');
    expect(q.distinct).toBe(true);
    expect(q.where && show(q.where)).toBe('(> a 1)');
    expect(q.groupBy?.map(show)).toEqual(['k', 'j']);
    expect(q.having && show(q.having)).toBe('(> (COUNT *) 2)');
  });

  it('reads query hints after SELECT', () => {
    const sql = "SELECT /*+ STATE_TTL('o' = '1d', 'r' = '12h'), LOOKUP('table'='c', 'async'='true') */ /*+ BROADCAST(r, 'x') */ a FROM t";
    const q = query(sql);
    expect(q.hints.map((h) => h.name)).toEqual(['STATE_TTL', 'LOOKUP', 'BROADCAST']);
    expect(q.hints[0]?.options.map((o) => [o.key, o.value, src(sql, o.span)])).toEqual([
      ['o', '1d', "'o' = '1d'"],
      ['r', '12h', "'r' = '12h'"],
    ]);
    expect(q.hints[2]?.options.map((o) => [o.key, o.value])).toEqual([['', 'r'], ['', 'x']]);
    expect(src(sql, q.hints[0] ?? q)).toBe("STATE_TTL('o' = '1d', 'r' = '12h')");
  });
});

describe('FROM and joins', () => {
  it.each([
    ['a JOIN b ON a.k = b.k', '(INNER a b)'],
    ['a INNER JOIN b ON a.k = b.k', '(INNER a b)'],
    ['a LEFT JOIN b ON a.k = b.k', '(LEFT a b)'],
    ['a LEFT OUTER JOIN b ON a.k = b.k', '(LEFT a b)'],
    ['a RIGHT OUTER JOIN b ON a.k = b.k', '(RIGHT a b)'],
    ['a FULL JOIN b ON a.k = b.k', '(FULL a b)'],
    ['a FULL OUTER JOIN b ON a.k = b.k', '(FULL a b)'],
    ['a CROSS JOIN b', '(CROSS a b)'],
    ['a, b', '(COMMA a b)'],
    ['a AS x JOIN b y ON x.k = y.k JOIN c ON c.k = x.k', '(INNER (INNER a@x b@y) c)'],
    // JOIN binds tighter than a comma (Calcite's FromClause)
    ['a, b JOIN c ON b.k = c.k', '(COMMA a (INNER b c))'],
    ['a JOIN (b JOIN c ON b.k = c.k) ON a.k = b.k', '(INNER a (INNER b c))'],
    ['(SELECT k FROM a) AS s JOIN b ON s.k = b.k', '(INNER (select)@s b)'],
    ['(SELECT k FROM a) s, b', '(COMMA (select)@s b)'],
  ])('%s', (fromSql, expected) => {
    expect(showFrom(query(`SELECT * FROM ${fromSql}`).from)).toBe(expected);
  });

  it('reads FOR SYSTEM_TIME AS OF before the alias, as Flink orders it', () => {
    const sql = 'SELECT * FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency';
    const join = query(sql).from as JoinItem;
    const rates = join.right as TableRef;
    expect(rates.alias?.value).toBe('r');
    expect(rates.forSystemTime && src(sql, rates.forSystemTime)).toBe('o.order_time');
    expect(src(sql, rates)).toBe('rates FOR SYSTEM_TIME AS OF o.order_time AS r');
    expect(src(sql, join.keywordSpan)).toBe('LEFT JOIN');
    expect(src(sql, join)).toBe(sql.slice(sql.indexOf('orders')));
    expect(src(sql, join.left)).toBe('orders AS o');
  });

  it('reads a lookup join without AS and a processing-time attribute', () => {
    const join = query('SELECT * FROM o JOIN customers FOR SYSTEM_TIME AS OF o.proc_time c ON o.k = c.k').from as JoinItem;
    expect((join.right as TableRef).alias?.value).toBe('c');
  });

  it('reads table hints right after the table name', () => {
    const sql = "SELECT * FROM kafka_t /*+ OPTIONS('scan.startup.mode' = 'earliest-offset') */ AS k";
    const t = query(sql).from as TableRef;
    expect(t.alias?.value).toBe('k');
    expect(t.hints.map((h) => [h.name, h.options.map((o) => `${o.key}=${o.value}`)])).toEqual([['OPTIONS', ['scan.startup.mode=earliest-offset']]]);
  });

  it('spans comma joins by the comma', () => {
    const sql = 'SELECT * FROM a , b';
    const join = query(sql).from as JoinItem;
    expect(src(sql, join.keywordSpan)).toBe(',');
    expect(join.on).toBeUndefined();
  });
});

describe('scripts', () => {
  it('splits statements on ; with an optional trailing ; and skips comments', () => {
    const sql = `-- tables
CREATE TABLE a (k STRING); /* the query */
SELECT * FROM a;
;`;
    const { statements } = parseOk(sql);
    expect(statements.map((s) => src(sql, s))).toEqual(['CREATE TABLE a (k STRING)', 'SELECT * FROM a']);
    expect(parseOk('SELECT * FROM a').statements).toHaveLength(1);
    expect(parseOk('  -- nothing\n').statements).toHaveLength(0);
  });
});
