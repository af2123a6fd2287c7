/**
 * Flink's type derivation, as LogicalTypeMerging and the SQL function definitions compute it:
 * DECIMAL precision/scale for + - * / %, the 38-digit cap with the "keep at least 6 fraction
 * digits" adjustment, integer promotion, DECIMAL vs DOUBLE, common types for COALESCE/CASE.
 * Runtime values are src/values' business; this file only says which type a result has.
 */
import type { SqlType, TypeKind } from '../values/types.js';

export const MAX_PRECISION = 38;
export const STRING_LENGTH = 2147483647;

export function t(kind: TypeKind, nullable = true, precision?: number, scale?: number): SqlType {
  const out: { kind: TypeKind; nullable: boolean; precision?: number; scale?: number } = { kind, nullable };
  if (precision !== undefined) out.precision = precision;
  if (scale !== undefined) out.scale = scale;
  return out;
}

export const decimal = (p: number, s: number, nullable = true): SqlType => t('DECIMAL', nullable, p, s);
export const withNullable = (type: SqlType, nullable: boolean): SqlType =>
  t(type.kind, nullable, type.precision, type.scale);

const INTEGER_KINDS: readonly TypeKind[] = ['TINYINT', 'SMALLINT', 'INT', 'BIGINT'];
/** The DECIMAL an integer type widens to when mixed with a DECIMAL (Flink's integer→decimal rule). */
const INTEGER_DIGITS: Partial<Record<TypeKind, number>> = { TINYINT: 3, SMALLINT: 5, INT: 10, BIGINT: 19 };

export const isInteger = (x: SqlType): boolean => INTEGER_KINDS.includes(x.kind);
export const isApprox = (x: SqlType): boolean => x.kind === 'FLOAT' || x.kind === 'DOUBLE';
export const isNumeric = (x: SqlType): boolean => isInteger(x) || isApprox(x) || x.kind === 'DECIMAL';
export const isCharacter = (x: SqlType): boolean => x.kind === 'CHAR' || x.kind === 'VARCHAR' || x.kind === 'STRING';
export const isTimestamp = (x: SqlType): boolean => x.kind === 'TIMESTAMP' || x.kind === 'TIMESTAMP_LTZ';

/** Flink's adjustPrecisionScale: above 38 digits the integer part wins, keeping min(s, 6) fraction digits. */
export function adjustPrecisionScale(p: number, s: number): { p: number; s: number } {
  if (p <= MAX_PRECISION) return { p, s };
  const intDigits = p - s;
  const minScale = Math.min(s, 6);
  return { p: MAX_PRECISION, s: Math.max(MAX_PRECISION - intDigits, minScale) };
}

/** An exact numeric type as (precision, scale); integers as DECIMAL(n, 0). */
function asDecimal(x: SqlType): { p: number; s: number } {
  if (x.kind === 'DECIMAL') return { p: x.precision ?? 10, s: x.scale ?? 0 };
  return { p: INTEGER_DIGITS[x.kind] ?? 19, s: 0 };
}

export type ArithOp = '+' | '-' | '*' | '/' | '%';

function decimalResult(op: ArithOp, a: { p: number; s: number }, b: { p: number; s: number }): { p: number; s: number } {
  switch (op) {
    case '+':
    case '-': {
      const s = Math.max(a.s, b.s);
      return adjustPrecisionScale(Math.max(a.p - a.s, b.p - b.s) + s + 1, s);
    }
    case '*':
      return adjustPrecisionScale(a.p + b.p + 1, a.s + b.s);
    case '/': {
      // LogicalTypeMerging.findDivisionDecimalType
      const s = Math.max(6, a.s + b.p + 1);
      return adjustPrecisionScale(a.p - a.s + b.s + s, s);
    }
    case '%': {
      const s = Math.max(a.s, b.s);
      return adjustPrecisionScale(Math.min(a.p - a.s, b.p - b.s) + s, s);
    }
  }
}

const INT_RANK: Partial<Record<TypeKind, number>> = { TINYINT: 1, SMALLINT: 2, INT: 3, BIGINT: 4 };

/** Result type of a numeric arithmetic operator, or undefined when the operands are not numeric. */
export function arithmeticType(op: ArithOp, a: SqlType, b: SqlType): SqlType | undefined {
  const nullable = a.nullable || b.nullable;
  if (a.kind === 'NULL' && isNumeric(b)) return withNullable(b, true);
  if (b.kind === 'NULL' && isNumeric(a)) return withNullable(a, true);
  if (!isNumeric(a) || !isNumeric(b)) return undefined;
  if (isApprox(a) || isApprox(b)) {
    const kind: TypeKind = a.kind === 'DOUBLE' || b.kind === 'DOUBLE' || !isApprox(a) || !isApprox(b) ? 'DOUBLE' : 'FLOAT';
    return t(kind, nullable);
  }
  if (isInteger(a) && isInteger(b)) {
    // integer arithmetic stays integer, in the wider of the two types (INT / INT is INT in Flink)
    const kind = (INT_RANK[a.kind] ?? 0) >= (INT_RANK[b.kind] ?? 0) ? a.kind : b.kind;
    return t(kind, nullable);
  }
  const r = decimalResult(op, asDecimal(a), asDecimal(b));
  return decimal(r.p, r.s, nullable);
}

