/**
 * Arithmetic with SQL null propagation, by the node's resolved result type (the planner derived
 * it): integers wrap at the result type's width as Java does, DECIMAL results are rounded HALF_UP
 * to the node's scale and NULL on precision overflow, FLOAT / DOUBLE follow IEEE, and a datetime
 * moves by an INTERVAL in milliseconds.
 */
import * as D from './decimal.js';
import { smallParts, smallToType } from './decimal-small.js';
import type { Fn } from './eval-types.js';
import { SqlRuntimeError } from './sql-error.js';
import type { SqlType, TypeKind, Value } from './types.js';
import { isApproxKind, isIntKind, toDec, toNum, wrapBig, wrapInt } from './value-kinds.js';
import { MS_PER_DAY } from './zone.js';

export type ArithOp = '+' | '-' | '*' | '/' | '%';
type Bin = (x: Value, y: Value) => Value;

function divByZero(): never {
  throw new SqlRuntimeError('Division by zero (java.lang.ArithmeticException: / by zero)', 'guard the divisor, e.g. NULLIF(divisor, 0)');
}

/** Lifts a binary operation on non-null values into a null-propagating compiled expression. */
export function lift(fa: Fn, fb: Fn, op: Bin): Fn {
  return (row, ctx) => {
    const x = fa(row, ctx);
    if (x === null) return null;
    const y = fb(row, ctx);
    if (y === null) return null;
    return op(x, y);
  };
}

const SMALL = 2 ** 31;

function integerOp(op: ArithOp, k: TypeKind): Bin {
  const big = k === 'BIGINT';
  switch (op) {
    case '+':
      return big ? (x, y) => wrapSum((x as number) + (y as number), x, y, op, k) : (x, y) => wrapInt(k, (x as number) + (y as number));
    case '-':
      return big ? (x, y) => wrapSum((x as number) - (y as number), x, y, op, k) : (x, y) => wrapInt(k, (x as number) - (y as number));
    case '*':
      if (k === 'INT') return (x, y) => Math.imul(x as number, y as number);
      return big ? (x, y) => wrapSum((x as number) * (y as number), x, y, op, k) : (x, y) => wrapInt(k, (x as number) * (y as number));
    case '/':
      return (x, y) => {
        const a = x as number;
        const b = y as number;
        if (b === 0) divByZero();
        if (Math.abs(a) < SMALL && Math.abs(b) < SMALL) return wrapInt(k, Math.trunc(a / b));
        return wrapBig(k, BigInt(a) / BigInt(b));
      };
    case '%':
      return (x, y) => {
        if (y === 0) divByZero();
        return (x as number) % (y as number) || 0; // Java's sign of the dividend; no -0
      };
  }
}

/** BIGINT result: exact while safe, otherwise redone in BigInt and wrapped to 64 bits. */
function wrapSum(r: number, x: Value, y: Value, op: ArithOp, k: TypeKind): number {
  if (Number.isSafeInteger(r)) return r;
  const a = BigInt(x as number);
  const b = BigInt(y as number);
  return wrapBig(k, op === '+' ? a + b : op === '-' ? a - b : a * b);
}

function decimalOp(op: ArithOp, type: SqlType, ta: SqlType, tb: SqlType): Bin {
  const p = type.precision ?? 38;
  const s = type.scale ?? 0;
  const f = { '+': D.add, '-': D.subtract, '*': D.multiply, '/': D.divide, '%': D.remainder }[op];
  const fast = op === '+' || op === '-' || op === '*' ? smallOp(op, ta, tb, p, s) : undefined;
  return (x, y) => {
    if (fast) {
      const r = fast(x, y);
      if (r !== undefined) return r;
    }
    let r: D.Dec;
    try {
      r = f(toDec(ta, x), toDec(tb, y));
    } catch (err) {
      if (err instanceof D.DecimalDivisionByZero) divByZero();
      throw err;
    }
    const out = D.toType(r, p, s);
    return out === null ? null : D.formatPlain(out);
  };
}

