/**
 * Compiles a typed plan expression (TExpr) into a closure once; the closure runs per row on the
 * engine's hot path. Types were resolved by the planner: every node carries its result type, and
 * the evaluator follows it (DECIMAL results rescaled to the node's scale, integer results wrapped
 * at the node's width, branches of CASE / COALESCE converted to the node's type).
 */
import type { TExpr } from '../planner/plan.js';
import { castFn, sameRepresentation } from './cast.js';
import { compileArith, compileNeg, type ArithOp } from './eval-arith.js';
import { buildFunction } from './eval-fns.js';
import { compileAnd, compileComparison, compileDistinct, compileIn, compileLike, compileNot, compileOr } from './eval-logic.js';
import { compileAbs, compileDoubleFn, compileFloorCeil, compileRound } from './eval-math.js';
import type { EvalContext, Fn } from './eval-types.js';
import { equality } from './compare.js';
import { SqlRuntimeError } from './sql-error.js';
import type { Row, SqlType, Value } from './types.js';

export { SqlRuntimeError };
export type { EvalContext, Fn };

type Call = Extract<TExpr, { k: 'call' }>;

export function compileExpr(e: TExpr): (row: Row, ctx: EvalContext) => Value {
  switch (e.k) {
    case 'col': {
      const i = e.index;
      return (row) => row[i] ?? null;
    }
    case 'lit': {
      const v = e.value;
      return () => v;
    }
    case 'cast':
      return compileCast(e.arg, e.type, e.try);
    case 'case':
      return compileCase(e);
    case 'call':
      return compileCall(e);
  }
}

/** Converts a compiled value of type `from` to `to` where the representation differs (implicit widening). */
function coerce(f: Fn, from: SqlType, to: SqlType): Fn {
  if (sameRepresentation(from, to)) return f;
  let conv: ReturnType<typeof castFn>;
  try {
    conv = castFn(from, to);
  } catch {
    return f;
  }
  return (row, ctx) => {
    const v = f(row, ctx);
    return v === null ? null : conv(v, ctx);
  };
}

function compileCast(arg: TExpr, to: SqlType, tryCast: boolean): Fn {
  const fa = compileExpr(arg);
  if (sameRepresentation(arg.type, to) && arg.type.kind === to.kind) return fa;
  const conv = castFn(arg.type, to);
  if (!tryCast) {
    return (row, ctx) => {
      const v = fa(row, ctx);
      return v === null ? null : conv(v, ctx);
    };
  }
  return (row, ctx) => {
    const v = fa(row, ctx);
    if (v === null) return null;
    try {
      return conv(v, ctx);
    } catch (err) {
      if (err instanceof SqlRuntimeError) return null;
      throw err;
    }
  };
}

function compileCase(e: Extract<TExpr, { k: 'case' }>): Fn {
  const whens = e.whens.map((w) => ({ when: compileExpr(w.when), then: coerce(compileExpr(w.then), w.then.type, e.type) }));
  const otherwise = e.else ? coerce(compileExpr(e.else), e.else.type, e.type) : undefined;
  return (row, ctx) => {
    for (const w of whens) if (w.when(row, ctx) === true) return w.then(row, ctx);
    return otherwise ? otherwise(row, ctx) : null;
  };
}

function compileCoalesce(e: Call): Fn {
  const fs = e.args.map((a) => coerce(compileExpr(a), a.type, e.type));
  return (row, ctx) => {
    for (const f of fs) {
      const v = f(row, ctx);
      if (v !== null) return v;
    }
    return null;
  };
}

function compileNullIf(e: Call, a: TExpr, b: TExpr): Fn {
  const fa = compileExpr(a);
  const fb = compileExpr(b);
  const eq = equality(a.type, b.type);
  const out = coerce((row, ctx) => fa(row, ctx), a.type, e.type);
  return (row, ctx) => {
    const x = fa(row, ctx);
    if (x === null) return null;
    const y = fb(row, ctx);
    return y !== null && eq(x, y) ? null : out(row, ctx);
  };
}

