import type { ColumnDef, CreateTable, CreateView, InsertStmt, PrimaryKeyDef, Span, TableOption, WatermarkDef } from './ast.js';
import type { Cursor } from './cursor.js';
import type { Token } from './lexer.js';
import { parseExpr } from './parser-expr.js';
import { parseSelect } from './parser-query.js';
import { parseType } from './parser-types.js';

/** What one CREATE TABLE element contributed. */
type Element = { column: ColumnDef } | { watermark: WatermarkDef } | { primaryKey: PrimaryKeyDef };

/** After `CREATE [TEMPORARY]`: `TABLE [IF NOT EXISTS] name (elements) [COMMENT] [PARTITIONED BY] [WITH]`. */
export function parseCreateTable(c: Cursor, start: Token, temporary: boolean): CreateTable {
  c.expectWord('TABLE');
  const ifNotExists = parseIfNotExists(c);
  const name = c.ident('a table name');
  if (c.isOp('.')) c.unsupported('qualified table names (catalog.database.table)');
  if (c.isWord('AS') || c.isWord('LIKE')) c.unsupported(`CREATE TABLE ... ${c.tok.value}`);
  c.expectOp('(', "the columns of a table are listed in parentheses: CREATE TABLE t (id STRING, ...)");
  const columns: ColumnDef[] = [];
  let watermark: WatermarkDef | undefined;
  let primaryKey: PrimaryKeyDef | undefined;
  let keySpan: Span | undefined; // the first primary key, table-level or inline
  do {
    const el = parseTableElement(c);
    const key = 'primaryKey' in el ? el.primaryKey : 'column' in el && el.column.kind === 'physical' ? el.column.primaryKey : undefined;
    if (key !== undefined && keySpan !== undefined) {
      c.failWith('Duplicate primary key definition', 'a table has at most one PRIMARY KEY (list several columns in one: PRIMARY KEY (a, b))', key);
    }
    keySpan ??= key;
    if ('watermark' in el && watermark !== undefined) {
      c.failWith('Multiple WATERMARK statements is not supported yet.', 'a table has at most one WATERMARK definition', el.watermark);
    }
    if ('column' in el) columns.push(el.column);
    else if ('watermark' in el) watermark = el.watermark;
    else primaryKey = el.primaryKey;
  } while (c.acceptOp(','));
  c.expectOp(')', "a ')' is missing (or a ',' between two column definitions)");
  if (c.acceptWord('COMMENT')) expectString(c, 'a comment is a quoted string');
  if (c.isWord('DISTRIBUTED')) c.unsupported('DISTRIBUTED BY');
  if (c.acceptWord('PARTITIONED')) {
    c.expectWord('BY');
    parseIdentList(c);
  }
  const options = c.acceptWord('WITH') ? parseOptions(c) : [];
  if (c.isWord('AS')) c.unsupported('CREATE TABLE ... AS SELECT');
  if (c.isWord('LIKE')) c.unsupported('CREATE TABLE ... LIKE');
  const node: CreateTable = { kind: 'createTable', name, temporary, ifNotExists, columns, options, start: start.start, end: c.lastEnd };
  return { ...node, ...(watermark && { watermark }), ...(primaryKey && { primaryKey }) };
}

function parseIfNotExists(c: Cursor): boolean {
  if (!c.isWord('IF')) return false;
  c.next();
  c.expectWord('NOT', 'write IF NOT EXISTS');
  c.expectWord('EXISTS', 'write IF NOT EXISTS');
  return true;
}

function parseTableElement(c: Cursor): Element {
  const t = c.tok;
  if (c.acceptWord('WATERMARK')) {
    c.expectWord('FOR', 'write WATERMARK FOR <column> AS <expression>');
    const column = c.ident('a column name');
    c.expectWord('AS', 'write WATERMARK FOR <column> AS <expression>');
    const expr = parseExpr(c);
    return { watermark: { column, expr, start: t.start, end: expr.end } };
  }
  if (c.isWord('CONSTRAINT') || c.isWord('PRIMARY')) {
    if (c.acceptWord('CONSTRAINT')) c.ident('a constraint name');
    c.expectWord('PRIMARY', 'write [CONSTRAINT name] PRIMARY KEY (columns) NOT ENFORCED');
    c.expectWord('KEY', 'write PRIMARY KEY (columns) NOT ENFORCED');
    const columns = parseIdentList(c);
    const notEnforced = parseEnforcement(c);
    return { primaryKey: { columns, notEnforced, start: t.start, end: c.lastEnd } };
  }
  if (c.isWord('UNIQUE')) c.unsupported('UNIQUE constraints');
  return { column: parseColumn(c) };
}

/** `NOT ENFORCED` (true), `ENFORCED` or nothing (false; the planner reports Flink's message). */
function parseEnforcement(c: Cursor): boolean {
  if (c.acceptWord('ENFORCED')) return false;
  if (!c.acceptWord('NOT')) return false;
  c.expectWord('ENFORCED', 'write PRIMARY KEY (...) NOT ENFORCED');
  return true;
}

