/**
 * Boolean logic and predicates with SQL's three-valued semantics: AND / OR / NOT over
 * TRUE / FALSE / UNKNOWN (null), comparisons that are UNKNOWN when a side is NULL, IN that is
 * UNKNOWN when nothing matched but the list held a NULL, and LIKE as Calcite translates it.
 */
import { comparator, equality } from './compare.js';
import type { Fn } from './eval-types.js';
import { SqlRuntimeError } from './sql-error.js';
import type { SqlType, Value } from './types.js';

export function compileAnd(args: readonly Fn[]): Fn {
  if (args.length === 2) {
    const [fa, fb] = args as [Fn, Fn];
    return (row, ctx) => {
      const a = fa(row, ctx);
      if (a === false) return false;
      const b = fb(row, ctx);
      if (b === false) return false;
      return a === null || b === null ? null : true;
    };
  }
  return (row, ctx) => {
    let unknown = false;
    for (const f of args) {
      const v = f(row, ctx);
      if (v === false) return false;
      if (v === null) unknown = true;
    }
    return unknown ? null : true;
  };
}

export function compileOr(args: readonly Fn[]): Fn {
  if (args.length === 2) {
    const [fa, fb] = args as [Fn, Fn];
    return (row, ctx) => {
      const a = fa(row, ctx);
      if (a === true) return true;
      const b = fb(row, ctx);
      if (b === true) return true;
      return a === null || b === null ? null : false;
    };
  }
  return (row, ctx) => {
    let unknown = false;
    for (const f of args) {
      const v = f(row, ctx);
      if (v === true) return true;
      if (v === null) unknown = true;
    }
    return unknown ? null : false;
  };
}

export function compileNot(fa: Fn): Fn {
  return (row, ctx) => {
    const a = fa(row, ctx);
    return a === null ? null : !a;
  };
}

const TESTS: Record<string, (c: number) => boolean> = {
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
};

export function compileComparison(op: string, ta: SqlType, tb: SqlType, fa: Fn, fb: Fn): Fn {
  if (op === '=' || op === '<>') {
    const eq = equality(ta, tb);
    const want = op === '=';
    return (row, ctx) => {
      const x = fa(row, ctx);
      if (x === null) return null;
      const y = fb(row, ctx);
      if (y === null) return null;
      return eq(x, y) === want;
    };
  }
  const cmp = comparator(ta, tb);
  const test = TESTS[op] as (c: number) => boolean;
  return (row, ctx) => {
    const x = fa(row, ctx);
    if (x === null) return null;
    const y = fb(row, ctx);
    if (y === null) return null;
    return test(cmp(x, y));
  };
}

/** IS [NOT] DISTINCT FROM: NULL-safe equality, never UNKNOWN. */
export function compileDistinct(distinct: boolean, ta: SqlType, tb: SqlType, fa: Fn, fb: Fn): Fn {
  const eq = equality(ta, tb);
  return (row, ctx) => {
    const x = fa(row, ctx);
    const y = fb(row, ctx);
    const same = x === null || y === null ? x === y : eq(x, y);
    return same !== distinct;
  };
}

export function compileIn(types: readonly SqlType[], args: readonly Fn[]): Fn {
  const [t0, ...ts] = types as [SqlType, ...SqlType[]];
  const [f0, ...fs] = args as [Fn, ...Fn[]];
  const eqs = ts.map((t) => equality(t0, t));
  return (row, ctx) => {
    const x = f0(row, ctx);
    if (x === null) return null;
    let unknown = false;
    for (let i = 0; i < fs.length; i++) {
      const y = (fs[i] as Fn)(row, ctx);
      if (y === null) unknown = true;
      else if ((eqs[i] as (a: Value, b: Value) => boolean)(x, y)) return true;
    }
    return unknown ? null : false;
  };
}

const REGEX_SPECIALS = /[[\]()|^+*?{}$\\./]/;

/** Calcite's LIKE → regex: `%` any text (newlines included), `_` one character, optional escape. */
export function likeToRegExp(pattern: string, escape?: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (escape !== undefined && c === escape) {
      const next = pattern[i + 1];
      if (next === undefined || (next !== '_' && next !== '%' && next !== escape)) {
        throw new SqlRuntimeError(`Invalid escape sequence '${pattern}', ${i}`, 'the escape character must be followed by _, % or itself');
      }
      out += REGEX_SPECIALS.test(next) ? '\\' + next : next;
      i++;
    } else if (c === '%') out += '[\\s\\S]*';
    else if (c === '_') out += '.';
    else out += REGEX_SPECIALS.test(c) ? '\\' + c : c;
  }
  return new RegExp('^' + out + '$', 'u');
}

export function compileLike(args: readonly Fn[], patternLiteral?: string): Fn {
  const [fs, fp, fe] = args as [Fn, Fn, Fn | undefined];
  const cache = new Map<string, RegExp>();
  const fixed = patternLiteral !== undefined && !fe ? likeToRegExp(patternLiteral) : undefined;
  return (row, ctx) => {
    const s = fs(row, ctx);
    if (s === null) return null;
    if (fixed) return fixed.test(s as string);
    const p = fp(row, ctx);
    if (p === null) return null;
    const esc = fe ? fe(row, ctx) : undefined;
    if (esc === null) return null;
    const key = `${String(esc ?? '')}\u0000${String(p)}`;
    let re = cache.get(key);
    if (!re) {
      re = likeToRegExp(String(p), esc === undefined ? undefined : String(esc));
      if (cache.size > 1000) cache.clear();
      cache.set(key, re);
    }
    return re.test(s as string);
  };
}
