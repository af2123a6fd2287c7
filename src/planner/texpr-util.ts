/** Small structural helpers over typed plan expressions. */
import type { TExpr } from './plan.js';
import { BOOLEAN } from './type-rules.js';

/** Replaces every column reference `i` by `proj[i]` (inlining a projection below an expression). */
export function substitute(e: TExpr, proj: readonly TExpr[]): TExpr {
  switch (e.k) {
    case 'col':
      return proj[e.index] ?? e;
    case 'lit':
      return e;
    case 'call':
      return { ...e, args: e.args.map((a) => substitute(a, proj)) };
    case 'cast':
      return { ...e, arg: substitute(e.arg, proj) };
    case 'case': {
      const whens = e.whens.map((w) => ({ when: substitute(w.when, proj), then: substitute(w.then, proj) }));
      return e.else ? { ...e, whens, else: substitute(e.else, proj) } : { ...e, whens };
    }
  }
}

/** Shifts every column index by `delta` (moving an expression onto a wider or narrower row). */
export function shift(e: TExpr, delta: number): TExpr {
  return mapCols(e, (i) => i + delta);
}

export function mapCols(e: TExpr, f: (index: number) => number): TExpr {
  switch (e.k) {
    case 'col':
      return { ...e, index: f(e.index) };
    case 'lit':
      return e;
    case 'call':
      return { ...e, args: e.args.map((a) => mapCols(a, f)) };
    case 'cast':
      return { ...e, arg: mapCols(e.arg, f) };
    case 'case': {
      const whens = e.whens.map((w) => ({ when: mapCols(w.when, f), then: mapCols(w.then, f) }));
      return e.else ? { ...e, whens, else: mapCols(e.else, f) } : { ...e, whens };
    }
  }
}

/** Every column index an expression reads. */
export function columnsOf(e: TExpr, out: Set<number> = new Set()): Set<number> {
  switch (e.k) {
    case 'col':
      out.add(e.index);
      break;
    case 'lit':
      break;
    case 'call':
      e.args.forEach((a) => columnsOf(a, out));
      break;
    case 'cast':
      columnsOf(e.arg, out);
      break;
    case 'case':
      e.whens.forEach((w) => {
        columnsOf(w.when, out);
        columnsOf(w.then, out);
      });
      if (e.else) columnsOf(e.else, out);
  }
  return out;
}

/** AND of conjuncts (undefined for none). */
export function andAll(conjuncts: readonly TExpr[]): TExpr | undefined {
  if (conjuncts.length === 0) return undefined;
  return conjuncts.reduce((acc, c) => ({ k: 'call', fn: 'AND', type: BOOLEAN(acc.type.nullable || c.type.nullable), args: [acc, c] }));
}

/** Splits nested ANDs into a flat list. */
export function conjunctsOf(e: TExpr): TExpr[] {
  if (e.k === 'call' && e.fn === 'AND') return e.args.flatMap(conjunctsOf);
  return [e];
}
