/**
 * Numeric functions: ABS, ROUND, FLOOR, CEIL and the DOUBLE functions. ROUND rounds HALF_UP
 * through the exact decimal (for a DOUBLE through its Java text, as BigDecimal.valueOf does),
 * then converts to the node's type.
 */
import * as D from './decimal.js';
import type { Fn } from './eval-types.js';
import type { SqlType, Value } from './types.js';
import { isApproxKind, isIntKind, toDec, toNum, wrapInt } from './value-kinds.js';

type Un = (x: Value) => Value;

function unary(fa: Fn, f: Un): Fn {
  return (row, ctx) => {
    const x = fa(row, ctx);
    return x === null ? null : f(x);
  };
}

/** Dec (any scale, possibly negative) → a value of the node's type. */
function decToType(d: D.Dec, type: SqlType): Value {
  if (type.kind === 'DECIMAL') {
    const r = D.toType(d, type.precision ?? 38, type.scale ?? 0);
    return r === null ? null : D.formatPlain(r);
  }
  const plain = D.rescale(d, Math.max(d.s, 0));
  if (isIntKind(type.kind)) return wrapInt(type.kind, Number(D.truncate(plain, 0).u));
  const n = Number(D.formatPlain(plain));
  return type.kind === 'FLOAT' ? Math.fround(n) : n;
}

function roundDec(d: D.Dec, digits: number, mode: 'half-up' | 'floor' | 'ceil'): D.Dec {
  if (digits >= d.s) return d;
  if (mode === 'half-up') return D.rescale(d, digits);
  const t = D.truncate(d, digits);
  const exact = D.compare(t, d) === 0;
  if (exact) return t;
  if (mode === 'floor' && d.u < 0n) return { u: t.u - 1n, s: t.s };
  if (mode === 'ceil' && d.u > 0n) return { u: t.u + 1n, s: t.s };
  return t;
}

export function compileAbs(type: SqlType, fa: Fn): Fn {
  const k = type.kind;
  if (isIntKind(k)) return unary(fa, (x) => wrapInt(k, Math.abs(x as number)));
  if (k === 'DECIMAL') return unary(fa, (x) => ((x as string).startsWith('-') ? (x as string).slice(1) : x));
  return unary(fa, (x) => Math.abs(x as number));
}

/** ROUND(x [, digits]); `digits` comes as a compiled argument (an integer literal in practice). */
export function compileRound(type: SqlType, ta: SqlType, fa: Fn, fd?: Fn): Fn {
  return (row, ctx) => {
    const x = fa(row, ctx);
    if (x === null) return null;
    const dv = fd ? fd(row, ctx) : 0;
    if (dv === null) return null;
    const digits = Number(dv);
    if (isApproxKind(ta.kind) && !Number.isFinite(x as number)) return x;
    if (isIntKind(ta.kind) && digits >= 0) return x;
    return decToType(roundDec(toDec(ta, x), digits, 'half-up'), type);
  };
}

export function compileFloorCeil(mode: 'floor' | 'ceil', type: SqlType, ta: SqlType, fa: Fn): Fn {
  if (isIntKind(ta.kind)) return unary(fa, (x) => x);
  if (isApproxKind(ta.kind)) return unary(fa, mode === 'floor' ? (x) => Math.floor(x as number) : (x) => Math.ceil(x as number));
  return unary(fa, (x) => decToType(roundDec(toDec(ta, x), 0, mode), type));
}

const DOUBLE_FNS: Record<string, (...a: number[]) => number> = {
  POWER: (a, b) => Math.pow(a as number, b as number),
  SQRT: (a) => Math.sqrt(a as number),
  EXP: (a) => Math.exp(a as number),
  LN: (a) => Math.log(a as number),
  LOG10: (a) => Math.log10(a as number),
};

export function compileDoubleFn(name: string, types: readonly SqlType[], args: readonly Fn[]): Fn | undefined {
  const f = DOUBLE_FNS[name];
  if (!f) return undefined;
  return (row, ctx) => {
    const xs: number[] = [];
    for (let i = 0; i < args.length; i++) {
      const v = (args[i] as Fn)(row, ctx);
      if (v === null) return null;
      xs.push(toNum(types[i] as SqlType, v));
    }
    return f(...xs);
  };
}
