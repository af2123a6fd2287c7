import type { BinaryOp, Expr, Select } from './ast.js';
import { PARSE_FAILED, type Cursor } from './cursor.js';
import { nested } from './depth.js';
import { expectPrimary, parsePrimary } from './parser-primary.js';
import { parseSelect } from './parser-query.js';

/**
 * Operator precedence as Calcite (Flink's parser) defines it in SqlStdOperatorTable — higher binds
 * tighter. Note that `||` binds like `*` (not below `+`), and `IS NULL` binds looser than `=`:
 * `a = b IS NULL` is `(a = b) IS NULL`.
 */
const PREC = {
  OR: 22,
  AND: 24,
  NOT: 26,
  IS: 28,
  COMPARE: 30, // = <> < <= > >= IS [NOT] DISTINCT FROM
  MEMBERSHIP: 32, // BETWEEN, IN, LIKE
  ADD: 40, // + -
  MUL: 60, // * / % ||
  UNARY: 80, // unary - +
} as const;

const COMPARE_OPS = new Set(['=', '<>', '<', '<=', '>', '>=']);
const ADD_OPS = new Set(['+', '-']);
const MUL_OPS = new Set(['*', '/', '%', '||']);
/** What may follow an expression to continue it, as a syntax error lists it. */
const INFIX_IMAGES = [...['AND', 'OR', 'IS', 'NOT', 'BETWEEN', 'IN', 'LIKE', 'SIMILAR'], ...COMPARE_OPS, ...ADD_OPS, ...MUL_OPS].map((w) => `"${w}"`);

/** An expression whose infix operators all bind at least as tightly as `minPrec`. */
export function parseExpr(c: Cursor, minPrec = 0): Expr {
  return nested(c, () => parseExprAt(c, minPrec));
}

function parseExprAt(c: Cursor, minPrec: number): Expr {
  let left = parsePrefix(c);
  for (;;) {
    const next = parseInfix(c, left, minPrec);
    if (next === undefined) return left;
    left = next;
  }
}

/** A comma-separated, non-empty list of expressions. */
export function parseExprList(c: Cursor): Expr[] {
  const list = [parseExpr(c)];
  while (c.acceptOp(',')) list.push(parseExpr(c));
  return list;
}

function parsePrefix(c: Cursor): Expr {
  const t = c.tok;
  expectPrimary(c);
  if (c.isWord('NOT')) {
    c.next();
    const operand = parseExpr(c, PREC.NOT + 1);
    return { kind: 'unary', op: 'NOT', operand, start: t.start, end: operand.end };
  }
  if (c.isOp('-') || c.isOp('+')) {
    c.next();
    const operand = parseExpr(c, PREC.UNARY + 1);
    return { kind: 'unary', op: t.text as '-' | '+', operand, start: t.start, end: operand.end };
  }
  return parsePrimary(c);
}

/** Applies the infix or postfix operator at the cursor to `left`, or returns undefined. */
function parseInfix(c: Cursor, left: Expr, minPrec: number): Expr | undefined {
  const t = c.tok;
  c.expectContinuation(...INFIX_IMAGES);
  if (t.kind === 'op') {
    if (t.text === '!=') {
      c.failWith(
        `${PARSE_FAILED} Bang equal '!=' is not allowed under the current SQL conformance level`,
        "Flink SQL writes 'not equal' as <>",
        t,
      );
    }
    const prec = COMPARE_OPS.has(t.text) ? PREC.COMPARE : ADD_OPS.has(t.text) ? PREC.ADD : MUL_OPS.has(t.text) ? PREC.MUL : -1;
    if (prec < 0 || prec < minPrec) return undefined;
    return binary(c, left, t.text as BinaryOp, prec);
  }
  if (t.kind !== 'word') return undefined;
  switch (t.value) {
    case 'OR':
      return PREC.OR < minPrec ? undefined : binary(c, left, 'OR', PREC.OR);
    case 'AND':
      return PREC.AND < minPrec ? undefined : binary(c, left, 'AND', PREC.AND);
    case 'IS': {
      const distinct = c.isWord('DISTINCT', 1) || (c.isWord('NOT', 1) && c.isWord('DISTINCT', 2));
      if ((distinct ? PREC.COMPARE : PREC.IS) < minPrec) return undefined;
      return parseIs(c, left);
    }
    case 'NOT':
      if (!c.isWord('BETWEEN', 1) && !c.isWord('IN', 1) && !c.isWord('LIKE', 1)) return undefined;
      return PREC.MEMBERSHIP < minPrec ? undefined : parseMembership(c, left);
    case 'BETWEEN':
    case 'IN':
    case 'LIKE':
      return PREC.MEMBERSHIP < minPrec ? undefined : parseMembership(c, left);
    case 'SIMILAR':
      return c.unsupported('SIMILAR TO');
    default:
      return undefined;
  }
}