function parseColumn(c: Cursor): ColumnDef {
  const name = c.ident('a column name');
  if (c.acceptWord('AS')) {
    const expr = parseExpr(c);
    skipComment(c);
    return { kind: 'computed', name, expr, start: name.start, end: expr.end };
  }
  const type = parseType(c);
  if (c.acceptWord('METADATA')) {
    const from = c.acceptWord('FROM') ? expectString(c, "the metadata key is a quoted string: METADATA FROM 'timestamp'").value : undefined;
    const virtual = c.acceptWord('VIRTUAL') !== undefined;
    const end = c.lastEnd;
    skipComment(c);
    const node: ColumnDef = { kind: 'metadata', name, type, virtual, start: name.start, end };
    return from === undefined ? node : { ...node, from };
  }
  let primaryKey: Span | undefined;
  const pkStart = c.tok;
  if (c.acceptWord('CONSTRAINT')) c.ident('a constraint name');
  if (c.acceptWord('PRIMARY')) {
    c.expectWord('KEY', 'write PRIMARY KEY NOT ENFORCED');
    if (!parseEnforcement(c)) {
      // The AST has no room for an enforced inline key, so report Flink's rejection here.
      c.failWith(
        "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode",
        'write PRIMARY KEY NOT ENFORCED',
        { start: pkStart.start, end: c.lastEnd },
      );
    }
    primaryKey = { start: pkStart.start, end: c.lastEnd };
  }
  const end = c.lastEnd;
  skipComment(c);
  const node: ColumnDef = { kind: 'physical', name, type, start: name.start, end };
  return primaryKey === undefined ? node : { ...node, primaryKey };
}

function skipComment(c: Cursor): void {
  if (c.acceptWord('COMMENT')) expectString(c, 'a comment is a quoted string');
}

function parseIdentList(c: Cursor): ReturnType<Cursor['ident']>[] {
  c.expectOp('(', 'the key columns are listed in parentheses: PRIMARY KEY (id) NOT ENFORCED');
  const list = [c.ident('a column name')];
  while (c.acceptOp(',')) list.push(c.ident('a column name'));
  c.expectOp(')');
  return list;
}

/** `('k' = 'v', ...)`: keys and values are string literals. */
function parseOptions(c: Cursor): TableOption[] {
  c.expectOp('(', "table options are listed in parentheses: WITH ('connector' = 'kafka')");
  const options: TableOption[] = [];
  if (c.acceptOp(')')) return options;
  do {
    const key = expectString(c, "an option key is a quoted string: 'connector' = 'kafka'");
    c.expectOp('=', "an option is written 'key' = 'value'");
    const value = expectString(c, "an option value is a quoted string: 'key' = 'value' (quote numbers too: 'port' = '5432')");
    options.push({ key: key.value, value: value.value, keySpan: span(key), valueSpan: span(value), start: key.start, end: value.end });
  } while (c.acceptOp(','));
  c.expectOp(')', "a ')' is missing (or a ',' between two options)");
  return options;
}

function expectString(c: Cursor, hint: string): Token {
  if (!c.at('string')) c.fail(hint);
  return c.next();
}

function span(t: Token): Span {
  return { start: t.start, end: t.end };
}

/** After `CREATE [TEMPORARY]`: `VIEW [IF NOT EXISTS] name [COMMENT '...'] AS SELECT ...`. */
export function parseCreateView(c: Cursor, start: Token, temporary: boolean): CreateView {
  c.expectWord('VIEW');
  parseIfNotExists(c);
  const name = c.ident('a view name');
  if (c.isOp('(')) c.unsupported('a column list on a view; alias the columns in the SELECT instead');
  skipComment(c);
  c.expectWord('AS', 'write CREATE VIEW name AS SELECT ...');
  const query = parseSelect(c);
  return { kind: 'createView', name, temporary, query, start: start.start, end: query.end };
}

/** `INSERT INTO t SELECT ... [ON CONFLICT DO DEDUPLICATE | NOTHING | ERROR]`. */
export function parseInsert(c: Cursor): InsertStmt {
  const start = c.next();
  if (c.isWord('OVERWRITE')) c.unsupported('INSERT OVERWRITE');
  c.expectWord('INTO', 'write INSERT INTO <table> SELECT ...');
  const target = c.ident('a table name');
  if (c.at('hintStart')) c.unsupported('table hints on the INSERT INTO target');
  if (c.isOp('(')) c.unsupported('a column list in INSERT INTO; select the columns in the sink order instead');
  if (c.isWord('PARTITION')) c.unsupported('INSERT ... PARTITION');
  const query = parseSelect(c);
  const node: InsertStmt = { kind: 'insert', target, query, start: start.start, end: query.end };
  if (!c.acceptWord('ON')) return node;
  c.expectWord('CONFLICT', 'write ON CONFLICT DO DEDUPLICATE | NOTHING | ERROR');
  c.expectWord('DO', 'write ON CONFLICT DO DEDUPLICATE | NOTHING | ERROR');
  const action = c.tok;
  const actions = ['DEDUPLICATE', 'NOTHING', 'ERROR'];
  if (!actions.some((a) => c.isWord(a))) {
    c.fail('ON CONFLICT DO is followed by DEDUPLICATE, NOTHING or ERROR');
  }
  c.next();
  return { ...node, onConflict: action.value as 'DEDUPLICATE' | 'NOTHING' | 'ERROR', end: action.end };
}
