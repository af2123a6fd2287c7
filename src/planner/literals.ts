/**
 * SQL literals → typed plan literals, with the types Calcite gives them: `42` INT, `9000000000`
 * BIGINT, `1.10` DECIMAL(3, 2), `1E3` DOUBLE, `'abc'` CHAR(3), all NOT NULL; intervals in ms.
 */
import type { IntervalExpr, IntervalUnit, LiteralExpr, TypedLiteralExpr } from '../sql/ast.js';
import { fail } from './errors.js';
import type { TExpr } from './plan.js';
import { decimal, t } from './type-rules.js';

const INT_MAX = 2147483647;

export function literalToTExpr(e: LiteralExpr): TExpr {
  switch (e.type) {
    case 'null':
      return { k: 'lit', type: t('NULL', true), value: null };
    case 'boolean':
      return { k: 'lit', type: t('BOOLEAN', false), value: e.text.toUpperCase() === 'TRUE' };
    case 'string':
      return { k: 'lit', type: t('CHAR', false, Math.max(1, e.text.length)), value: e.text };
    case 'number':
      return numberLiteral(e);
  }
}

function numberLiteral(e: LiteralExpr): TExpr {
  const text = e.text;
  if (/[eE]/.test(text)) return { k: 'lit', type: t('DOUBLE', false), value: Number(text) };
  if (!text.includes('.')) {
    const n = Number(text);
    if (!Number.isSafeInteger(n)) fail(`Numeric literal '${text}' out of range`, e, 'joinstep keeps integers within ±2^53');
    return { k: 'lit', type: t(Math.abs(n) <= INT_MAX ? 'INT' : 'BIGINT', false), value: n };
  }
  // exact numeric: precision counts significant digits of the unscaled value, scale the fraction digits
  const [intPart = '', frac = ''] = text.split('.');
  const digits = (intPart + frac).replace(/^0+/, '');
  const scale = frac.length;
  const precision = Math.max(digits.length, scale, 1);
  if (precision > 38) fail(`Numeric literal '${text}' out of range`, e);
  const canonical = `${intPart === '' ? '0' : intPart}${scale > 0 ? '.' + frac : ''}`;
  return { k: 'lit', type: decimal(precision, scale, false), value: canonical };
}

const UNIT_MS: Record<IntervalUnit, number> = {
  MILLISECOND: 1,
  SECOND: 1000,
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: 86_400_000,
  MONTH: NaN,
  YEAR: NaN,
};

/** `INTERVAL '5' SECOND` → 5000 ms; `INTERVAL '1:30' MINUTE TO SECOND` → 90000 ms. */
export function intervalMs(e: IntervalExpr): number {
  if (e.unit === 'MONTH' || e.unit === 'YEAR') {
    fail(`joinstep does not support year-month intervals (INTERVAL '${e.value}' ${e.unit})`, e, 'use a day-time interval such as INTERVAL \'30\' DAY');
  }
  const raw = e.value.trim();
  const negative = raw.startsWith('-');
  const body = raw.replace(/^[+-]/, '');
  let ms: number;
  if (!e.toUnit) {
    const n = Number(body);
    if (!Number.isFinite(n)) fail(`Illegal interval literal format '${e.value}' for INTERVAL ${e.unit}`, e);
    ms = Math.round(n * UNIT_MS[e.unit]);
  } else {
    ms = compoundInterval(body, e);
  }
  return negative ? -ms : ms;
}

/** Day-time compound forms: 'd hh:mm:ss.fff' prefixes, read from the leading unit down. */
function compoundInterval(body: string, e: IntervalExpr): number {
  const parts = body.split(/[ :]/).map(Number);
  const order: IntervalUnit[] = ['DAY', 'HOUR', 'MINUTE', 'SECOND'];
  const start = order.indexOf(e.unit);
  if (start < 0 || parts.some((p) => !Number.isFinite(p))) {
    fail(`Illegal interval literal format '${e.value}' for INTERVAL ${e.unit} TO ${e.toUnit ?? ''}`, e);
  }
  let ms = 0;
  parts.forEach((p, i) => {
    const u = order[start + i];
    if (u) ms += Math.round(p * UNIT_MS[u]);
  });
  return ms;
}

export function intervalToTExpr(e: IntervalExpr): TExpr {
  return { k: 'lit', type: t('INTERVAL', false), value: intervalMs(e) };
}

const TS_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;
const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

/** TIMESTAMP / DATE / TIME literals; times are wall-clock, read as UTC (the runtime convention). */
export function typedLiteralToTExpr(e: TypedLiteralExpr): TExpr {
  const text = e.text.trim();
  if (e.typeName === 'TIME') {
    const m = TIME_RE.exec(text);
    if (!m) fail(`Illegal TIME literal '${e.text}'`, e);
    const ms = (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0)) * 1000 + fracMs(m[4]);
    return { k: 'lit', type: t('TIME', false, (m[4] ?? '').length), value: ms };
  }
  const m = TS_RE.exec(text);
  if (!m) fail(`Illegal ${e.typeName} literal '${e.text}'`, e);
  const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (e.typeName === 'DATE') return { k: 'lit', type: t('DATE', false), value: Math.round(day / 86_400_000) };
  const ms = day + (Number(m[4] ?? 0) * 3600 + Number(m[5] ?? 0) * 60 + Number(m[6] ?? 0)) * 1000 + fracMs(m[7]);
  return { k: 'lit', type: t(e.typeName, false, (m[7] ?? '').length), value: ms };
}

function fracMs(frac: string | undefined): number {
  if (!frac) return 0;
  return Math.floor(Number(frac.padEnd(3, '0').slice(0, 3)));
}
