/**
 * Printing values as Flink's print connector does (spec §5): Java's toString of each type's
 * external class, rows as Row.toString (`+I[o1, 2026-10-01T09:30, 110.000000]`). The print format
 * stays raw; text for a terminal goes through `printable` (printable.ts).
 */
import { formatJava, fromCanonical } from './decimal.js';
import { javaDoubleToString, javaFloatToString } from './java-number.js';
import { formatDate, formatInstant, formatTime, formatTimestamp, truncateToPrecision } from './time.js';
import type { Row, RowKind, SqlType, Value } from './types.js';

/** Java Duration.toString of ms (the external type of INTERVAL DAY TO SECOND): `PT5S`, `PT1H30M`, `PT0.25S`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return 'PT0S';
  const neg = ms < 0;
  const a = Math.abs(ms);
  const h = Math.floor(a / 3_600_000);
  const m = Math.floor(a / 60_000) % 60;
  const sMs = a % 60_000;
  const sg = neg ? '-' : '';
  let out = 'PT';
  if (h > 0) out += sg + h + 'H';
  if (m > 0) out += sg + m + 'M';
  if (sMs > 0) {
    const sec = Math.floor(sMs / 1000);
    const frac = sMs % 1000;
    out += sg + sec + (frac > 0 ? '.' + String(frac).padStart(3, '0').replace(/0+$/, '') : '') + 'S';
  }
  return out;
}

/**
 * BigDecimal.toString of a canonical DECIMAL: the canonical (plain) text itself unless the value
 * is below 10^-6 with more than 6 fraction digits, the only case where Java switches to 1.0E-7.
 */
function decimalText(text: string): string {
  const dot = text.indexOf('.');
  if (dot < 0 || text.length - dot - 1 <= 6) return text;
  const intPart = text.charCodeAt(0) === 45 ? text.slice(1, dot) : text.slice(0, dot);
  if (intPart !== '0') return text;
  return formatJava(fromCanonical(text));
}

export function formatValue(type: SqlType, v: Value): string {
  if (v === null) return 'null';
  switch (type.kind) {
    case 'DECIMAL':
      return decimalText(String(v));
    case 'DOUBLE':
      return javaDoubleToString(Number(v));
    case 'FLOAT':
      return javaFloatToString(Math.fround(Number(v)));
    case 'DATE':
      return formatDate(Number(v));
    case 'TIME':
      return formatTime(Number(v));
    case 'TIMESTAMP':
      return formatTimestamp(Number(v), type.precision ?? 3);
    case 'TIMESTAMP_LTZ':
      return formatInstant(Number(v));
    case 'INTERVAL':
      return formatDuration(Number(v));
    default:
      // strings raw, booleans and integers as JS prints them (same text as Java)
      return String(v);
  }
}

/**
 * The values joined with `, `. A join makes one flat string; `+=` made a rope of two nodes per
 * value, which a million result rows kept alive until their sort flattened them (about 250 MB).
 */
function values(row: Row, types: readonly SqlType[]): string {
  const parts = new Array<string>(row.length);
  for (let i = 0; i < row.length; i++) {
    const t = types[i];
    parts[i] = t ? formatValue(t, row[i] ?? null) : String(row[i] ?? null);
  }
  return parts.join(', ');
}

/** Row.toString with its kind: `+I[o1, 2026-10-01T09:30, 110.000000]`. */
export function formatRow(kind: RowKind, row: Row, types: readonly SqlType[]): string {
  return `${kind}[${values(row, types)}]`;
}

/** A row of the materialized result, without kind: `[o1, 110.000000]`. */
export function formatResultRow(row: Row, types: readonly SqlType[]): string {
  return `[${values(row, types)}]`;
}

/**
 * formatResultRow for many rows of one schema (`run --result` prints up to a million): each
 * column's formatter is picked once instead of formatValue's switch per value, a row of the
 * schema's width (2 to 8 columns) goes through a function made for that width
 * (fixedWidthFormatter; other rows through one loop and one reused parts array), and a
 * TIMESTAMP column remembers its last text, since a join's rows repeat the matched side's time
 * for many rows in a row. The text is formatResultRow's.
 */
export function resultRowFormatter(types: readonly SqlType[]): (row: Row) => string {
  const byColumn: ((v: Value) => string)[] = [];
  const parts: string[] = [];
  const general = (row: Row): string => {
    for (let i = byColumn.length; i < row.length; i++) byColumn.push(columnFormatter(types[i]));
    const n = row.length;
    if (n === 0) return '[]';
    parts.length = n;
    for (let i = 0; i < n; i++) parts[i] = byColumn[i]!(row[i] ?? null);
    // The brackets go into the parts, so that the join's string is the row's: one flat string.
    // `'[' + joined + ']'` made two rope nodes per row, and the sort's first compare of the row
    // a flat copy of it (values() explains the same for `+=`).
    parts[0] = '[' + parts[0]!;
    parts[n - 1] += ']';
    return parts.join(', ');
  };
  const fixed = fixedWidthFormatter(types.map(columnFormatter));
  if (fixed === undefined) return general;
  const width = types.length;
  return (row) => (row.length === width ? fixed(row) : general(row));
}

