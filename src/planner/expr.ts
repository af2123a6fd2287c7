/**
 * AST expression → typed plan expression (TExpr) over a scope's combined row, with Flink's
 * result types and the validator's rejections ("Cannot apply ...", unknown columns).
 */
import type { BinaryExpr, CaseExpr, Expr, Span } from '../sql/ast.js';
import { isCastSupported } from '../values/cast.js';
import type { SqlType } from '../values/types.js';
import { checkLike } from './arg-types.js';
import { fail } from './errors.js';
import { callToTExpr } from './functions.js';
import { intervalToTExpr, literalToTExpr, typedLiteralToTExpr } from './literals.js';
import type { TExpr } from './plan.js';
import { resolveColumn, type Scope } from './scope.js';
import { calciteTypeName, flinkTypeName, resolveTypeAst } from './type-names.js';
import { arithmeticType, BOOLEAN, commonType, comparable, concatType, isTimestamp, t, withNullable } from './type-rules.js';

export function toTExpr(e: Expr, scope: Scope): TExpr {
  switch (e.kind) {
    case 'column': {
      const r = resolveColumn(scope, e);
      return { k: 'col', type: r.column.type, index: r.index, name: r.column.name };
    }
    case 'literal':
      return literalToTExpr(e);
    case 'interval':
      return intervalToTExpr(e);
    case 'typedLiteral':
      return typedLiteralToTExpr(e);
    case 'binary':
      return binary(e, scope);
    case 'unary': {
      const arg = toTExpr(e.operand, scope);
      if (e.op === 'NOT') return call('NOT', BOOLEAN(arg.type.nullable), [requireBoolean(arg, 'NOT', e)]);
      if (e.op === '+') return arg;
      if (arg.k === 'lit' && typeof arg.value === 'number') return { ...arg, value: -arg.value };
      if (arg.k === 'lit' && typeof arg.value === 'string' && arg.type.kind === 'DECIMAL') {
        return { ...arg, value: arg.value.startsWith('-') ? arg.value.slice(1) : `-${arg.value}` };
      }
      return call('NEG', arg.type, [arg]);
    }
    case 'isNull': {
      const arg = toTExpr(e.operand, scope);
      return call(e.negated ? 'IS NOT NULL' : 'IS NULL', BOOLEAN(false), [arg]);
    }
    case 'isBool': {
      const arg = requireBoolean(toTExpr(e.operand, scope), 'IS', e);
      if (e.value === 'UNKNOWN') return call(e.negated ? 'IS NOT NULL' : 'IS NULL', BOOLEAN(false), [arg]);
      const fn = `IS ${e.negated ? 'NOT ' : ''}${e.value}`;
      return call(fn, BOOLEAN(false), [arg]);
    }
    case 'isDistinct': {
      const l = toTExpr(e.left, scope);
      const r = toTExpr(e.right, scope);
      checkComparable(e.negated ? 'IS NOT DISTINCT FROM' : 'IS DISTINCT FROM', l, r, e);
      return call(e.negated ? 'IS NOT DISTINCT FROM' : 'IS DISTINCT FROM', BOOLEAN(false), [l, r]);
    }
    case 'between':
      return between(e.operand, e.low, e.high, e.negated, e, scope);
    case 'in': {
      if (e.query) fail('joinstep supports IN (SELECT ...) only as a WHERE condition of the join query', e);
      const operand = toTExpr(e.operand, scope);
      const list = (e.list ?? []).map((x) => toTExpr(x, scope));
      if (!commonType([operand.type, ...list.map((x) => x.type)])) {
        fail('Values passed to IN operator must have compatible types', e);
      }
      const nullable = operand.type.nullable || list.some((x) => x.type.nullable);
      const inCall = call('IN', BOOLEAN(nullable), [operand, ...list]);
      return e.negated ? call('NOT', BOOLEAN(nullable), [inCall]) : inCall;
    }
    case 'exists':
      return fail('joinstep supports EXISTS (SELECT ...) only as a WHERE condition of the join query', e);
    case 'subquery':
      return fail('joinstep does not support scalar subqueries', e, 'join the table instead');
    case 'like': {
      const arg = toTExpr(e.operand, scope);
      const pattern = toTExpr(e.pattern, scope);
      checkLike(arg, pattern, e);
      const like = call('LIKE', BOOLEAN(arg.type.nullable || pattern.type.nullable), [arg, pattern]);
      return e.negated ? call('NOT', like.type, [like]) : like;
    }
    case 'cast': {
      const arg = toTExpr(e.operand, scope);
      const target = resolveTypeAst(e.type);
      if (!target.ok) fail(target.message, e.type, target.hint);
      if (arg.type.kind !== 'NULL' && !isCastSupported(arg.type, target.type)) {
        fail(`Cast function cannot convert value of type ${calciteTypeName(arg.type)} to type ${calciteTypeName(target.type)}`, e,
          `Flink has no cast from ${flinkTypeName(arg.type)} to ${flinkTypeName(target.type)}; go through STRING or a numeric type if that is what you mean`);
      }
      const nullable = e.try || arg.type.nullable;
      return { k: 'cast', type: withNullable(target.type, nullable), arg, try: e.try };
    }
    case 'case':
      return caseExpr(e, scope);
    case 'call':
      return callToTExpr(e, (x) => toTExpr(x, scope));
  }
}

export function call(fn: string, type: SqlType, args: readonly TExpr[]): TExpr {
  return { k: 'call', fn, type, args };
}

