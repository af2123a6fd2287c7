import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CreateTable, QueryStmt } from '../../src/sql/ast.js';
import { parseSql } from '../../src/sql/parser.js';
import { parseOk, show, showFrom, src } from './helpers.js';
import { SPEC_EXAMPLES_DIR } from '../paths.js';

const dir = SPEC_EXAMPLES_DIR;
const examples = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ file: f, sql: String((parse(readFileSync(join(dir, f), 'utf8')) as { sql: string }).sql) }));

describe('spec examples', () => {
  it('finds the examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples)('parses $file into CREATE TABLEs and one query', ({ sql }) => {
    const { statements } = parseOk(sql);
    expect(statements.map((s) => s.kind)).toEqual(['createTable', 'createTable', 'query']);
    for (const s of statements) expect(src(sql, s).length).toBeGreaterThan(10);
  });

  it('parses the EUR order example into the expected tree', () => {
    const sql = examples.find((e) => e.file === 'eur-order-0930.yaml')?.sql ?? '';
    const [orders, rates, q] = parseOk(sql).statements as [CreateTable, CreateTable, QueryStmt];
    expect(orders.name.value).toBe('orders');
    expect(orders.columns.map((c) => `${c.name.value}:${c.kind === 'computed' ? 'expr' : c.type.name + (c.type.args.length ? `(${c.type.args.join(',')})` : '')}`)).toEqual([
      'order_id:STRING', 'currency:STRING', 'amount:DECIMAL(10,2)', 'order_time:TIMESTAMP(3)',
    ]);
    if (orders.watermark === undefined) throw new Error('expected a watermark');
    expect(orders.watermark.column.value).toBe('order_time');
    expect(show(orders.watermark.expr)).toBe("(- order_time (interval '5' SECOND))");
    expect(orders.primaryKey).toBeUndefined();
    expect(orders.options.map((o) => `${o.key}=${o.value}`)).toEqual(['connector=kafka', 'topic=orders', 'format=json']);
    expect(rates.primaryKey?.columns.map((c) => c.value)).toEqual(['currency']);
    expect(rates.primaryKey?.notEnforced).toBe(true);
    expect(rates.options.find((o) => o.key === 'connector')?.value).toBe('upsert-kafka');

    const select = q.query;
    expect(showFrom(select.from)).toBe('(LEFT orders@o rates@r)');
    const join = select.from;
    if (join.kind !== 'join' || join.right.kind !== 'table') throw new Error('expected a join with a table on the right');
    expect(src(sql, join.right.forSystemTime ?? join)).toBe('o.order_time');
    expect(src(sql, join.keywordSpan)).toBe('LEFT JOIN');
    if (join.on === undefined) throw new Error('expected an ON condition');
    expect(show(join.on)).toBe('(= o.currency r.currency)');
    expect(select.items.map((i) => (i.kind === 'expr' ? `${show(i.expr)}${i.alias ? ` as ${i.alias.value}` : ''}` : '*'))).toEqual([
      'o.order_id', 'o.order_time', '(* o.amount r.usd_rate) as amount_usd',
    ]);
  });

});