/** Left-associative binary operator: the right side only takes tighter operators. */
function binary(c: Cursor, left: Expr, op: BinaryOp, prec: number): Expr {
  const opTok = c.next();
  const right = parseExpr(c, prec + 1);
  return { kind: 'binary', op, left, right, opSpan: { start: opTok.start, end: opTok.end }, start: left.start, end: right.end };
}

/** `IS [NOT] NULL | TRUE | FALSE | UNKNOWN`, `IS [NOT] DISTINCT FROM expr`. */
function parseIs(c: Cursor, left: Expr): Expr {
  c.next();
  const negated = c.acceptWord('NOT') !== undefined;
  const t = c.tok;
  if (c.isWord('NULL')) {
    c.next();
    return { kind: 'isNull', operand: left, negated, start: left.start, end: t.end };
  }
  if (c.isWord('TRUE') || c.isWord('FALSE') || c.isWord('UNKNOWN')) {
    c.next();
    return { kind: 'isBool', operand: left, value: t.value as 'TRUE' | 'FALSE' | 'UNKNOWN', negated, start: left.start, end: t.end };
  }
  if (c.isWord('DISTINCT')) {
    c.next();
    c.expectWord('FROM', 'write IS [NOT] DISTINCT FROM <expression>');
    const right = parseExpr(c, PREC.COMPARE + 1);
    return { kind: 'isDistinct', left, right, negated, start: left.start, end: right.end };
  }
  return c.fail('IS is followed by [NOT] NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM');
}

/** `[NOT] BETWEEN [SYMMETRIC|ASYMMETRIC] a AND b`, `[NOT] IN (...)`, `[NOT] LIKE pattern`. */
function parseMembership(c: Cursor, left: Expr): Expr {
  const negated = c.acceptWord('NOT') !== undefined;
  const kw = c.next();
  const operand = left;
  if (kw.value === 'BETWEEN') {
    const symmetric = c.acceptWord('SYMMETRIC') !== undefined;
    if (!symmetric) c.acceptWord('ASYMMETRIC');
    const low = parseExpr(c, PREC.MEMBERSHIP + 1);
    c.expectWord('AND', 'BETWEEN needs AND: x BETWEEN low AND high');
    const high = parseExpr(c, PREC.MEMBERSHIP + 1);
    return { kind: 'between', operand, low, high, negated, symmetric, start: left.start, end: high.end };
  }
  if (kw.value === 'LIKE') {
    const pattern = parseExpr(c, PREC.MEMBERSHIP + 1);
    if (c.isWord('ESCAPE')) c.unsupported('LIKE ... ESCAPE');
    return { kind: 'like', operand, pattern, negated, start: left.start, end: pattern.end };
  }
  c.expectOp('(', "IN is followed by a parenthesised list or subquery: x IN (1, 2) or x IN (SELECT ...)");
  if (c.isWord('SELECT')) {
    const query: Select = parseSelect(c);
    const close = c.expectOp(')');
    return { kind: 'in', operand, negated, query, start: left.start, end: close.end };
  }
  const list = parseExprList(c);
  const close = c.expectOp(')');
  return { kind: 'in', operand, negated, list, start: left.start, end: close.end };
}
