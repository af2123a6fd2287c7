/** Type-kind predicates and numeric conversions shared by the evaluator's parts. */
import { fromCanonical, fromInteger, parseDec, type Dec } from './decimal.js';
import { javaDoubleToString } from './java-number.js';
import { SqlRuntimeError } from './sql-error.js';
import type { SqlType, TypeKind, Value } from './types.js';

const INTS: ReadonlySet<TypeKind> = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT']);
const CHARS: ReadonlySet<TypeKind> = new Set(['CHAR', 'VARCHAR', 'STRING']);

export const isIntKind = (k: TypeKind): boolean => INTS.has(k);
export const isApproxKind = (k: TypeKind): boolean => k === 'FLOAT' || k === 'DOUBLE';
export const isNumericKind = (k: TypeKind): boolean => INTS.has(k) || k === 'DECIMAL' || k === 'FLOAT' || k === 'DOUBLE';
export const isCharKind = (k: TypeKind): boolean => CHARS.has(k);
export const isTemporalKind = (k: TypeKind): boolean =>
  k === 'DATE' || k === 'TIME' || k === 'TIMESTAMP' || k === 'TIMESTAMP_LTZ' || k === 'INTERVAL';

/** A non-null numeric value of `type` as an exact decimal. */
export function toDec(type: SqlType, v: Value): Dec {
  if (type.kind === 'DECIMAL') return fromCanonical(v as string);
  if (typeof v === 'number') {
    if (Number.isInteger(v) && !isApproxKind(type.kind)) return fromInteger(v);
    // a double becomes a decimal through its Java text, as BigDecimal.valueOf(double) does
    const d = Number.isFinite(v) ? parseDec(javaDoubleToString(v)) : null;
    if (d) return d;
    throw new SqlRuntimeError(`cannot convert ${javaDoubleToString(v)} to DECIMAL`);
  }
  if (typeof v === 'boolean') return fromInteger(v ? 1 : 0);
  const d = parseDec(String(v));
  if (!d) throw new SqlRuntimeError(`cannot convert '${String(v)}' to DECIMAL`);
  return d;
}

/** A non-null numeric value as a JS number (DECIMAL through its text: the nearest double). */
export function toNum(type: SqlType, v: Value): number {
  if (typeof v === 'number') return v;
  if (type.kind === 'DECIMAL' || typeof v === 'string') return Number(v);
  return v ? 1 : 0;
}

/** Java's two's-complement wrap of an integer to the width of an integer type. */
export function wrapInt(kind: TypeKind, n: number): number {
  switch (kind) {
    case 'INT':
      return n | 0;
    case 'SMALLINT':
      return (n << 16) >> 16;
    case 'TINYINT':
      return (n << 24) >> 24;
    default:
      return Number.isSafeInteger(n) ? n : Number(BigInt.asIntN(64, BigInt(Math.trunc(n))));
  }
}

/** Wraps an exact bigint result to a Java long, then to the type's width. */
export function wrapBig(kind: TypeKind, n: bigint): number {
  const l = BigInt.asIntN(64, n);
  return kind === 'BIGINT' ? Number(l) : wrapInt(kind, Number(BigInt.asIntN(32, l)));
}