export function requireBoolean(x: TExpr, op: string, span: Span): TExpr {
  if (x.type.kind !== 'BOOLEAN' && x.type.kind !== 'NULL') {
    fail(`Cannot apply '${op}' to arguments of type '<${calciteTypeName(x.type)}>'. Supported form(s): '<BOOLEAN>'`, span);
  }
  return x;
}

function cannotApply(op: string, l: TExpr, r: TExpr, forms: string, span: Span): never {
  const msg = `Cannot apply '${op}' to arguments of type '<${calciteTypeName(l.type)}> ${op} <${calciteTypeName(r.type)}>'. Supported form(s): ${forms}`;
  const hint = `Flink does not convert between ${flinkTypeName(l.type)} and ${flinkTypeName(r.type)} implicitly; CAST one side`;
  fail(msg, span, hint);
}

function checkComparable(op: string, l: TExpr, r: TExpr, span: Span): void {
  if (!comparable(l.type, r.type)) cannotApply(op, l, r, `'<COMPARABLE_TYPE> ${op} <COMPARABLE_TYPE>'`, span);
}

function binary(e: BinaryExpr, scope: Scope): TExpr {
  const l = toTExpr(e.left, scope);
  const r = toTExpr(e.right, scope);
  const nullable = l.type.nullable || r.type.nullable;
  switch (e.op) {
    case 'AND':
    case 'OR':
      if (![l, r].every((x) => x.type.kind === 'BOOLEAN' || x.type.kind === 'NULL')) {
        cannotApply(e.op, l, r, `'<BOOLEAN> ${e.op} <BOOLEAN>'`, e.opSpan);
      }
      return call(e.op, BOOLEAN(nullable), [l, r]);
    case '=':
    case '<>':
    case '<':
    case '<=':
    case '>':
    case '>=':
      checkComparable(e.op, l, r, e.opSpan);
      return call(e.op, BOOLEAN(nullable), [l, r]);
    case '||': {
      if (![l, r].every((x) => ['CHAR', 'VARCHAR', 'STRING', 'NULL'].includes(x.type.kind))) {
        cannotApply('||', l, r, "'<STRING> || <STRING>'", e.opSpan);
      }
      return call('||', concatType([l.type, r.type]), [l, r]);
    }
    default:
      return arithmetic(e.op, l, r, e);
  }
}

function arithmetic(op: '+' | '-' | '*' | '/' | '%', l: TExpr, r: TExpr, e: BinaryExpr): TExpr {
  const nullable = l.type.nullable || r.type.nullable;
  // datetime ± interval keeps the datetime type (TIMESTAMP(3) - INTERVAL '5' SECOND is TIMESTAMP(3))
  if ((op === '+' || op === '-') && (isTimestamp(l.type) || l.type.kind === 'DATE') && r.type.kind === 'INTERVAL') {
    return call(op, withNullable(l.type, nullable), [l, r]);
  }
  if (op === '+' && l.type.kind === 'INTERVAL' && (isTimestamp(r.type) || r.type.kind === 'DATE')) {
    return call(op, withNullable(r.type, nullable), [r, l]);
  }
  if ((op === '+' || op === '-') && l.type.kind === 'INTERVAL' && r.type.kind === 'INTERVAL') {
    return call(op, t('INTERVAL', nullable), [l, r]);
  }
  const type = arithmeticType(op, l.type, r.type);
  if (!type) cannotApply(op, l, r, `'<NUMERIC> ${op} <NUMERIC>'`, e.opSpan);
  return call(op, type, [l, r]);
}

function between(operand: Expr, low: Expr, high: Expr, negated: boolean, span: Span, scope: Scope): TExpr {
  const x = toTExpr(operand, scope);
  const lo = toTExpr(low, scope);
  const hi = toTExpr(high, scope);
  checkComparable('BETWEEN ASYMMETRIC', x, lo, span);
  checkComparable('BETWEEN ASYMMETRIC', x, hi, span);
  const nullable = x.type.nullable || lo.type.nullable || hi.type.nullable;
  // Calcite expands BETWEEN into two comparisons; the interval-join analysis relies on that
  if (negated) return call('OR', BOOLEAN(nullable), [call('<', BOOLEAN(nullable), [x, lo]), call('>', BOOLEAN(nullable), [x, hi])]);
  return call('AND', BOOLEAN(nullable), [call('>=', BOOLEAN(nullable), [x, lo]), call('<=', BOOLEAN(nullable), [x, hi])]);
}

function caseExpr(e: CaseExpr, scope: Scope): TExpr {
  const operand = e.operand ? toTExpr(e.operand, scope) : undefined;
  const whens = e.whens.map((w) => {
    const raw = toTExpr(w.when, scope);
    if (operand) checkComparable('=', operand, raw, w.when);
    const when = operand ? call('=', BOOLEAN(operand.type.nullable || raw.type.nullable), [operand, raw]) : requireBoolean(raw, 'CASE', w.when);
    return { when, then: toTExpr(w.then, scope) };
  });
  const elseExpr = e.else ? toTExpr(e.else, scope) : undefined;
  const branches = [...whens.map((w) => w.then.type), ...(elseExpr ? [elseExpr.type] : [])];
  const common = commonType(branches);
  if (!common) fail('Illegal mixing of types in CASE or COALESCE statement', e);
  const type = withNullable(common, common.nullable || !elseExpr);
  return elseExpr ? { k: 'case', type, whens, else: elseExpr } : { k: 'case', type, whens };
}
