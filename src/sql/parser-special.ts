import type { CallExpr, CaseExpr, CastExpr, Expr, IntervalExpr, IntervalUnit, OverClause } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseExpr, parseExprList } from './parser-expr.js';
import { parseType } from './parser-types.js';

/**
 * Interval units as Flink's parser accepts them (Calcite's IntervalQualifier): plural spellings
 * (SECONDS, ...) are accepted too — Calcite only records a warning that Flink never shows.
 * MILLISECOND is not an interval unit in Flink SQL.
 */
const UNITS: Readonly<Record<string, IntervalUnit>> = {
  YEAR: 'YEAR',
  YEARS: 'YEAR',
  MONTH: 'MONTH',
  MONTHS: 'MONTH',
  DAY: 'DAY',
  DAYS: 'DAY',
  HOUR: 'HOUR',
  HOURS: 'HOUR',
  MINUTE: 'MINUTE',
  MINUTES: 'MINUTE',
  SECOND: 'SECOND',
  SECONDS: 'SECOND',
};

/** `start TO end` pairs that SQL allows. */
const RANGES: Readonly<Record<string, readonly IntervalUnit[]>> = {
  YEAR: ['MONTH'],
  DAY: ['HOUR', 'MINUTE', 'SECOND'],
  HOUR: ['MINUTE', 'SECOND'],
  MINUTE: ['SECOND'],
};

/** `INTERVAL [+|-] '5' SECOND`, `INTERVAL '10:30' MINUTE TO SECOND`. */
export function parseInterval(c: Cursor): IntervalExpr {
  const kw = c.next();
  let sign = '';
  if (c.acceptOp('-')) sign = '-';
  else c.acceptOp('+');
  const lit = c.tok;
  if (lit.kind === 'number' || lit.kind === 'word' || lit.kind === 'quoted') {
    c.unsupported(`INTERVAL with an unquoted value; write INTERVAL '${lit.text}' ${c.peek().text || 'SECOND'}`);
  }
  if (lit.kind !== 'string') c.fail("an interval value is a quoted string: INTERVAL '5' SECOND");
  c.next();
  const unit = parseUnit(c);
  let toUnit: IntervalUnit | undefined;
  if (c.isWord('TO') && (RANGES[unit] ?? []).length > 0) {
    c.next();
    const toTok = c.tok;
    toUnit = parseUnit(c);
    if (!(RANGES[unit] ?? []).includes(toUnit)) {
      c.fail(`INTERVAL ... ${unit} TO is followed by one of ${(RANGES[unit] ?? []).join(', ')}`, toTok);
    }
  }
  const value = sign + lit.value;
  const node: IntervalExpr = { kind: 'interval', value, unit, start: kw.start, end: c.lastEnd };
  return toUnit === undefined ? node : { ...node, toUnit };
}

function parseUnit(c: Cursor): IntervalUnit {
  const t = c.tok;
  // Flink's units, WEEK and QUARTER included (joinstep says it does not support those).
  c.expect(...[...Object.keys(UNITS), 'WEEK', 'WEEKS', 'QUARTER', 'QUARTERS'].map((u) => `"${u}"`));
  const unit = t.kind === 'word' ? UNITS[t.value] : undefined;
  if (t.kind === 'word' && /^(WEEK|QUARTER)S?$/.test(t.value)) {
    // Flink 2.x (Calcite 1.36) accepts these; joinstep's interval model does not have them yet.
    c.unsupported(`${t.value} intervals; write days or months instead, e.g. INTERVAL '7' DAY or INTERVAL '3' MONTH`);
  }
  if (unit === undefined) {
    const hint =
      t.kind === 'word' && /^MILLISECONDS?$/.test(t.value)
        ? "Flink SQL has no MILLISECOND interval unit; write fractional seconds: INTERVAL '0.250' SECOND"
        : 'an interval unit is expected here: YEAR, MONTH, DAY, HOUR, MINUTE or SECOND';
    c.fail(hint);
  }
  c.next();
  if (c.acceptOp('(')) {
    // Precision, e.g. SECOND(3) or DAY(2): accepted and not needed by joinstep.
    do {
      if (c.tok.kind !== 'number') c.fail('an interval precision is an unsigned integer');
      c.next();
    } while (c.acceptOp(','));
    c.expectOp(')');
  }
  return unit;
}

