/**
 * A YAML scalar of a scenario row → a typed runtime value (spec §3), or a message and a hint.
 * The loader passes the scalar's own text so that `1.10` reaches a DECIMAL as 1.10, never as a
 * binary float, and `007` reaches a STRING as `007`. The NOT NULL check is the loader's.
 */
import { castText } from './decimal.js';
import { parseDuration } from './duration.js';
import { parseDateText, parseTimeLiteral, parseTimeOfDay, truncateToPrecision, type ValueContext } from './time.js';
import { printableResult } from './printable.js';
import { typeName } from './type-name.js';
import type { SqlType, TypeKind, Value } from './types.js';

export type { ValueContext };

/** `text`: the scalar's value text (for a plain scalar its source text, for a quoted one the string without quotes). */
export interface ScalarInput {
  text: string;
  yamlType: 'string' | 'number' | 'boolean' | 'null';
  quoted: boolean;
}

export type ValueResult = { ok: true; value: Value } | { ok: false; message: string; hint?: string };

const ok = (value: Value): ValueResult => ({ ok: true, value });
const bad = (message: string, hint?: string): ValueResult => (hint ? { ok: false, message, hint } : { ok: false, message });

const INT_RANGE: Partial<Record<TypeKind, [number, number]>> = {
  TINYINT: [-128, 127],
  SMALLINT: [-32768, 32767],
  INT: [-2147483648, 2147483647],
  BIGINT: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

const INT_RE = /^[+-]?\d+$/;
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function show(s: ScalarInput): string {
  return s.quoted || s.yamlType === 'string' ? JSON.stringify(s.text) : s.text;
}

function parseInteger(type: SqlType, s: ScalarInput): ValueResult {
  const name = typeName(type);
  const text = s.text.trim();
  if (!INT_RE.test(text)) {
    const looksTime = /^\d{1,2}:\d{2}|^\d{4}-\d{2}-\d{2}/.test(text);
    const hint = looksTime
      ? `this column is ${name}: give epoch milliseconds as an integer, or declare the column TIMESTAMP(3)`
      : `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name} column takes an integer`;
    return bad(`${show(s)} is not a valid ${name}`, hint);
  }
  const [min, max] = INT_RANGE[type.kind] ?? [0, 0];
  const n = Number(text);
  if (type.kind === 'BIGINT' && (n < min || n > max)) {
    return bad(
      `${text} is out of the range joinstep supports for BIGINT`,
      'joinstep keeps integers as JavaScript numbers, exact only within ±9007199254740991 (2^53-1); use DECIMAL(19, 0) or a smaller value',
    );
  }
  if (n < min || n > max) return bad(`${text} is out of range for ${name}`, `${name} holds ${min} .. ${max}`);
  return ok(n === 0 ? 0 : n); // no -0
}

function parseFloating(type: SqlType, s: ScalarInput): ValueResult {
  const t = s.text.trim();
  let n: number | undefined;
  if (FLOAT_RE.test(t)) n = Number(t);
  else if (/^[+]?(\.inf|infinity)$/i.test(t)) n = Infinity;
  else if (/^-(\.inf|infinity)$/i.test(t)) n = -Infinity;
  else if (/^(\.nan|nan)$/i.test(t)) n = NaN;
  if (n === undefined || s.yamlType === 'boolean') return bad(`${show(s)} is not a valid ${type.kind}`, 'write a number, e.g. 0.1 or 1.0E10');
  return ok(type.kind === 'FLOAT' ? Math.fround(n) : n);
}

function parseDecimal(type: SqlType, s: ScalarInput): ValueResult {
  const p = type.precision ?? 10;
  const sc = type.scale ?? 0;
  const r = s.yamlType === 'boolean' ? undefined : castText(s.text, p, sc);
  if (r === undefined) return bad(`${show(s)} is not a valid ${typeName(type)}`, 'write a decimal number, e.g. 12.34');
  // null: too many integer digits for the precision; Flink's cast yields NULL, so do we
  return ok(r);
}

function parseBoolean(s: ScalarInput): ValueResult {
  const t = s.text.trim().toLowerCase();
  if (t === 'true') return ok(true);
  if (t === 'false') return ok(false);
  return bad(`${show(s)} is not a valid BOOLEAN`, 'write true or false');
}

function parseTimestamp(type: SqlType, s: ScalarInput, ctx: ValueContext): ValueResult {
  const ltz = type.kind === 'TIMESTAMP_LTZ';
  const input = s.yamlType === 'number' && INT_RE.test(s.text.trim()) && Number.isSafeInteger(Number(s.text)) ? Number(s.text) : s.text;
  const r = parseTimeLiteral(input, ctx, ltz);
  if (!r.ok) return bad(r.message, r.hint ?? `the column is ${typeName(type)}`);
  return ok(truncateToPrecision(r.ms, type.precision ?? 3));
}

function parseDate(s: ScalarInput): ValueResult {
  const d = parseDateText(s.text.trim());
  if (typeof d === 'string') return bad(`${show(s)} is not a valid DATE: ${d}`, 'write YYYY-MM-DD, e.g. 2026-10-01');
  return ok(d);
}

function parseTime(type: SqlType, s: ScalarInput): ValueResult {
  const t = s.text.trim();
  if (INT_RE.test(t)) {
    const n = Number(t);
    if (n >= 0 && n < 86_400_000) return ok(n);
  }
  const r = parseTimeOfDay(t);
  if (typeof r === 'string') return bad(`${show(s)} is not a valid TIME: ${r}`, 'write HH:MM[:SS[.mmm]], e.g. 09:30:15');
  return ok(truncateToPrecision(r, type.precision ?? 0));
}

/**
 * parseValue's value of an unquoted number written as a plain integer (`-?[0-9]+`) in an
 * integer or a TIMESTAMP column, without the input and result objects (a data file gives
 * millions); undefined where parseValue must decide (any other type, a value out of range).
 */
export function plainIntegerValue(type: SqlType, text: string): Value | undefined {
  const n = Number(text);
  switch (type.kind) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT': {
      const [min, max] = INT_RANGE[type.kind]!;
      return n < min || n > max ? undefined : n === 0 ? 0 : n;
    }
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      // An epoch-ms integer is taken as it is in either (parseTimeLiteral).
      return Number.isSafeInteger(n) ? truncateToPrecision(n, type.precision ?? 3) : undefined;
    default:
      return undefined;
  }
}

export function parseValue(type: SqlType, scalar: ScalarInput, ctx: ValueContext): ValueResult {
  return printableResult(parseValueRaw(type, scalar, ctx));
}

function parseValueRaw(type: SqlType, scalar: ScalarInput, ctx: ValueContext): ValueResult {
  if (scalar.yamlType === 'null') return ok(null);
  switch (type.kind) {
    case 'STRING':
    case 'VARCHAR':
    case 'CHAR':
      return ok(scalar.text);
    case 'BOOLEAN':
      return parseBoolean(scalar);
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
      return parseInteger(type, scalar);
    case 'FLOAT':
    case 'DOUBLE':
      return parseFloating(type, scalar);
    case 'DECIMAL':
      return parseDecimal(type, scalar);
    case 'DATE':
      return parseDate(scalar);
    case 'TIME':
      return parseTime(type, scalar);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return parseTimestamp(type, scalar, ctx);
    case 'INTERVAL': {
      const d = parseDuration(scalar.yamlType === 'number' ? Number(scalar.text) : scalar.text);
      return d.ok ? ok(d.ms) : bad(d.message, d.hint);
    }
    case 'NULL':
      return bad(`${show(scalar)} is not NULL`, 'a NULL-typed value can only be null');
  }
}
