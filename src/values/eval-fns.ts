/**
 * String and time functions. Each builder gets the call node and its compiled arguments and
 * returns a compiled closure; SQL NULL in → NULL out unless the function says otherwise.
 */
import { WM_MIN } from '../engine/types.js';
import { zoneOf } from './cast.js';
import { formatPattern } from './date-format.js';
import { checkArgumentTypes } from './eval-arg-check.js';
import * as D from './decimal.js';
import type { EvalContext, Fn } from './eval-types.js';
import type { TExpr } from '../planner/plan.js';
import { SqlRuntimeError } from './sql-error.js';
import { parseTimeLiteral } from './time.js';
import type { SqlType, Value } from './types.js';
import { isApproxKind, isCharKind, toNum } from './value-kinds.js';
import { civilFromDays, daysFromCivil, instantToWall, MS_PER_DAY, wallToInstant } from './zone.js';

type Call = Extract<TExpr, { k: 'call' }>;
type Builder = (e: Call, args: readonly Fn[]) => Fn;

const MIN_EPOCH_MS = -62167219200000;
const MAX_EPOCH_MS = 253402300799999;
const DEFAULT_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** All arguments non-null → f(values); any null → null. */
function strict(args: readonly Fn[], f: (xs: Value[], ctx: EvalContext) => Value): Fn {
  return (row, ctx) => {
    const xs: Value[] = [];
    for (const a of args) {
      const v = a(row, ctx);
      if (v === null) return null;
      xs.push(v);
    }
    return f(xs, ctx);
  };
}

function strict1(a: Fn | undefined, f: (x: Value, ctx: EvalContext) => Value): Fn {
  const fa = a ?? (() => null);
  return (row, ctx) => {
    const x = fa(row, ctx);
    return x === null ? null : f(x, ctx);
  };
}

/** Code points, as Flink's BinaryStringData counts characters. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0 || (s.charCodeAt(i - 1) & 0xfc00) !== 0xd800) n++;
  }
  return n;
}

/**
 * Flink's SUBSTRING (BinaryStringDataUtil.substringSQL): 1-based, a negative start counts from the
 * end, by code points. A start before the first character gives '' (it is not clamped to 1), and
 * a negative length gives NULL.
 */
function substring(s: string, pos: number, len?: number): string | null {
  if (len !== undefined && len < 0) return null;
  const cps = Array.from(s);
  const n = cps.length;
  const start = pos > 0 ? pos - 1 : pos < 0 ? n + pos : 0;
  if (start < 0 || start >= n) return '';
  const end = len === undefined || n - start < len ? n : start + len;
  return cps.slice(start, end).join('');
}

function toTimestampLtz(e: Call, args: readonly Fn[]): Fn {
  const t0 = (e.args[0] as TExpr).type;
  const pFn = args[1];
  const inRange = (ms: number): Value => (ms >= MIN_EPOCH_MS && ms <= MAX_EPOCH_MS ? ms : null);
  if (isCharKind(t0.kind)) {
    return strict1(args[0], (x, ctx) => {
      const r = parseTimeLiteral((x as string).trim(), { dateMs: 0, timeZone: ctx.timeZone }, true);
      return r.ok ? r.ms : null;
    });
  }
  return (row, ctx) => {
    const x = (args[0] as Fn)(row, ctx);
    if (x === null) return null;
    const p = pFn ? pFn(row, ctx) : 3;
    if (p === null) return null;
    const secs = Number(p) === 0;
    if (t0.kind === 'DECIMAL') {
      const whole = Number(D.truncate(D.fromCanonical(x as string), 0).u);
      return inRange(secs ? whole * 1000 : whole);
    }
    const n = toNum(t0, x);
    if (isApproxKind(t0.kind)) return inRange(Math.trunc(secs ? n * 1000 : n));
    return inRange(secs ? n * 1000 : n);
  };
}

function parseWallText(s: string): number | null {
  const r = parseTimeLiteral(s.trim(), { dateMs: 0, timeZone: 'UTC' }, false);
  return r.ok && /^\s*\d{4}-/.test(s) ? r.ms : null;
}

/** The wall-clock ms of a TIMESTAMP / TIMESTAMP_LTZ / string argument. */
function wallOf(t: SqlType, v: Value, ctx: EvalContext): number | null {
  if (t.kind === 'TIMESTAMP_LTZ') return instantToWall(v as number, zoneOf(ctx));
  if (t.kind === 'DATE') return (v as number) * MS_PER_DAY;
  if (isCharKind(t.kind)) return parseWallText(v as string);
  return v as number;
}

function dateFormat(e: Call, args: readonly Fn[]): Fn {
  const t0 = (e.args[0] as TExpr).type;
  return strict(args, ([v, fmt], ctx) => {
    const wall = wallOf(t0, v as Value, ctx);
    return wall === null ? null : formatPattern(wall, String(fmt ?? DEFAULT_FORMAT));
  });
}

function fromUnixtime(e: Call, args: readonly Fn[]): Fn {
  const t0 = (e.args[0] as TExpr).type;
  return strict(args, ([v, fmt], ctx) => {
    const ms = Math.trunc(toNum(t0, v as Value)) * 1000;
    return formatPattern(instantToWall(ms, zoneOf(ctx)), String(fmt ?? DEFAULT_FORMAT));
  });
}

