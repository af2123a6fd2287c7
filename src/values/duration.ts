/**
 * Durations as the scenario format writes them (`250 ms`, `5 s`, `30 min`, `2 h`, `1 d`, `5s`,
 * `30min`, `second(s)`, `minute(s)`, ...) and as Flink's TimeUtils.parseDuration reads config
 * values (`1 h`, `30 min`, `10s`, `100 millis`): an integer then an optional unit, unit case-insensitive.
 */

import { yamlNumberText } from './number-text.js';
import { printableResult } from './printable.js';

export type DurationResult = { ok: true; ms: number } | { ok: false; message: string; hint?: string };

/** Every unit name a duration may end with (lower case; read case-insensitively). */
export const UNITS: Record<string, number> = {};
function unit(ms: number, ...names: string[]): void {
  for (const n of names) UNITS[n] = ms;
}
unit(1, 'ms', 'milli', 'millis', 'millisecond', 'milliseconds', 'msec', 'msecs');
unit(1000, 's', 'sec', 'secs', 'second', 'seconds');
unit(60_000, 'min', 'mins', 'minute', 'minutes');
unit(3_600_000, 'h', 'hour', 'hours');
unit(86_400_000, 'd', 'day', 'days');
// Flink also reads micro- and nanoseconds; joinstep keeps milliseconds, so only whole ones pass
unit(1e-3, 'µs', 'micro', 'micros', 'microsecond', 'microseconds');
unit(1e-6, 'ns', 'nano', 'nanos', 'nanosecond', 'nanoseconds');

const HINT = 'write an integer and a unit: 250 ms, 5 s, 30 min, 2 h, 1 d (a bare integer is milliseconds)';
const RE = /^\s*(-?\d+(?:\.\d+)?)\s*([A-Za-zµ]*)\s*$/;

export function parseDuration(text: string | number): DurationResult {
  return printableResult(parseDurationRaw(text));
}

function parseDurationRaw(text: string | number): DurationResult {
  if (typeof text === 'number') {
    if (Number.isSafeInteger(text) && text >= 0) return { ok: true, ms: text };
    return { ok: false, message: `${yamlNumberText(text)} is not a duration: a bare number must be a non-negative integer (ms)`, hint: HINT };
  }
  const m = RE.exec(text);
  if (!m) return { ok: false, message: `"${text}" is not a duration`, hint: HINT };
  const num = m[1] ?? '';
  const u = (m[2] ?? '').toLowerCase();
  if (num.startsWith('-')) return { ok: false, message: `"${text}" is not a duration: it is negative`, hint: HINT };
  if (num.includes('.')) {
    return { ok: false, message: `"${text}" is not a duration: the amount must be an integer`, hint: 'use a smaller unit, e.g. 1500 ms instead of 1.5 s' };
  }
  const factor = u === '' ? 1 : UNITS[u];
  if (factor === undefined) {
    const hint = u === 'm' ? '"m" is ambiguous: write min (minutes) or ms (milliseconds)' : `unknown unit "${m[2]}"; ${HINT}`;
    return { ok: false, message: `"${text}" is not a duration`, hint };
  }
  const ms = factor < 1 ? Number(num) / Math.round(1 / factor) : Number(num) * factor;
  if (factor < 1 && !Number.isInteger(ms)) {
    return { ok: false, message: `"${text}" is not a whole number of milliseconds`, hint: 'joinstep steps time in milliseconds' };
  }
  if (!Number.isSafeInteger(ms)) return { ok: false, message: `"${text}" is too long a duration`, hint: HINT };
  return { ok: true, ms };
}