/**
 * A row of exactly `f.length` columns (2 to 8): each column's formatter called from a call site
 * of its own, which sees one function and can inline it (a loop over the formatters calls them
 * all from one site, which sees them all and inlines none), and the parts in an array literal,
 * the brackets in the first and last part as in the loop (891k rows: 199-239 → 152-175 ms of
 * CPU in a micro-run, docs/decisions.md).
 */
function fixedWidthFormatter(f: readonly ((v: Value) => string)[]): ((row: Row) => string) | undefined {
  const [f0, f1, f2, f3, f4, f5, f6, f7] = f as ((v: Value) => string)[];
  switch (f.length) {
    case 2:
      return (r) => ['[' + f0!(r[0] ?? null), f1!(r[1] ?? null) + ']'].join(', ');
    case 3:
      return (r) => ['[' + f0!(r[0] ?? null), f1!(r[1] ?? null), f2!(r[2] ?? null) + ']'].join(', ');
    case 4:
      return (r) => ['[' + f0!(r[0] ?? null), f1!(r[1] ?? null), f2!(r[2] ?? null), f3!(r[3] ?? null) + ']'].join(', ');
    case 5:
      return (r) => ['[' + f0!(r[0] ?? null), f1!(r[1] ?? null), f2!(r[2] ?? null), f3!(r[3] ?? null), f4!(r[4] ?? null) + ']'].join(', ');
    case 6:
      return (r) => ['[' + f0!(r[0] ?? null), f1!(r[1] ?? null), f2!(r[2] ?? null), f3!(r[3] ?? null), f4!(r[4] ?? null), f5!(r[5] ?? null) + ']'].join(', ');
    case 7:
      return (r) => ['[' + f0!(r[0] ?? null), f1!(r[1] ?? null), f2!(r[2] ?? null), f3!(r[3] ?? null), f4!(r[4] ?? null), f5!(r[5] ?? null), f6!(r[6] ?? null) + ']'].join(', ');
    case 8:
      return (r) => ['[' + f0!(r[0] ?? null), f1!(r[1] ?? null), f2!(r[2] ?? null), f3!(r[3] ?? null), f4!(r[4] ?? null), f5!(r[5] ?? null), f6!(r[6] ?? null), f7!(r[7] ?? null) + ']'].join(', ');
    default:
      return undefined;
  }
}

/** formatValue(type, v) as a function of v, or String(v) where values() has no type. */
function columnFormatter(type: SqlType | undefined): (v: Value) => string {
  if (type === undefined) return String;
  switch (type.kind) {
    case 'TIMESTAMP':
      return timestampFormatter(type.precision ?? 3);
    case 'DECIMAL':
    case 'DOUBLE':
    case 'FLOAT':
    case 'DATE':
    case 'TIME':
    case 'TIMESTAMP_LTZ':
    case 'INTERVAL':
      return (v) => formatValue(type, v);
    default:
      return (v) => (typeof v === 'string' ? v : String(v));
  }
}

/**
 * `:SS` / `:SS.mmm` of each millisecond of a minute (index 0 is unused: a whole minute prints
 * no seconds), made when first used: the tail of a timestamp after its `HH:MM`.
 */
const SECONDS_OF_MINUTE: (string | undefined)[] = new Array<string | undefined>(60_000);

function secondsText(msOfMinute: number): string {
  let text = SECONDS_OF_MINUTE[msOfMinute];
  if (text === undefined) {
    const s = Math.floor(msOfMinute / 1000);
    const ms = msOfMinute - s * 1000;
    text = SECONDS_OF_MINUTE[msOfMinute] = ':' + (s < 10 ? '0' : '') + s + (ms > 0 ? '.' + (ms < 10 ? '00' : ms < 100 ? '0' : '') + ms : '');
  }
  return text;
}

/**
 * formatTimestamp(v, precision) for a column: the text of the last minute (`2026-10-01T09:30`)
 * is kept and the seconds come from a table, instead of a date conversion and five padded fields
 * per value (`run --result` prints up to two million timestamps). The last value's whole text is
 * kept too: a join repeats the matched side's time over many rows in a row.
 */
function timestampFormatter(precision: number): (v: Value) => string {
  let lastMs = NaN;
  let lastText = '';
  let minute = NaN;
  let minuteText = '';
  return (v) => {
    if (v === null) return 'null';
    const ms = Number(v);
    if (ms === lastMs) return lastText;
    const t = truncateToPrecision(ms, precision);
    // Not an integer of ms (no TIMESTAMP value is): the general way, no table index.
    if (!Number.isSafeInteger(t)) return formatTimestamp(ms, precision);
    const m = Math.floor(t / 60_000);
    if (m !== minute) {
      const days = Math.floor(m / 1440);
      const mOfDay = m - days * 1440;
      minuteText = formatDate(days) + 'T' + formatTime(mOfDay * 60_000);
      minute = m;
    }
    const rest = t - m * 60_000;
    lastMs = ms;
    lastText = rest === 0 ? minuteText : minuteText + secondsText(rest);
    return lastText;
  };
}
