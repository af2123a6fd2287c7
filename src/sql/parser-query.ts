import type { Expr, FromItem, Ident, JoinItem, JoinType, Select, SelectItem, Span } from './ast.js';
import type { Cursor } from './cursor.js';
import { nested } from './depth.js';
import { parseExpr, parseExprList } from './parser-expr.js';
import { parseHints } from './parser-hints.js';

/** Words that end a query: seeing one after the select list means FROM is missing. */
const QUERY_END_WORDS = ['UNION', 'INTERSECT', 'EXCEPT', 'MINUS', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'WINDOW', 'QUALIFY'];
const QUERY_END = new RegExp(`^(${QUERY_END_WORDS.join('|')})$`);

/** `SELECT [hints] [DISTINCT|ALL] items FROM from [WHERE] [GROUP BY] [HAVING]`. */
export function parseSelect(c: Cursor): Select {
  return nested(c, () => parseSelectAt(c));
}

function parseSelectAt(c: Cursor): Select {
  const kw = c.expectWord('SELECT', 'a query starts with SELECT');
  const hints = parseHints(c);
  const distinct = c.acceptWord('DISTINCT') !== undefined;
  if (!distinct) c.acceptWord('ALL');
  const items: SelectItem[] = [parseSelectItem(c)];
  while (c.acceptOp(',')) items.push(parseSelectItem(c));
  if (!c.isWord('FROM')) {
    const t = c.tok;
    // Which hint fits: these look at the token without adding to what a syntax error lists.
    if (t.kind === 'eof' || (t.kind === 'op' && (t.text === ';' || t.text === ')')) || (t.kind === 'word' && QUERY_END.test(t.value))) {
      c.failWith('joinstep needs a FROM clause: a query without FROM has no join to step through', 'add FROM <table> after the select list', kw);
    }
    c.fail("FROM is expected here (or a ',' between two select items)");
  }
  c.next();
  const from = parseFrom(c);
  let select: Select = { kind: 'select', hints, distinct, items, from, start: kw.start, end: c.lastEnd };
  expectQueryEnd(c);
  if (c.acceptWord('WHERE')) select = { ...select, where: parseExpr(c), end: c.lastEnd };
  if (c.acceptWord('GROUP')) {
    c.expectWord('BY', 'write GROUP BY');
    select = { ...select, groupBy: parseExprList(c), end: c.lastEnd };
  }
  if (c.acceptWord('HAVING')) select = { ...select, having: parseExpr(c), end: c.lastEnd };
  expectQueryEnd(c);
  const t = c.tok;
  if (t.kind === 'word' && QUERY_END.test(t.value)) c.unsupported(`${t.value} in a query`);
  return select;
}

/** Flink's query may go on with UNION, ORDER BY, LIMIT, ...: joinstep says they are unsupported, a syntax error lists them. */
function expectQueryEnd(c: Cursor): void {
  c.expect(...QUERY_END_WORDS.map((w) => `"${w}"`));
}

function parseSelectItem(c: Cursor): SelectItem {
  const t = c.tok;
  if (c.isOp('*')) {
    c.next();
    return { kind: 'star', start: t.start, end: t.end };
  }
  if ((t.kind === 'word' || t.kind === 'quoted') && c.isOp('.', 1) && c.isOp('*', 2)) {
    const qualifier = c.ident('a table alias');
    c.next();
    const star = c.next();
    return { kind: 'star', qualifier, start: t.start, end: star.end };
  }
  const expr = parseExpr(c);
  const alias = parseAlias(c);
  return alias === undefined
    ? { kind: 'expr', expr, start: expr.start, end: expr.end }
    : { kind: 'expr', expr, alias, start: expr.start, end: alias.end };
}

/** `[AS] alias`; without AS only a non-reserved word can be an alias. */
function parseAlias(c: Cursor): Ident | undefined {
  if (c.acceptWord('AS')) return c.ident('an alias');
  return c.atIdent() ? c.ident('an alias') : undefined;
}

/**
 * The FROM clause. As in Calcite, JOIN binds tighter than a comma: `a, b JOIN c ON ...` is
 * `a, (b JOIN c ON ...)`, and joins chain to the left.
 */
function parseFrom(c: Cursor): FromItem {
  let left = parseJoinChain(c);
  while (c.isOp(',')) {
    const comma = c.next();
    const right = parseJoinChain(c);
    left = join(left, right, 'COMMA', comma, undefined);
  }
  return left;
}

