/**
 * Time zones as Java's ZoneId understands the ids joinstep accepts in `table.local-time-zone`:
 * `UTC` / `Z` / `GMT`, fixed offsets (`+08:00`, `-0530`, `GMT+8`, `UTC+08:00`) and IANA region
 * ids (`Europe/Berlin`) through Intl, so daylight-saving transitions are those of the host's tz data.
 */

import { printableResult } from './printable.js';

/** Offset of the zone from UTC, in ms, at an instant. */
export type OffsetFn = (instantMs: number) => number;

export type ZoneResult = { ok: true; offsetAt: OffsetFn; fixed: boolean } | { ok: false; message: string; hint?: string };

const UTC_NAMES = new Set(['UTC', 'Z', 'GMT', 'UT', 'ETC/UTC', 'ETC/GMT', 'ZULU', 'UCT']);
const FIXED_RE = /^(?:UTC|GMT|UT)?([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/i;

const cache = new Map<string, ZoneResult>();

/** Resolves a zone id once (cached); the result's offsetAt is cheap to call repeatedly. */
export function resolveZone(id: string): ZoneResult {
  let r = cache.get(id);
  if (!r) {
    r = printableResult(resolveUncached(id.trim()));
    cache.set(id, r);
  }
  return r;
}

function fixedOffset(ms: number): ZoneResult {
  return { ok: true, offsetAt: () => ms, fixed: true };
}

function resolveUncached(id: string): ZoneResult {
  if (UTC_NAMES.has(id.toUpperCase())) return fixedOffset(0);
  const m = FIXED_RE.exec(id);
  if (m) {
    const h = Number(m[2]);
    const min = Number(m[3] ?? 0);
    const sec = Number(m[4] ?? 0);
    if (h > 18 || min > 59 || sec > 59) {
      return { ok: false, message: `"${id}" is not a valid time-zone offset`, hint: 'offsets range from -18:00 to +18:00' };
    }
    const ms = ((h * 60 + min) * 60 + sec) * 1000;
    return fixedOffset(m[1] === '-' ? -ms : ms);
  }
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: id,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
  } catch {
    return {
      ok: false,
      message: `unknown time zone "${id}"`,
      hint: 'use UTC, a fixed offset such as +08:00 or GMT+8, or a region id such as Europe/Berlin',
    };
  }
  return { ok: true, offsetAt: (t) => intlOffset(fmt, t), fixed: false };
}

function intlOffset(fmt: Intl.DateTimeFormat, instantMs: number): number {
  const secMs = Math.floor(instantMs / 1000) * 1000;
  const f: Record<string, number> = {};
  let bc = false;
  for (const p of fmt.formatToParts(new Date(secMs))) {
    if (p.type === 'era') bc = p.value.startsWith('B');
    else if (p.type !== 'literal') f[p.type] = Number(p.value);
  }
  const year = bc ? 1 - (f.year ?? 0) : (f.year ?? 1970);
  const wall = civilToMs(year, f.month ?? 1, f.day ?? 1, f.hour ?? 0, f.minute ?? 0, f.second ?? 0);
  return wall - secMs;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (any year, no 1900 quirk of Date.UTC). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** [year, month, day] of days since 1970-01-01. */
export function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

export const MS_PER_DAY = 86_400_000;

export function civilToMs(y: number, mo: number, d: number, h: number, mi: number, s: number, ms = 0): number {
  return daysFromCivil(y, mo, d) * MS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1000 + ms;
}

/**
 * The instant of a wall-clock time (ms, read as UTC) in a zone, as Java's ZonedDateTime.ofLocal:
 * in an overlap the earlier offset wins, in a gap the time moves later by the gap's length.
 */
export function wallToInstant(wallMs: number, offsetAt: OffsetFn): number {
  const before = offsetAt(wallMs - MS_PER_DAY);
  const after = offsetAt(wallMs + MS_PER_DAY);
  if (offsetAt(wallMs - before) === before) return wallMs - before;
  if (offsetAt(wallMs - after) === after) return wallMs - after;
  // gap (or a zone whose offset changed twice within a day): shift by the earlier offset
  return wallMs - before;
}

/** The wall-clock time (ms, read as UTC) of an instant in a zone. */
export function instantToWall(instantMs: number, offsetAt: OffsetFn): number {
  return instantMs + offsetAt(instantMs);
}
