/**
 * Time literals of the scenario format (spec §3) and the Java text forms of time values (spec §5).
 *
 * A TIMESTAMP value is the wall clock read as UTC; a TIMESTAMP_LTZ value is an instant, so its
 * wall-clock literal is read in `ctx.timeZone` (table.local-time-zone).
 */
import { WM_MAX, WM_MIN } from '../engine/types.js';
import { yamlNumberText } from './number-text.js';
import { printableResult } from './printable.js';
import { civilFromDays, civilToMs, daysFromCivil, MS_PER_DAY, resolveZone, wallToInstant } from './zone.js';

export { parseDuration } from './duration.js';
export type { DurationResult } from './duration.js';

/** What a literal needs to know: the scenario `date` (epoch ms of its 00:00 UTC) and the session time zone. */
export interface ValueContext {
  dateMs: number;
  timeZone: string;
}

export type TimeResult = { ok: true; ms: number } | { ok: false; message: string; hint?: string };

const TIME_HINT = 'expected HH:MM[:SS[.mmm]] or YYYY-MM-DD HH:MM[:SS[.mmm]] (or an integer of epoch milliseconds)';

const TIME_RE = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const DATE_RE = /^(-?\d{4,9})-(\d{1,2})-(\d{1,2})$/;
const OFFSET_RE = /(Z|[+-]\d{2}(?::?\d{2})?)$/;

const EPOCH_TOO_FAR = 'as epoch milliseconds it is far outside the years 0001 to 9999';

function fail(text: string | number, what: string, hint = TIME_HINT): TimeResult {
  const shown = typeof text === 'number' ? yamlNumberText(text) : text;
  return { ok: false, message: `"${shown}" is not a ${what}: ${hint}` };
}

/** Milliseconds of the day of `HH:MM[:SS[.fff]]`, or an error text. Fractions beyond ms are truncated. */
export function parseTimeOfDay(text: string): number | string {
  const m = TIME_RE.exec(text);
  if (!m) return 'expected HH:MM[:SS[.mmm]]';
  const h = Number(m[1]);
  const mi = Number(m[2]);
  const s = Number(m[3] ?? 0);
  if (h > 23) return `hour ${h} is out of range (00..23)`;
  if (mi > 59) return `minute ${mi} is out of range (00..59)`;
  if (s > 59) return `second ${s} is out of range (00..59)`;
  const ms = Number((m[4] ?? '').padEnd(3, '0').slice(0, 3));
  return ((h * 60 + mi) * 60 + s) * 1000 + ms;
}

/** Days since 1970-01-01 of `YYYY-MM-DD`, or an error text. */
export function parseDateText(text: string): number | string {
  const m = DATE_RE.exec(text);
  if (!m) return 'expected YYYY-MM-DD';
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12) return `month ${mo} is out of range (01..12)`;
  const days = daysFromCivil(y, mo, d);
  const [, mo2] = civilFromDays(days);
  if (d < 1 || mo2 !== mo) return `day ${d} does not exist in ${m[1]}-${m[2]}`;
  return days;
}

/**
 * A time literal (spec §3) → epoch ms. Time-only forms are on `ctx.dateMs`. With `ltz`, the wall
 * clock is read in `ctx.timeZone` (an explicit trailing `Z` / `+08:00` wins); without, it is kept as is.
 */
export function parseTimeLiteral(text: string | number, ctx: ValueContext, ltz = false): TimeResult {
  return printableResult(parseTimeLiteralRaw(text, ctx, ltz));
}

function parseTimeLiteralRaw(text: string | number, ctx: ValueContext, ltz: boolean): TimeResult {
  if (typeof text === 'number') {
    if (Number.isSafeInteger(text)) return { ok: true, ms: text };
    return fail(text, 'time', Number.isInteger(text) ? EPOCH_TOO_FAR : 'an epoch-millisecond time must be an integer');
  }
  let t = text.trim();
  // Digits past 2^53 are said as written: as a number they would be rounded (…775807 → …776000).
  if (/^-?\d+$/.test(t)) return Number.isSafeInteger(Number(t)) ? parseTimeLiteralRaw(Number(t), ctx, ltz) : fail(text, 'time', EPOCH_TOO_FAR);
  let explicitOffset: string | undefined;
  const om = /[T ]\d/.test(t) ? OFFSET_RE.exec(t) : null;
  if (om) {
    if (!ltz) return fail(text, 'TIMESTAMP', 'a TIMESTAMP has no time zone; drop the offset, or declare the column TIMESTAMP_LTZ');
    explicitOffset = om[1];
    t = t.slice(0, om.index).trimEnd();
  }
  let wall: number;
  const sep = t.search(/[ T]/);
  if (sep < 0 && t.includes('-') && !t.includes(':')) {
    const days = parseDateText(t);
    if (typeof days === 'string') return fail(text, 'time', TIME_HINT);
    wall = days * MS_PER_DAY;
  } else if (sep < 0) {
    const tod = parseTimeOfDay(t);
    if (typeof tod === 'string') return fail(text, 'time', tod === 'expected HH:MM[:SS[.mmm]]' ? TIME_HINT : tod);
    wall = ctx.dateMs + tod;
  } else {
    const days = parseDateText(t.slice(0, sep));
    const tod = parseTimeOfDay(t.slice(sep + 1).trim());
    if (typeof days === 'string') return fail(text, 'time', days === 'expected YYYY-MM-DD' ? TIME_HINT : days);
    if (typeof tod === 'string') return fail(text, 'time', tod === 'expected HH:MM[:SS[.mmm]]' ? TIME_HINT : tod);
    wall = days * MS_PER_DAY + tod;
  }
  if (!ltz) return { ok: true, ms: wall };
  const zone = resolveZone(explicitOffset ?? ctx.timeZone);
  if (!zone.ok) return { ok: false, message: zone.message, hint: zone.hint };
  return { ok: true, ms: wallToInstant(wall, zone.offsetAt) };
}