function unixTimestamp(_e: Call, args: readonly Fn[]): Fn {
  if (args.length === 0) return (_row, ctx) => Math.floor(ctx.procTime / 1000);
  return strict(args.slice(0, 1), ([v], ctx) => {
    const wall = parseWallText(v as string);
    return wall === null ? null : Math.floor(wallToInstant(wall, zoneOf(ctx)) / 1000);
  });
}

const UNIT_MS: Record<string, number> = { MILLISECOND: 1, SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: MS_PER_DAY, WEEK: 7 * MS_PER_DAY };
const MONTHS: Record<string, number> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

function unitOf(x: TExpr | undefined): string {
  if (x && x.k === 'lit' && typeof x.value === 'string') return x.value.toUpperCase().replace(/^SQL_TSI_/, '');
  throw new SqlRuntimeError('the time unit of TIMESTAMPADD / TIMESTAMPDIFF must be a literal such as MINUTE');
}

function addMonths(wall: number, n: number): number {
  const days = Math.floor(wall / MS_PER_DAY);
  const [y, m, d] = civilFromDays(days);
  const total = y * 12 + (m - 1) + n;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  const last = daysFromCivil(nm === 12 ? ny + 1 : ny, nm === 12 ? 1 : nm + 1, 1) - daysFromCivil(ny, nm, 1);
  return daysFromCivil(ny, nm, Math.min(d, last)) * MS_PER_DAY + (wall - days * MS_PER_DAY);
}

function timestampAdd(e: Call, args: readonly Fn[]): Fn {
  const unit = unitOf(e.args[0]);
  const months = MONTHS[unit];
  const ms = UNIT_MS[unit];
  return strict([args[1] as Fn, args[2] as Fn], ([n, t]) => {
    const k = Math.trunc(Number(n));
    if (months !== undefined) return addMonths(t as number, k * months);
    return (t as number) + k * (ms ?? 0);
  });
}

function timestampDiff(e: Call, args: readonly Fn[]): Fn {
  const unit = unitOf(e.args[0]);
  const months = MONTHS[unit];
  const ms = UNIT_MS[unit] ?? 1;
  return strict([args[1] as Fn, args[2] as Fn], ([a, b]) => {
    const x = a as number;
    const y = b as number;
    if (months === undefined) return Math.trunc((y - x) / ms);
    const [ya, ma] = civilFromDays(Math.floor(x / MS_PER_DAY));
    const [yb, mb] = civilFromDays(Math.floor(y / MS_PER_DAY));
    let diff = (yb - ya) * 12 + (mb - ma);
    // a partial month does not count: compare the remainder of each within its month
    if (diff > 0 && addMonths(x, diff) > y) diff--;
    else if (diff < 0 && addMonths(x, diff) < y) diff++;
    return Math.trunc(diff / months);
  });
}

const BUILDERS: Record<string, Builder> = {
  UPPER: (_e, a) => strict1(a[0], (x) => (x as string).toUpperCase()),
  LOWER: (_e, a) => strict1(a[0], (x) => (x as string).toLowerCase()),
  TRIM: (_e, a) => strict1(a[0], (x) => (x as string).replace(/^ +| +$/g, '')),
  LTRIM: (_e, a) => strict1(a[0], (x) => (x as string).replace(/^ +/, '')),
  RTRIM: (_e, a) => strict1(a[0], (x) => (x as string).replace(/ +$/, '')),
  CHAR_LENGTH: (_e, a) => strict1(a[0], (x) => codePoints(x as string)),
  CONCAT: (_e, a) => strict(a, (xs) => xs.join('')),
  '||': (_e, a) => strict(a, (xs) => xs.join('')),
  SUBSTRING: (_e, a) => strict(a, ([s, p, l]) => substring(s as string, Number(p), l === undefined ? undefined : Number(l))),
  TO_TIMESTAMP_LTZ: toTimestampLtz,
  TO_TIMESTAMP: (_e, a) => strict(a.slice(0, 1), ([s]) => parseWallText(s as string)),
  PROCTIME: () => (_row, ctx) => ctx.procTime,
  NOW: () => (_row, ctx) => ctx.procTime,
  CURRENT_TIMESTAMP: () => (_row, ctx) => ctx.procTime,
  CURRENT_ROW_TIMESTAMP: () => (_row, ctx) => ctx.procTime,
  LOCALTIMESTAMP: () => (_row, ctx) => instantToWall(ctx.procTime, zoneOf(ctx)),
  CURRENT_DATE: () => (_row, ctx) => Math.floor(instantToWall(ctx.procTime, zoneOf(ctx)) / MS_PER_DAY),
  CURRENT_WATERMARK: () => (_row, ctx) => (ctx.watermark === undefined || ctx.watermark <= WM_MIN ? null : ctx.watermark),
  DATE_FORMAT: dateFormat,
  FROM_UNIXTIME: fromUnixtime,
  UNIX_TIMESTAMP: unixTimestamp,
  TIMESTAMPADD: timestampAdd,
  TIMESTAMPDIFF: timestampDiff,
};

export function buildFunction(e: Call, args: readonly Fn[]): Fn | undefined {
  const b = BUILDERS[e.fn];
  if (b === undefined) return undefined;
  checkArgumentTypes(e);
  return b(e, args);
}
