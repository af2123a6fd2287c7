import { describe, expect, it } from 'vitest';
import type { CreateTable, CreateView, InsertStmt, TypeAst } from '../../src/sql/ast.js';
import { onlyStatement, show, showFrom, src } from './helpers.js';

function table(sql: string): CreateTable {
  const st = onlyStatement(sql);
  if (st.kind !== 'createTable') throw new Error(`expected CREATE TABLE, got ${st.kind}`);
  return st;
}

function typeOf(typeSql: string): TypeAst {
  const col = table(`CREATE TABLE t (c ${typeSql})`).columns[0];
  if (col === undefined || col.kind === 'computed') throw new Error('expected a typed column');
  return col.type;
}

describe('CREATE TABLE', () => {
  it('reads TEMPORARY and IF NOT EXISTS', () => {
    const t = table('create temporary table if not exists `Orders` (id STRING)');
    expect(t).toMatchObject({ temporary: true, ifNotExists: true, name: { value: 'Orders' } });
    expect(table('CREATE TABLE o (id STRING)')).toMatchObject({ temporary: false, ifNotExists: false, options: [] });
  });

  it('reads physical, computed and metadata columns with their spans', () => {
    const sql = `CREATE TABLE pv (
  user_id STRING NOT NULL PRIMARY KEY NOT ENFORCED COMMENT 'who',
  ts_ms BIGINT,
  event_time AS TO_TIMESTAMP_LTZ(ts_ms, 3),
  proc AS PROCTIME(),
  kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
  part INT METADATA,
  WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND
) COMMENT 'views' PARTITIONED BY (user_id) WITH ('connector' = 'kafka', 'topic' = 'pv')`;
    const t = table(sql);
    const [user, tsMs, eventTime, proc, kafkaTs, part] = t.columns;
    expect(user).toMatchObject({ kind: 'physical', type: { name: 'STRING', nullable: false } });
    expect(src(sql, user ?? t)).toBe('user_id STRING NOT NULL PRIMARY KEY NOT ENFORCED');
    expect(user?.kind === 'physical' && user.primaryKey && src(sql, user.primaryKey)).toBe('PRIMARY KEY NOT ENFORCED');
    expect(tsMs).toMatchObject({ kind: 'physical', type: { name: 'BIGINT', nullable: true } });
    expect(eventTime?.kind === 'computed' && show(eventTime.expr)).toBe('(TO_TIMESTAMP_LTZ ts_ms 3)');
    expect(proc?.kind === 'computed' && show(proc.expr)).toBe('(PROCTIME)');
    expect(kafkaTs).toMatchObject({ kind: 'metadata', from: 'timestamp', virtual: true, type: { name: 'TIMESTAMP_LTZ', args: [3] } });
    expect(part).toMatchObject({ kind: 'metadata', virtual: false });
    expect(part && 'from' in part).toBe(false);
    expect(src(sql, t.watermark ?? t)).toBe("WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND");
    expect(t.options.map((o) => [o.key, o.value, src(sql, o.keySpan), src(sql, o.valueSpan)])).toEqual([
      ['connector', 'kafka', "'connector'", "'kafka'"],
      ['topic', 'pv', "'topic'", "'pv'"],
    ]);
    expect(src(sql, t)).toBe(sql);
  });

  it('reads table-level primary keys, with or without a constraint name', () => {
    const a = table('CREATE TABLE r (a STRING, b INT, CONSTRAINT pk PRIMARY KEY (a, b) NOT ENFORCED)');
    expect(a.primaryKey?.columns.map((c) => c.value)).toEqual(['a', 'b']);
    expect(a.primaryKey?.notEnforced).toBe(true);
    const b = table('CREATE TABLE r (a STRING, PRIMARY KEY (a))');
    expect(b.primaryKey?.notEnforced).toBe(false);
  });

  it('accepts elements in any order, as Flink does', () => {
    const t = table('CREATE TABLE r (PRIMARY KEY (k) NOT ENFORCED, k STRING, WATERMARK FOR ts AS ts, ts TIMESTAMP(3))');
    expect(t.columns.map((c) => c.name.value)).toEqual(['k', 'ts']);
    expect(t.watermark?.column.value).toBe('ts');
  });

  it('keys option values by their unescaped text', () => {
    const t = table("CREATE TABLE r (a INT) WITH ('k' = 'it''s', 'empty' = '')");
    expect(t.options.map((o) => o.value)).toEqual(["it's", '']);
  });
});