/** Exact Number arithmetic for short operands (the common case); undefined = use BigInt. */
function smallOp(op: '+' | '-' | '*', ta: SqlType, tb: SqlType, p: number, s: number): (x: Value, y: Value) => Value | undefined {
  const parts = (t: SqlType, v: Value): [number, number] | undefined =>
    t.kind === 'DECIMAL' ? smallParts(v as string) : typeof v === 'number' && Number.isSafeInteger(v) ? [v, 0] : undefined;
  return (x, y) => {
    const a = parts(ta, x);
    const b = parts(tb, y);
    if (!a || !b) return undefined;
    if (op === '*') return smallToType(a[0] * b[0], a[1] + b[1], p, s);
    let [ua, sa] = a;
    let [ub, sb] = b;
    if (sa < sb) {
      ua *= 10 ** (sb - sa);
      sa = sb;
    } else if (sb < sa) {
      ub *= 10 ** (sa - sb);
    }
    if (!Number.isSafeInteger(ua) || !Number.isSafeInteger(ub)) return undefined;
    return smallToType(op === '+' ? ua + ub : ua - ub, sa, p, s);
  };
}

function approxOp(op: ArithOp, float: boolean, ta: SqlType, tb: SqlType): Bin {
  const g = {
    '+': (a: number, b: number) => a + b,
    '-': (a: number, b: number) => a - b,
    '*': (a: number, b: number) => a * b,
    '/': (a: number, b: number) => a / b,
    '%': (a: number, b: number) => a % b,
  }[op];
  return float ? (x, y) => Math.fround(g(toNum(ta, x), toNum(tb, y))) : (x, y) => g(toNum(ta, x), toNum(tb, y));
}

function temporalOp(op: ArithOp, type: SqlType): Bin {
  const sign = op === '-' ? -1 : 1;
  switch (type.kind) {
    case 'DATE':
      return (x, y) => (x as number) + sign * Math.trunc((y as number) / MS_PER_DAY);
    case 'TIME':
      return (x, y) => {
        const r = ((x as number) + sign * (y as number)) % MS_PER_DAY;
        return r < 0 ? r + MS_PER_DAY : r;
      };
    default:
      if (op === '*') return (x, y) => Math.round((x as number) * (y as number));
      if (op === '/') return (x, y) => (y === 0 ? divByZero() : Math.trunc((x as number) / (y as number)));
      return (x, y) => (x as number) + sign * (y as number);
  }
}

/** `a op b` with the result type of the node. */
export function compileArith(op: ArithOp, type: SqlType, ta: SqlType, tb: SqlType, fa: Fn, fb: Fn): Fn {
  const k = type.kind;
  let bin: Bin;
  if (isIntKind(k)) bin = integerOp(op, k);
  else if (k === 'DECIMAL') bin = decimalOp(op, type, ta, tb);
  else if (isApproxKind(k)) bin = approxOp(op, k === 'FLOAT', ta, tb);
  else bin = temporalOp(op, type);
  if (isIntKind(k) && (!isIntKind(ta.kind) || !isIntKind(tb.kind))) {
    // defensive: a non-integer operand under an integer result (should not be planned) goes through numbers
    const inner = bin;
    bin = (x, y) => inner(Math.trunc(toNum(ta, x)), Math.trunc(toNum(tb, y)));
  }
  return lift(fa, fb, bin);
}

/** Unary minus. */
export function compileNeg(type: SqlType, fa: Fn): Fn {
  const k = type.kind;
  let f: (x: Value) => Value;
  if (isIntKind(k)) f = (x) => wrapInt(k, -(x as number) || 0);
  else if (k === 'DECIMAL') f = (x) => D.formatPlain(D.negate(D.fromCanonical(x as string)));
  else f = (x) => -(x as number);
  return (row, ctx) => {
    const x = fa(row, ctx);
    return x === null ? null : f(x);
  };
}
