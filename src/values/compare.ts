/**
 * Comparison of two non-null values by their SQL types: numbers across INT / DECIMAL exactly,
 * DECIMAL against FLOAT / DOUBLE through the double (DecimalDataUtils.compare(dec, double)),
 * strings by UTF-16 code units (Java String.compareTo), booleans false < true, times numerically.
 * A comparison involving NaN yields NaN so that every ordering test is false, as Java's are.
 */
import { compare as decCompare, fromCanonical } from './decimal.js';
import type { SqlType, Value } from './types.js';
import { isApproxKind, isNumericKind, toDec, toNum } from './value-kinds.js';

export type Cmp = (x: Value, y: Value) => number;

const ordered = (x: number | string, y: number | string): number => (x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN);

export function comparator(ta: SqlType, tb: SqlType): Cmp {
  const a = ta.kind;
  const b = tb.kind;
  if (isNumericKind(a) && isNumericKind(b)) {
    if (isApproxKind(a) || isApproxKind(b)) return (x, y) => ordered(toNum(ta, x), toNum(tb, y));
    if (a === 'DECIMAL' && b === 'DECIMAL') {
      return (x, y) => (x === y ? 0 : decCompare(fromCanonical(x as string), fromCanonical(y as string)));
    }
    if (a === 'DECIMAL' || b === 'DECIMAL') return (x, y) => decCompare(toDec(ta, x), toDec(tb, y));
    return ordered as Cmp;
  }
  if (a === 'BOOLEAN' || b === 'BOOLEAN') return (x, y) => Number(x) - Number(y);
  return (x, y) => (typeof x === typeof y ? ordered(x as number, y as number) : ordered(String(x), String(y)));
}

/** Equality of two non-null values (`=`), with the fast `===` path where representation is canonical. */
export function equality(ta: SqlType, tb: SqlType): (x: Value, y: Value) => boolean {
  const sameExact =
    ta.kind === tb.kind &&
    !isApproxKind(ta.kind) &&
    (ta.kind !== 'DECIMAL' || (ta.scale ?? 0) === (tb.scale ?? 0));
  if (sameExact) return (x, y) => x === y;
  const cmp = comparator(ta, tb);
  return (x, y) => cmp(x, y) === 0;
}
