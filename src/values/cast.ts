/**
 * CAST between the supported types, following Flink 2.x's cast rules (non-legacy behaviour):
 * a cast that cannot convert its input fails the job (SqlRuntimeError), TRY_CAST yields NULL;
 * DECIMAL overflow is NULL (DecimalData.fromBigDecimal); DECIMAL/DOUBLE → integer truncates
 * toward zero and wraps (Java narrowing); BOOLEAN → string is `TRUE` / `FALSE`; a TIMESTAMP casts
 * to `yyyy-MM-dd HH:mm:ss[.fff]` with p fraction digits; TIMESTAMP_LTZ conversions use the session zone.
 */
import { toTemporalFn } from './cast-time.js';
import { failCast, unsupported, zoneOf, type CastFn } from './cast-util.js';
import { castText, formatPlain, fromCanonical, toType, truncate } from './decimal.js';
import { javaDoubleToString, javaFloatToString } from './java-number.js';
import { formatDate, formatSqlTime, formatSqlTimestamp, truncateToPrecision } from './time.js';
import type { SqlType, TypeKind } from './types.js';
import { SqlRuntimeError } from './sql-error.js';
import { isApproxKind, isCharKind, isIntKind, toDec, toNum, wrapBig, wrapInt } from './value-kinds.js';
import { instantToWall, MS_PER_DAY } from './zone.js';

export { zoneOf, type CastFn };

const MAX_LEN = 2147483647;

/** Java (long) / (int) of a double: toward zero, saturating, NaN → 0. */
function doubleToIntegral(kind: TypeKind, d: number): number {
  if (Number.isNaN(d)) return 0;
  const t = Math.trunc(d);
  if (kind === 'BIGINT') return Math.max(-9223372036854775808, Math.min(9223372036854775807, t));
  const i = Math.max(-2147483648, Math.min(2147483647, t));
  return wrapInt(kind, i);
}

function stringToIntegral(s: string, to: SqlType): number {
  const t = s.trim();
  const m = /^([+-]?\d+)(?:\.\d*)?$/.exec(t);
  if (!m) failCast(s, to);
  const n = BigInt(m[1] as string);
  const lim: Record<string, bigint> = { TINYINT: 127n, SMALLINT: 32767n, INT: 2147483647n, BIGINT: 9007199254740991n };
  const max = lim[to.kind] ?? 0n;
  if (n > max || n < -max - (to.kind === 'BIGINT' ? 0n : 1n)) failCast(s, to, 'out of range');
  return Number(n);
}

function stringToFloating(s: string, to: SqlType): number {
  const t = s.trim();
  let n: number;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/.test(t)) n = Number(t.replace(/[dDfF]$/, ''));
  else if (/^[+-]?Infinity$/.test(t)) n = t.startsWith('-') ? -Infinity : Infinity;
  else if (t === 'NaN') n = NaN;
  else failCast(s, to);
  return to.kind === 'FLOAT' ? Math.fround(n) : n;
}

function toStringFn(from: SqlType, to: SqlType): CastFn {
  const len = to.kind === 'STRING' ? MAX_LEN : (to.precision ?? MAX_LEN);
  const base = stringOf(from);
  if (len >= MAX_LEN) return base;
  const pad = to.kind === 'CHAR';
  return (v, ctx) => {
    const s = base(v, ctx) as string;
    if (s.length > len) return s.slice(0, len);
    return pad && s.length < len ? s.padEnd(len, ' ') : s;
  };
}

function stringOf(from: SqlType): CastFn {
  const p = from.precision ?? 3;
  switch (from.kind) {
    case 'BOOLEAN':
      return (v) => (v ? 'TRUE' : 'FALSE');
    case 'DOUBLE':
      return (v) => javaDoubleToString(v as number);
    case 'FLOAT':
      return (v) => javaFloatToString(v as number);
    case 'DATE':
      return (v) => formatDate(v as number);
    case 'TIME':
      return (v) => formatSqlTime(v as number, from.precision ?? 0);
    case 'TIMESTAMP':
      return (v) => formatSqlTimestamp(v as number, p);
    case 'TIMESTAMP_LTZ':
      return (v, ctx) => formatSqlTimestamp(instantToWall(v as number, zoneOf(ctx)), p);
    case 'INTERVAL':
      return (v) => formatIntervalDayTime(v as number);
    default:
      return (v) => String(v);
  }
}

/** Flink's day-time interval text: `+0 00:00:05.000`. */
export function formatIntervalDayTime(ms: number): string {
  const a = Math.abs(ms);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const d = Math.floor(a / MS_PER_DAY);
  const h = Math.floor(a / 3_600_000) % 24;
  const m = Math.floor(a / 60_000) % 60;
  const s = Math.floor(a / 1000) % 60;
  return `${ms < 0 ? '-' : '+'}${d} ${p2(h)}:${p2(m)}:${p2(s)}.${String(a % 1000).padStart(3, '0')}`;
}

function toIntegralFn(from: SqlType, to: SqlType): CastFn {
  const k = to.kind;
  if (isIntKind(from.kind)) return (v) => wrapInt(k, v as number);
  if (from.kind === 'DECIMAL') return (v) => wrapBig(k, truncate(fromCanonical(v as string), 0).u);
  if (isApproxKind(from.kind)) return (v) => doubleToIntegral(k, v as number);
  if (from.kind === 'BOOLEAN') return (v) => (v ? 1 : 0);
  if (isCharKind(from.kind)) return (v) => stringToIntegral(v as string, to);
  // TIMESTAMP_LTZ → epoch seconds (Java long division: toward zero)
  if (from.kind === 'TIMESTAMP_LTZ') return (v) => wrapInt(k, Math.trunc((v as number) / 1000));
  return unsupported(from, to);
}