const ARITH = new Set(['+', '-', '*', '/', '%', 'MOD']);
const COMPARE = new Set(['=', '<>', '<', '<=', '>', '>=']);

function compileCall(e: Call): Fn {
  const fn = e.fn;
  const a0 = e.args[0];
  const a1 = e.args[1];
  if (fn === 'COALESCE' || fn === 'IFNULL') return compileCoalesce(e);
  if (fn === 'NULLIF' && a0 && a1) return compileNullIf(e, a0, a1);
  const args = e.args.map(compileExpr);
  const [f0, f1] = args as [Fn, Fn];
  if (ARITH.has(fn) && a0 && a1) return compileArith((fn === 'MOD' ? '%' : fn) as ArithOp, e.type, a0.type, a1.type, f0, f1);
  if ((fn === 'NEG' || fn === '-') && a0) return compileNeg(e.type, f0);
  if (fn === '+' && a0) return coerce(f0, a0.type, e.type);
  if (COMPARE.has(fn) && a0 && a1) return compileComparison(fn, a0.type, a1.type, f0, f1);
  switch (fn) {
    case 'AND':
      return compileAnd(args);
    case 'OR':
      return compileOr(args);
    case 'NOT':
      return compileNot(f0);
    case 'IS NULL':
      return (row, ctx) => f0(row, ctx) === null;
    case 'IS NOT NULL':
      return (row, ctx) => f0(row, ctx) !== null;
    case 'IS TRUE':
      return (row, ctx) => f0(row, ctx) === true;
    case 'IS NOT TRUE':
      return (row, ctx) => f0(row, ctx) !== true;
    case 'IS FALSE':
      return (row, ctx) => f0(row, ctx) === false;
    case 'IS NOT FALSE':
      return (row, ctx) => f0(row, ctx) !== false;
    case 'IS DISTINCT FROM':
    case 'IS NOT DISTINCT FROM':
      return compileDistinct(fn === 'IS DISTINCT FROM', (a0 as TExpr).type, (a1 as TExpr).type, f0, f1);
    case 'IN':
      return compileIn(e.args.map((a) => a.type), args);
    case 'NOT IN':
      return compileNot(compileIn(e.args.map((a) => a.type), args));
    case 'LIKE':
    case 'NOT LIKE': {
      const lit = a1 && a1.k === 'lit' && typeof a1.value === 'string' ? a1.value : undefined;
      const like = compileLike(args, lit);
      return fn === 'LIKE' ? like : compileNot(like);
    }
    case 'BETWEEN':
    case 'NOT BETWEEN':
      return compileBetween(e, args, fn === 'NOT BETWEEN');
    case 'ABS':
      return compileAbs(e.type, f0);
    case 'ROUND':
      return compileRound(e.type, (a0 as TExpr).type, f0, args[1]);
    case 'FLOOR':
    case 'CEIL':
    case 'CEILING':
      return compileFloorCeil(fn === 'FLOOR' ? 'floor' : 'ceil', e.type, (a0 as TExpr).type, f0);
  }
  const built = compileDoubleFn(fn, e.args.map((a) => a.type), args) ?? buildFunction(e, args);
  if (!built) throw new SqlRuntimeError(`joinstep cannot evaluate the function ${fn}`);
  return built;
}

function compileBetween(e: Call, args: readonly Fn[], negated: boolean): Fn {
  const [t0, t1, t2] = e.args.map((a) => a.type) as [SqlType, SqlType, SqlType];
  const [f0, f1, f2] = args as [Fn, Fn, Fn];
  const ge = compileComparison('>=', t0, t1, f0, f1);
  const le = compileComparison('<=', t0, t2, f0, f2);
  const both = compileAnd([ge, le]);
  return negated ? compileNot(both) : both;
}