describe('types', () => {
  it.each([
    ['STRING', 'STRING', []],
    ['VARCHAR(20)', 'VARCHAR', [20]],
    ['CHAR(3)', 'CHAR', [3]],
    ['BOOLEAN', 'BOOLEAN', []],
    ['TINYINT', 'TINYINT', []],
    ['SMALLINT', 'SMALLINT', []],
    ['INT', 'INT', []],
    ['INTEGER', 'INT', []],
    ['BIGINT', 'BIGINT', []],
    ['FLOAT', 'FLOAT', []],
    ['DOUBLE', 'DOUBLE', []],
    ['DOUBLE PRECISION', 'DOUBLE', []],
    ['DECIMAL', 'DECIMAL', []],
    ['DECIMAL(10)', 'DECIMAL', [10]],
    ['decimal(10, 4)', 'DECIMAL', [10, 4]],
    ['DEC(5, 1)', 'DECIMAL', [5, 1]],
    ['NUMERIC(38, 18)', 'DECIMAL', [38, 18]],
    ['DATE', 'DATE', []],
    ['TIME', 'TIME', []],
    ['TIME(3)', 'TIME', [3]],
    ['TIMESTAMP', 'TIMESTAMP', []],
    ['TIMESTAMP(3)', 'TIMESTAMP', [3]],
    ['TIMESTAMP(3) WITHOUT TIME ZONE', 'TIMESTAMP', [3]],
    ['TIMESTAMP(3) WITH LOCAL TIME ZONE', 'TIMESTAMP_LTZ', [3]],
    ['TIMESTAMP WITH LOCAL TIME ZONE', 'TIMESTAMP_LTZ', []],
    ['TIMESTAMP_LTZ(6)', 'TIMESTAMP_LTZ', [6]],
    ['BYTES', 'BYTES', []],
    ['VARBINARY(8)', 'VARBINARY', [8]],
    ['MY_TYPE', 'MY_TYPE', []],
  ])('%s is %s %j', (typeSql, name, args) => {
    const type = typeOf(typeSql);
    expect({ name: type.name, args: type.args, nullable: type.nullable }).toEqual({ name, args, nullable: true });
  });

  it('marks NOT NULL types and spans the whole type', () => {
    const sql = 'CREATE TABLE t (c TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL)';
    const col = table(sql).columns[0];
    if (col === undefined || col.kind !== 'physical') throw new Error('expected a physical column');
    expect(col.type.nullable).toBe(false);
    expect(src(sql, col.type)).toBe('TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL');
  });
});

describe('CREATE VIEW and INSERT', () => {
  it('reads a deduplication view', () => {
    const sql = `CREATE TEMPORARY VIEW latest AS
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM log) WHERE rn = 1`;
    const v = onlyStatement(sql) as CreateView;
    expect(v).toMatchObject({ kind: 'createView', temporary: true, name: { value: 'latest' } });
    expect(src(sql, v.query)).toBe(sql.slice(sql.indexOf('SELECT')));
    expect(showFrom(v.query.from)).toBe('(select)');
    const inner = v.query.from.kind === 'subquery' ? v.query.from.query : undefined;
    const rn = inner?.items[1];
    if (rn?.kind !== 'expr' || rn.expr.kind !== 'call') throw new Error('expected ROW_NUMBER() item');
    expect(rn.alias?.value).toBe('rn');
    expect(rn.expr.over?.partitionBy.map(show)).toEqual(['k']);
    expect(rn.expr.over?.orderBy.map((o) => `${show(o.expr)} ${o.desc ? 'desc' : 'asc'}`)).toEqual(['ts desc']);
  });

  it('reads INSERT INTO with and without ON CONFLICT', () => {
    const plain = onlyStatement('INSERT INTO sink SELECT a FROM t') as InsertStmt;
    expect(plain).toMatchObject({ kind: 'insert', target: { value: 'sink' } });
    expect(plain.onConflict).toBeUndefined();
    for (const action of ['DEDUPLICATE', 'NOTHING', 'ERROR'] as const) {
      const sql = `INSERT INTO sink SELECT a FROM t JOIN u ON t.k = u.k ON CONFLICT DO ${action.toLowerCase()}`;
      const st = onlyStatement(sql) as InsertStmt;
      expect(st.onConflict).toBe(action);
      expect(src(sql, st)).toBe(sql);
    }
  });
});