/**
 * '00'..'99' and '000'..'999', made once: `run --result` prints up to a million timestamps, and
 * each padded field made anew was a string for the collector (a fraction or a value out of the
 * table's range still takes the general way).
 */
const DIGITS2 = Array.from({ length: 100 }, (_, n) => (n < 10 ? '0' : '') + n);
const DIGITS3 = Array.from({ length: 1000 }, (_, n) => (n < 10 ? '00' : n < 100 ? '0' : '') + n);
const p2 = (n: number): string => DIGITS2[n] ?? (n < 10 ? '0' : '') + n;
const p3 = (n: number): string => DIGITS3[n] ?? (n < 10 ? '00' : n < 100 ? '0' : '') + n;

let lastDays = NaN;
let lastDate = '';

/** Java LocalDate.toString of days since 1970-01-01: `2026-10-01`, `+10000-01-01`, `-0001-01-01`. */
export function formatDate(days: number): string {
  // rows of a run cluster on a few days: remember the last one
  if (days === lastDays) return lastDate;
  const [y, m, d] = civilFromDays(days);
  const ys = y > 9999 ? '+' + y : y < 0 ? '-' + String(-y).padStart(4, '0') : String(y).padStart(4, '0');
  lastDays = days;
  lastDate = `${ys}-${p2(m)}-${p2(d)}`;
  return lastDate;
}

function splitMs(ms: number): [days: number, tod: number] {
  const days = Math.floor(ms / MS_PER_DAY);
  return [days, ms - days * MS_PER_DAY];
}

/** Java LocalTime.toString of ms of the day: `09:30`, `09:30:15`, `09:30:15.250`. */
export function formatTime(tod: number): string {
  const h = Math.floor(tod / 3_600_000);
  const mi = Math.floor(tod / 60_000) % 60;
  const s = Math.floor(tod / 1000) % 60;
  const ms = tod % 1000;
  let out = p2(h) + ':' + p2(mi);
  if (s > 0 || ms > 0) out += ':' + p2(s);
  if (ms > 0) out += '.' + p3(ms);
  return out;
}

/** Truncates epoch ms to a fractional-second precision (0..3); values of TIMESTAMP(p) are already truncated. */
export function truncateToPrecision(ms: number, precision = 3): number {
  if (precision >= 3) return ms;
  const unit = precision === 2 ? 10 : precision === 1 ? 100 : 1000;
  return Math.floor(ms / unit) * unit;
}

/** Java LocalDateTime.toString: `2026-10-01T09:30`, `2026-10-01T09:30:15`, `2026-10-01T09:30:15.250`. */
export function formatTimestamp(ms: number, precision = 3): string {
  // No [days, tod] pair: `run --result` formats a million of these.
  const t = truncateToPrecision(ms, precision);
  const days = Math.floor(t / MS_PER_DAY);
  return formatDate(days) + 'T' + formatTime(t - days * MS_PER_DAY);
}

/** Java Instant.toString (UTC, seconds always shown): `2026-10-01T09:30:00Z`, `1970-01-01T00:00:00.008Z`. */
export function formatInstant(ms: number): string {
  const [days, tod] = splitMs(ms);
  const h = Math.floor(tod / 3_600_000);
  const mi = Math.floor(tod / 60_000) % 60;
  const s = Math.floor(tod / 1000) % 60;
  const frac = tod % 1000;
  return `${formatDate(days)}T${p2(h)}:${p2(mi)}:${p2(s)}${frac > 0 ? '.' + p3(frac) : ''}Z`;
}

/** Short form for the UI: `09:30` / `09:30:15.250` on the scenario date, date and time otherwise, ±∞ for WM_MIN/WM_MAX. */
export function formatClock(ms: number, dateMs: number): string {
  if (ms <= WM_MIN) return '-∞';
  if (ms >= WM_MAX) return '+∞';
  const [days, tod] = splitMs(ms);
  if (days === Math.floor(dateMs / MS_PER_DAY)) return formatTime(tod);
  return `${formatDate(days)} ${formatTime(tod)}`;
}

/** `yyyy-MM-dd HH:mm:ss[.fff]` with the fraction as Flink's CAST(TIMESTAMP(p) AS STRING) pads it to p digits. */
export function formatSqlTimestamp(ms: number, precision: number): string {
  const [days, tod] = splitMs(ms);
  const h = Math.floor(tod / 3_600_000);
  const mi = Math.floor(tod / 60_000) % 60;
  const s = Math.floor(tod / 1000) % 60;
  let frac = p3(tod % 1000) + '000000';
  while (frac.length > precision && frac.endsWith('0')) frac = frac.slice(0, -1);
  return `${formatDate(days)} ${p2(h)}:${p2(mi)}:${p2(s)}${frac.length > 0 ? '.' + frac : ''}`;
}

/** Flink's CAST(TIME(p) AS STRING): `HH:mm:ss` and, for p > 0, the millis without trailing zeros (at least one digit). */
export function formatSqlTime(tod: number, precision: number): string {
  const h = Math.floor(tod / 3_600_000);
  const mi = Math.floor(tod / 60_000) % 60;
  const s = Math.floor(tod / 1000) % 60;
  let out = `${p2(h)}:${p2(mi)}:${p2(s)}`;
  if (precision > 0) {
    let frac = p3(tod % 1000).slice(0, Math.min(precision, 3));
    while (frac.length > 1 && frac.endsWith('0')) frac = frac.slice(0, -1);
    out += '.' + frac;
  }
  return out;
}

export { civilToMs, MS_PER_DAY };