function toDecimalFn(from: SqlType, to: SqlType): CastFn {
  const p = to.precision ?? 10;
  const s = to.scale ?? 0;
  if (isCharKind(from.kind)) {
    return (v) => {
      const r = castText((v as string).trim(), p, s);
      // Flink's string → decimal parser reports an overflow as a failure, not NULL
      if (r === undefined) failCast(v, to);
      if (r === null) failCast(v, to, 'overflow');
      return r;
    };
  }
  if (from.kind === 'DECIMAL' && from.scale === s && (from.precision ?? 38) <= p) return (v) => v;
  if (from.kind === 'BOOLEAN' || from.kind === 'DECIMAL' || isIntKind(from.kind) || isApproxKind(from.kind)) {
    return (v) => {
      if (typeof v === 'number' && !Number.isFinite(v)) failCast(javaDoubleToString(v), to);
      const r = toType(toDec(from, v), p, s);
      return r === null ? null : formatPlain(r);
    };
  }
  return unsupported(from, to);
}

function toFloatingFn(from: SqlType, to: SqlType): CastFn {
  const f = to.kind === 'FLOAT';
  if (isCharKind(from.kind)) return (v) => stringToFloating(v as string, to);
  if (from.kind === 'TIMESTAMP_LTZ') return (v) => (v as number) / 1000;
  if (from.kind === 'BOOLEAN' || from.kind === 'DECIMAL' || isIntKind(from.kind) || isApproxKind(from.kind)) {
    return f ? (v) => Math.fround(toNum(from, v)) : (v) => toNum(from, v);
  }
  return unsupported(from, to);
}

function toBooleanFn(from: SqlType, to: SqlType): CastFn {
  if (isCharKind(from.kind)) {
    return (v) => {
      const t = (v as string).trim().toLowerCase();
      if (t === 'true' || t === 't' || t === 'yes' || t === 'y' || t === '1') return true;
      if (t === 'false' || t === 'f' || t === 'no' || t === 'n' || t === '0') return false;
      return failCast(v, to);
    };
  }
  if (from.kind === 'DECIMAL') return (v) => fromCanonical(v as string).u !== 0n;
  if (isIntKind(from.kind) || isApproxKind(from.kind)) return (v) => v !== 0;
  return unsupported(from, to);
}

/** Builds the conversion of a non-null `from` value to `to` (throws SqlRuntimeError at build time if Flink has no such cast). */
export function castFn(from: SqlType, to: SqlType): CastFn {
  const k = to.kind;
  if (from.kind === 'NULL') return () => null;
  if (k === 'STRING' || k === 'VARCHAR' || k === 'CHAR') return toStringFn(from, to);
  if (isIntKind(k)) return toIntegralFn(from, to);
  if (k === 'DECIMAL') return toDecimalFn(from, to);
  if (k === 'FLOAT' || k === 'DOUBLE') return toFloatingFn(from, to);
  if (k === 'BOOLEAN') {
    if (from.kind === 'BOOLEAN') return (v) => v;
    return toBooleanFn(from, to);
  }
  if (k === from.kind && (k === 'TIMESTAMP' || k === 'TIMESTAMP_LTZ' || k === 'TIME')) {
    const p = to.precision ?? 3;
    return p >= (from.precision ?? 3) ? (v) => v : (v) => truncateToPrecision(v as number, p);
  }
  if (k === from.kind) return (v) => v;
  return toTemporalFn(from, to);
}

/**
 * Whether Flink has a cast from `from` to `to` at all: the planner can reject the others at plan
 * time, pointing at the CAST, as Flink's validator does. (Compiled anyway, such a cast throws
 * "Cast function cannot convert value of type ..." before any row, so it cannot point at one.)
 */
export function isCastSupported(from: SqlType, to: SqlType): boolean {
  try {
    castFn(from, to);
    return true;
  } catch (error) {
    if (error instanceof SqlRuntimeError) return false;
    throw error;
  }
}

/** Whether a value of `from` can be used as `to` without any conversion. */
export function sameRepresentation(from: SqlType, to: SqlType): boolean {
  if (from.kind === 'NULL') return true;
  if (from.kind === to.kind) {
    if (from.kind === 'DECIMAL') return from.scale === to.scale && (from.precision ?? 38) <= (to.precision ?? 38);
    if (from.kind === 'CHAR') return from.precision === to.precision;
    if (from.kind === 'VARCHAR') return (from.precision ?? MAX_LEN) <= (to.precision ?? MAX_LEN);
    if (from.kind === 'TIME' || from.kind === 'TIMESTAMP' || from.kind === 'TIMESTAMP_LTZ') return (from.precision ?? 3) <= (to.precision ?? 3);
    return true;
  }
  if (isCharKind(from.kind) && isCharKind(to.kind)) return to.kind !== 'CHAR' && (to.kind === 'STRING' || (from.precision ?? MAX_LEN) <= (to.precision ?? MAX_LEN));
  if (isIntKind(from.kind) && isIntKind(to.kind)) return INT_RANK.indexOf(from.kind) <= INT_RANK.indexOf(to.kind);
  return false;
}

const INT_RANK: readonly TypeKind[] = ['TINYINT', 'SMALLINT', 'INT', 'BIGINT'];