/** ROUND(DECIMAL(p, s), r): LogicalTypeMerging.findRoundDecimalType. */
export function roundDecimalType(p: number, s: number, r: number, nullable: boolean): SqlType {
  if (r >= s) return decimal(p, s, nullable);
  if (r < 0) return decimal(Math.min(MAX_PRECISION, 1 + p - s), 0, nullable);
  return decimal(1 + p - s + r, r, nullable);
}

/**
 * Common type of several types (COALESCE, CASE, IN lists, set operations), or undefined when
 * they do not share one. NULL literals adopt the other type; the result is nullable when any is.
 */
export function commonType(types: readonly SqlType[]): SqlType | undefined {
  const nullable = types.some((x) => x.nullable);
  const real = types.filter((x) => x.kind !== 'NULL');
  if (real.length === 0) return t('NULL', true);
  const first = real[0] as SqlType;
  if (real.every(isNumeric)) return withNullable(commonNumeric(real), nullable);
  if (real.every(isCharacter)) return withNullable(commonCharacter(real), nullable);
  if (real.every(isTimestamp)) {
    const kind: TypeKind = real.some((x) => x.kind === 'TIMESTAMP_LTZ') ? 'TIMESTAMP_LTZ' : 'TIMESTAMP';
    return t(kind, nullable, Math.max(...real.map((x) => x.precision ?? 6)));
  }
  if (real.every((x) => x.kind === first.kind)) {
    const precision = first.precision === undefined ? undefined : Math.max(...real.map((x) => x.precision ?? 0));
    return t(first.kind, nullable, precision, first.scale);
  }
  return undefined;
}

function commonNumeric(types: readonly SqlType[]): SqlType {
  if (types.some((x) => x.kind === 'DOUBLE')) return t('DOUBLE');
  if (types.some((x) => x.kind === 'FLOAT')) {
    return types.every(isApprox) ? t('FLOAT') : t('DOUBLE');
  }
  if (types.every(isInteger)) {
    return types.reduce((acc, x) => ((INT_RANK[x.kind] ?? 0) > (INT_RANK[acc.kind] ?? 0) ? x : acc));
  }
  // exact numerics: keep the largest integer part and the largest scale, capped at 38 digits
  const decs = types.map(asDecimal);
  const s = Math.max(...decs.map((d) => d.s));
  const intDigits = Math.max(...decs.map((d) => d.p - d.s));
  const p = Math.min(MAX_PRECISION, intDigits + s);
  return decimal(p, Math.min(s, p));
}

function commonCharacter(types: readonly SqlType[]): SqlType {
  const len = (x: SqlType): number => (x.kind === 'STRING' ? STRING_LENGTH : (x.precision ?? 1));
  const maxLen = Math.max(...types.map(len));
  if (maxLen >= STRING_LENGTH) return t('STRING', true, STRING_LENGTH);
  // CHAR stays CHAR only when every operand is CHAR of one length. Flink's type system turns
  // "ragged" CHARs into VARCHAR (shouldConvertRaggedUnionTypesToVarying), so CASE ... THEN 'big'
  // ELSE 'small' is VARCHAR(5) and 'big' is not blank-padded (real Flink 2.0-2.3 plans show it).
  if (types.every((x) => x.kind === 'CHAR') && types.every((x) => len(x) === maxLen)) return t('CHAR', true, maxLen);
  return t('VARCHAR', true, maxLen);
}

/** Whether `=`, `<` and friends accept the two types (Calcite's COMPARABLE_TYPE families; no implicit coercion in Flink). */
export function comparable(a: SqlType, b: SqlType): boolean {
  if (a.kind === 'NULL' || b.kind === 'NULL') return true;
  if (isNumeric(a) && isNumeric(b)) return true;
  if (isCharacter(a) && isCharacter(b)) return true;
  if (isTimestamp(a) && isTimestamp(b)) return true;
  return a.kind === b.kind;
}

/** `||` / CONCAT: CHAR(a + b) when both are CHAR, else VARCHAR of the summed length, STRING when unbounded. */
export function concatType(types: readonly SqlType[]): SqlType {
  const nullable = types.some((x) => x.nullable);
  const len = (x: SqlType): number => (x.kind === 'STRING' ? STRING_LENGTH : (x.precision ?? STRING_LENGTH));
  const total = types.reduce((acc, x) => acc + len(x), 0);
  if (total >= STRING_LENGTH) return t('STRING', nullable, STRING_LENGTH);
  if (types.every((x) => x.kind === 'CHAR')) return t('CHAR', nullable, total);
  return t('VARCHAR', nullable, total);
}

export const BOOLEAN = (nullable: boolean): SqlType => t('BOOLEAN', nullable);
