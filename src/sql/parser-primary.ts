import type { Expr, TypedLiteralExpr } from './ast.js';
import { reservedWordHint, type Cursor } from './cursor.js';
import type { Token } from './lexer.js';
import { IDENTIFIER, TOKEN_CLASS } from './expected.js';
import { isClauseWord, isReserved } from './keywords.js';
import { parseExpr } from './parser-expr.js';
import { parseCall, parseCase, parseCast, parseInterval } from './parser-special.js';
import { parseSelect } from './parser-query.js';

/** Niladic functions Flink writes without parentheses (an optional precision is allowed). */
const NILADIC = new Set(['CURRENT_TIMESTAMP', 'LOCALTIMESTAMP', 'CURRENT_DATE', 'CURRENT_TIME', 'LOCALTIME']);
const TYPED_LITERALS = new Set(['TIMESTAMP', 'DATE', 'TIME', 'TIMESTAMP_LTZ']);
/** Functions with special argument syntax (`EXTRACT(DAY FROM ts)`) that joinstep does not parse. */
const SPECIAL_SYNTAX = new Set(['EXTRACT', 'TRIM', 'POSITION', 'OVERLAY', 'TIMESTAMPADD', 'TIMESTAMPDIFF', 'JSON_VALUE', 'JSON_QUERY', 'JSON_OBJECT', 'JSON_ARRAY']);

/** What may start a primary expression, as a syntax error lists it: the alternatives parsePrimary and parseWord take. */
const PRIMARY_IMAGES = [
  ...['TRUE', 'FALSE', 'NULL', 'INTERVAL', 'CAST', 'TRY_CAST', 'CASE', 'EXISTS', ...TYPED_LITERALS, ...NILADIC].map((w) => `"${w}"`),
  '"("',
  TOKEN_CLASS.number,
  TOKEN_CLASS.string,
  ...IDENTIFIER,
];

/** Records what may start a primary expression at the cursor (for the expected list of a syntax error). */
export function expectPrimary(c: Cursor): void {
  c.expect(...PRIMARY_IMAGES);
}

/** A primary expression: literal, column, call, CAST, CASE, INTERVAL, EXISTS, parenthesised. */
export function parsePrimary(c: Cursor): Expr {
  expectPrimary(c);
  const t = c.tok;
  switch (t.kind) {
    case 'number':
      c.next();
      return { kind: 'literal', type: 'number', text: t.text, start: t.start, end: t.end };
    case 'string':
      c.next();
      return { kind: 'literal', type: 'string', text: t.value, start: t.start, end: t.end };
    case 'op':
      if (t.text === '(') return parseParenthesised(c);
      return c.fail(missingExpressionHint(c));
    case 'quoted':
      return parseNameOrCall(c);
    case 'word':
      return parseWord(c, t);
    default:
      return c.fail(missingExpressionHint(c));
  }
}

function parseWord(c: Cursor, t: Token): Expr {
  const kw = t.value;
  if (kw === 'TRUE' || kw === 'FALSE') {
    c.next();
    return { kind: 'literal', type: 'boolean', text: kw, start: t.start, end: t.end };
  }
  if (kw === 'NULL') {
    c.next();
    return { kind: 'literal', type: 'null', text: 'NULL', start: t.start, end: t.end };
  }
  if (kw === 'INTERVAL') return parseInterval(c);
  if (TYPED_LITERALS.has(kw) && (c.peek().kind === 'string' || isLtzLiteral(c))) return parseTypedLiteral(c);
  if ((kw === 'CAST' || kw === 'TRY_CAST') && c.isOp('(', 1)) return parseCast(c);
  if (kw === 'CASE') return parseCase(c);
  if (kw === 'EXISTS') {
    c.next();
    c.expectOp('(', 'EXISTS is followed by a subquery: EXISTS (SELECT ...)');
    const query = parseSelect(c);
    const close = c.expectOp(')');
    return { kind: 'exists', query, start: t.start, end: close.end };
  }
  if (NILADIC.has(kw)) return parseNiladic(c);
  if (SPECIAL_SYNTAX.has(kw) && c.isOp('(', 1)) return c.unsupported(`the ${kw}(...) function syntax`);
  if (isReserved(kw) && !c.isOp('(', 1)) {
    // A reserved word where a value belongs: either a missing expression or an unquoted name.
    return c.fail(isClauseWord(kw) ? missingExpressionHint(c) : reservedWordHint(t));
  }
  return parseNameOrCall(c);
}

/** `TIMESTAMP WITH LOCAL TIME ZONE '...'` as a literal. */
function isLtzLiteral(c: Cursor): boolean {
  return c.isWord('TIMESTAMP') && c.isWord('WITH', 1) && c.isWord('LOCAL', 2) && c.peek(5).kind === 'string';
}

function parseTypedLiteral(c: Cursor): TypedLiteralExpr {
  const t = c.next();
  let typeName = t.value as TypedLiteralExpr['typeName'];
  if (c.isWord('WITH')) {
    for (let i = 0; i < 4; i++) c.next(); // WITH LOCAL TIME ZONE, checked by isLtzLiteral
    typeName = 'TIMESTAMP_LTZ';
  }
  const lit = c.next();
  return { kind: 'typedLiteral', typeName, text: lit.value, start: t.start, end: lit.end };
}

function parseNiladic(c: Cursor): Expr {
  const t = c.next();
  const nameSpan = { start: t.start, end: t.end };
  const args: Expr[] = [];
  if (c.acceptOp('(')) {
    const p = c.tok;
    if (p.kind !== 'number') c.fail(`${t.value} takes no parentheses, or a precision: ${t.value}(3)`);
    c.next();
    args.push({ kind: 'literal', type: 'number', text: p.text, start: p.start, end: p.end });
    c.expectOp(')');
  }
  return { kind: 'call', name: t.value, nameSpan, args, distinct: false, star: false, start: t.start, end: c.lastEnd };
}

/** `name`, `qualifier.name`, or a function call `name(...)`. */
function parseNameOrCall(c: Cursor): Expr {
  if (c.isOp('(', 1)) return parseCall(c);
  const first = c.ident('an expression');
  if (!c.acceptOp('.')) return { kind: 'column', name: first, start: first.start, end: first.end };
  if (c.isOp('*')) c.fail("'alias.*' is only allowed as a SELECT item");
  const name = c.ident('a column name');
  if (c.isOp('.')) c.unsupported('nested field access (a.b.c)');
  return { kind: 'column', qualifier: first, name, start: first.start, end: name.end };
}

/** `(SELECT ...)` is a scalar subquery; `(expr)` just groups. */
function parseParenthesised(c: Cursor): Expr {
  const open = c.next();
  if (c.isWord('SELECT')) {
    const query = parseSelect(c);
    const close = c.expectOp(')');
    return { kind: 'subquery', query, start: open.start, end: close.end };
  }
  const inner = parseExpr(c);
  if (c.isOp(',')) c.unsupported('row constructors (a, b)');
  c.expectOp(')');
  return inner;
}

/** Plain words for "the expression is missing", naming what came before it. */
export function missingExpressionHint(c: Cursor): string {
  const before = c.prev();
  if (before === undefined) return 'an expression is expected here';
  if (before.kind === 'op' || before.kind === 'word') {
    const what = before.kind === 'word' ? before.value : before.text;
    return `an expression is missing after '${what}'`;
  }
  return 'an expression is expected here';
}