function parseJoinChain(c: Cursor): FromItem {
  let left = parseTableFactor(c);
  for (;;) {
    const start = c.tok;
    const joinType = parseJoinKeywords(c);
    if (joinType === undefined) return left;
    const keywordSpan: Span = { start: start.start, end: c.lastEnd };
    if (c.isWord('LATERAL')) c.unsupported('LATERAL joins');
    const right = parseTableFactor(c);
    let on: Expr | undefined;
    const onTok = c.tok;
    if (c.acceptWord('ON')) on = parseExpr(c);
    else if (c.isWord('USING')) c.unsupported('JOIN ... USING (...); write ON a.k = b.k');
    if (joinType === 'CROSS' && on !== undefined) {
      c.failWith('Cannot specify condition (NATURAL keyword, or ON or USING clause) following CROSS JOIN', 'a CROSS JOIN has no ON clause; use JOIN ... ON for a join with a condition', onTok);
    }
    if (joinType !== 'CROSS' && on === undefined) {
      c.failWith('INNER, LEFT, RIGHT or FULL join requires a condition (NATURAL keyword or ON or USING clause)', 'add ON <condition> after the joined table', keywordSpan);
    }
    left = join(left, right, joinType, keywordSpan, on);
  }
}

const JOIN_WORDS: ReadonlyMap<string, JoinType> = new Map([
  ['INNER', 'INNER'],
  ['LEFT', 'LEFT'],
  ['RIGHT', 'RIGHT'],
  ['FULL', 'FULL'],
  ['CROSS', 'CROSS'],
]);

/** `JOIN`, `INNER JOIN`, `LEFT [OUTER] JOIN`, ..., `CROSS JOIN`; undefined if none is here. */
function parseJoinKeywords(c: Cursor): JoinType | undefined {
  c.expect(...[...JOIN_WORDS.keys()].map((w) => `"${w}"`));
  if (c.acceptWord('JOIN')) return 'INNER';
  if (c.isWord('NATURAL')) c.unsupported('NATURAL joins');
  const t = c.tok;
  if (t.kind !== 'word') return undefined;
  const type = JOIN_WORDS.get(t.value);
  if (type === undefined) return undefined;
  c.next();
  if (type === 'LEFT' || type === 'RIGHT' || type === 'FULL') c.acceptWord('OUTER');
  if (type === 'CROSS' && c.isWord('APPLY')) c.unsupported('CROSS APPLY');
  c.expectWord('JOIN', `${type} must be followed by JOIN`);
  return type;
}

function join(left: FromItem, right: FromItem, joinType: JoinType, keywordSpan: Span, on: Expr | undefined): JoinItem {
  const end = on?.end ?? right.end;
  const span = { start: keywordSpan.start, end: keywordSpan.end };
  const node: JoinItem = { kind: 'join', joinType, left, right, keywordSpan: span, start: left.start, end };
  return on === undefined ? node : { ...node, on };
}

/** A table, `(SELECT ...) [AS] alias`, or a parenthesised join. */
function parseTableFactor(c: Cursor): FromItem {
  const t = c.tok;
  if (c.isOp('(')) {
    c.next();
    if (c.isWord('SELECT')) {
      const query = parseSelect(c);
      c.expectOp(')');
      const alias = parseAlias(c);
      const end = alias?.end ?? c.lastEnd;
      return alias === undefined ? { kind: 'subquery', query, start: t.start, end } : { kind: 'subquery', query, alias, start: t.start, end };
    }
    // Brackets around a join nest as deep as they are written: bounded like expressions (depth.ts).
    const inner = nested(c, () => parseFrom(c));
    c.expectOp(')');
    return inner;
  }
  if (t.kind === 'word' && /^(LATERAL|UNNEST|TABLE)$/.test(t.value)) c.unsupported(`${t.value} in FROM`);
  const name = c.ident('a table name');
  if (c.isOp('.')) c.unsupported('qualified table names (catalog.database.table); declare the table with CREATE TABLE');
  const hints = parseHints(c);
  let forSystemTime: Expr | undefined;
  if (c.acceptWord('FOR')) {
    c.expectWord('SYSTEM_TIME', 'write FOR SYSTEM_TIME AS OF <time attribute>');
    c.expectWord('AS', 'write FOR SYSTEM_TIME AS OF <time attribute>');
    c.expectWord('OF', 'write FOR SYSTEM_TIME AS OF <time attribute>');
    forSystemTime = parseExpr(c);
  }
  const alias = parseAlias(c);
  if (alias !== undefined && c.isOp('(')) c.unsupported('column aliases after a table alias');
  if (c.tok.kind === 'hintStart') c.fail('a table hint goes right after the table name: orders /*+ OPTIONS(...) */ AS o');
  return {
    kind: 'table',
    name,
    hints,
    start: name.start,
    end: c.lastEnd,
    ...(alias && { alias }),
    ...(forSystemTime && { forSystemTime }),
  };
}