/** `CAST(x AS type)` / `TRY_CAST(x AS type)`. */
export function parseCast(c: Cursor): CastExpr {
  const kw = c.next();
  c.expectOp('(');
  const operand = parseExpr(c);
  c.expectWord('AS', `${kw.value} needs a target type: ${kw.value}(x AS type)`);
  const type = parseType(c);
  const close = c.expectOp(')');
  return { kind: 'cast', operand, type, try: kw.value === 'TRY_CAST', start: kw.start, end: close.end };
}

/** `CASE [x] WHEN a THEN b ... [ELSE e] END`. */
export function parseCase(c: Cursor): CaseExpr {
  const kw = c.next();
  const operand = c.isWord('WHEN') ? undefined : parseExpr(c);
  const whens: { when: Expr; then: Expr }[] = [];
  while (c.acceptWord('WHEN')) {
    const when = parseExpr(c);
    c.expectWord('THEN', 'each WHEN needs a THEN: WHEN condition THEN value');
    whens.push({ when, then: parseExpr(c) });
  }
  if (whens.length === 0) c.fail('CASE needs at least one WHEN ... THEN ...');
  const elseExpr = c.acceptWord('ELSE') ? parseExpr(c) : undefined;
  const end = c.expectWord('END', 'CASE must be closed with END');
  const node: CaseExpr = { kind: 'case', whens, start: kw.start, end: end.end };
  return { ...node, ...(operand && { operand }), ...(elseExpr && { else: elseExpr }) };
}

/** `name(args)`, `COUNT(*)`, `COUNT(DISTINCT x)`, `ROW_NUMBER() OVER (...)`. */
export function parseCall(c: Cursor): CallExpr {
  const nameTok = c.next();
  c.next(); // (
  let star = false;
  let distinct = false;
  let args: Expr[] = [];
  if (c.isOp('*') && c.isOp(')', 1)) {
    c.next();
    star = true;
  } else if (!c.isOp(')')) {
    distinct = c.acceptWord('DISTINCT') !== undefined;
    if (!distinct) c.acceptWord('ALL');
    args = parseExprList(c);
  }
  c.expectOp(')');
  if (c.isWord('FILTER') || c.isWord('WITHIN')) c.unsupported(`${c.tok.value} after an aggregate`);
  const over = c.isWord('OVER') ? parseOver(c) : undefined;
  const node: CallExpr = {
    kind: 'call',
    name: nameTok.value.toUpperCase(),
    nameSpan: { start: nameTok.start, end: nameTok.end },
    args,
    distinct,
    star,
    start: nameTok.start,
    end: c.lastEnd,
  };
  return over === undefined ? node : { ...node, over };
}

/** `OVER (PARTITION BY a, b ORDER BY t DESC)`; window frames are not supported. */
function parseOver(c: Cursor): OverClause {
  const kw = c.next();
  if (!c.isOp('(')) c.unsupported('named windows (OVER w)');
  c.next();
  let partitionBy: Expr[] = [];
  const orderBy: { expr: Expr; desc: boolean }[] = [];
  if (c.acceptWord('PARTITION')) {
    c.expectWord('BY');
    partitionBy = parseExprList(c);
  }
  if (c.acceptWord('ORDER')) {
    c.expectWord('BY');
    do {
      const expr = parseExpr(c);
      const desc = c.acceptWord('DESC') !== undefined;
      if (!desc) c.acceptWord('ASC');
      if (c.acceptWord('NULLS') && !c.acceptWord('FIRST')) c.expectWord('LAST', 'write NULLS FIRST or NULLS LAST');
      orderBy.push({ expr, desc });
    } while (c.acceptOp(','));
  }
  if (c.isWord('ROWS') || c.isWord('RANGE')) c.unsupported('window frames (ROWS / RANGE BETWEEN ...)');
  const close = c.expectOp(')');
  return { partitionBy, orderBy, start: kw.start, end: close.end };
}
