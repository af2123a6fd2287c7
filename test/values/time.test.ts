import { describe, expect, it } from 'vitest';
import { WM_MAX, WM_MIN } from '../../src/engine/types.js';
import {
  formatClock, formatDate, formatInstant, formatSqlTime, formatSqlTimestamp, formatTime, formatTimestamp,
  parseDuration, parseTimeLiteral, type ValueContext,
} from '../../src/values/time.js';

const DATE = Date.UTC(2026, 9, 1); // 2026-10-01
const utc: ValueContext = { dateMs: DATE, timeZone: 'UTC' };
const at = (h: number, m: number, s = 0, ms = 0): number => Date.UTC(2026, 9, 1, h, m, s, ms);

function ms(text: string | number, ctx: ValueContext = utc, ltz = false): number {
  const r = parseTimeLiteral(text, ctx, ltz);
  if (!r.ok) throw new Error(r.message);
  return r.ms;
}

describe('parseTimeLiteral: every form of spec §3', () => {
  it('reads time-only forms on the scenario date', () => {
    expect(ms('09:30')).toBe(at(9, 30));
    expect(ms('09:30:15')).toBe(at(9, 30, 15));
    expect(ms('09:30:15.250')).toBe(at(9, 30, 15, 250));
    expect(ms('09:30:15.25')).toBe(at(9, 30, 15, 250));
    expect(ms('9:05')).toBe(at(9, 5));
  });
  it('reads full forms and integers', () => {
    expect(ms('2026-10-01 09:30')).toBe(at(9, 30));
    expect(ms('2026-10-01 09:30:15.250')).toBe(at(9, 30, 15, 250));
    expect(ms('2026-10-01T09:30:15.250')).toBe(at(9, 30, 15, 250));
    expect(ms('2026-10-02')).toBe(Date.UTC(2026, 9, 2));
    expect(ms(8)).toBe(8);
    expect(ms(-1000)).toBe(-1000);
    expect(ms('1700000000000')).toBe(1700000000000);
  });
  it('keeps a TIMESTAMP wall clock as UTC whatever the zone', () => {
    expect(ms('09:30', { dateMs: DATE, timeZone: 'Asia/Shanghai' }, false)).toBe(at(9, 30));
  });
  it('reads a TIMESTAMP_LTZ wall clock in the session zone', () => {
    expect(ms('09:30', utc, true)).toBe(at(9, 30));
    expect(ms('09:30', { dateMs: DATE, timeZone: 'Z' }, true)).toBe(at(9, 30));
    expect(ms('09:30', { dateMs: DATE, timeZone: '+08:00' }, true)).toBe(at(1, 30));
    expect(ms('09:30', { dateMs: DATE, timeZone: 'GMT+8' }, true)).toBe(at(1, 30));
    expect(ms('09:30', { dateMs: DATE, timeZone: 'UTC-05:30' }, true)).toBe(at(15, 0));
    expect(ms('09:30', { dateMs: DATE, timeZone: 'Europe/Berlin' }, true)).toBe(at(7, 30)); // CEST
    expect(ms('2026-12-01 09:30', { dateMs: DATE, timeZone: 'Europe/Berlin' }, true)).toBe(Date.UTC(2026, 11, 1, 8, 30)); // CET
    expect(ms(1234, { dateMs: DATE, timeZone: 'Europe/Berlin' }, true)).toBe(1234);
  });
  it('handles DST gaps and overlaps as java.time does', () => {
    const berlin = { dateMs: DATE, timeZone: 'Europe/Berlin' };
    // 2026-03-29 02:30 does not exist: moved later by the gap, i.e. 03:30 CEST = 01:30Z
    expect(ms('2026-03-29 02:30', berlin, true)).toBe(Date.UTC(2026, 2, 29, 1, 30));
    // 2026-10-25 02:30 happens twice: the earlier offset (CEST, +2) wins
    expect(ms('2026-10-25 02:30', berlin, true)).toBe(Date.UTC(2026, 9, 25, 0, 30));
  });
  it('lets an explicit offset win for TIMESTAMP_LTZ but refuses it for TIMESTAMP', () => {
    expect(ms('2026-10-01T09:30:00Z', { dateMs: DATE, timeZone: 'Europe/Berlin' }, true)).toBe(at(9, 30));
    expect(ms('2026-10-01 09:30+02:00', utc, true)).toBe(at(7, 30));
    expect(parseTimeLiteral('2026-10-01T09:30Z', utc, false).ok).toBe(false);
  });
  it('explains what is wrong', () => {
    const r = parseTimeLiteral('9:3o', utc);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('"9:3o" is not a time: expected HH:MM[:SS[.mmm]] or YYYY-MM-DD HH:MM[:SS[.mmm]] (or an integer of epoch milliseconds)');
    const bad = (t: string): string => {
      const x = parseTimeLiteral(t, utc);
      return x.ok ? 'ok' : x.message;
    };
    expect(bad('25:00')).toContain('hour 25 is out of range');
    expect(bad('09:60')).toContain('minute 60');
    expect(bad('2026-02-30 09:00')).toContain('day 30 does not exist');
    expect(bad('2026-13-01 09:00')).toContain('month 13');
    expect(bad('tomorrow')).toContain('is not a time');
    expect(parseTimeLiteral(1.5, utc).ok).toBe(false);
    const zone = parseTimeLiteral('09:30', { dateMs: DATE, timeZone: 'Mars/Olympus' }, true);
    expect(zone.ok).toBe(false);
    if (!zone.ok) expect(zone.message).toContain('unknown time zone');
  });
});

describe('parseDuration', () => {
  const d = (x: string | number): number => {
    const r = parseDuration(x);
    if (!r.ok) throw new Error(r.message);
    return r.ms;
  };
  it('reads the spec forms and Flink config forms', () => {
    expect(d('250 ms')).toBe(250);
    expect(d('5 s')).toBe(5000);
    expect(d('30 min')).toBe(1_800_000);
    expect(d('2 h')).toBe(7_200_000);
    expect(d('1 d')).toBe(86_400_000);
    expect(d('5s')).toBe(5000);
    expect(d('30min')).toBe(1_800_000);
    expect(d('1 second')).toBe(1000);
    expect(d('2 seconds')).toBe(2000);
    expect(d('1 minute')).toBe(60_000);
    expect(d('3 minutes')).toBe(180_000);
    expect(d('1 hour')).toBe(3_600_000);
    expect(d('2 hours')).toBe(7_200_000);
    expect(d('1 day')).toBe(86_400_000);
    expect(d('2 days')).toBe(172_800_000);
    expect(d('1 millisecond')).toBe(1);
    expect(d('7 milliseconds')).toBe(7);
    expect(d('100 millis')).toBe(100);
    expect(d('10 SEC')).toBe(10_000);
    expect(d('1500')).toBe(1500);
    expect(d('2000 µs')).toBe(2);
    expect(d('3000000 ns')).toBe(3);
    expect(d(0)).toBe(0);
    expect(d(1500)).toBe(1500);
  });
  it('rejects the rest with a hint', () => {
    for (const x of ['5 m', '1.5 h', '1500 micros', '-5 s', 'five s', '5 fortnights', '', -3, 1.5]) {
      const r = parseDuration(x);
      expect(r.ok, String(x)).toBe(false);
    }
    const m = parseDuration('5 m');
    expect(!m.ok && m.hint).toContain('ambiguous');
  });
});

describe('Java text forms', () => {
  it('LocalDateTime.toString drops zero seconds', () => {
    expect(formatTimestamp(at(9, 30))).toBe('2026-10-01T09:30');
    expect(formatTimestamp(at(9, 30, 15))).toBe('2026-10-01T09:30:15');
    expect(formatTimestamp(at(9, 30, 15, 250))).toBe('2026-10-01T09:30:15.250');
    expect(formatTimestamp(at(9, 30, 0, 5))).toBe('2026-10-01T09:30:00.005');
    expect(formatTimestamp(-1)).toBe('1969-12-31T23:59:59.999');
    expect(formatTimestamp(at(9, 30, 15, 250), 0)).toBe('2026-10-01T09:30:15');
  });
  it('Instant.toString always shows seconds', () => {
    expect(formatInstant(at(9, 30))).toBe('2026-10-01T09:30:00Z');
    expect(formatInstant(8)).toBe('1970-01-01T00:00:00.008Z');
    expect(formatInstant(at(9, 30, 15, 250))).toBe('2026-10-01T09:30:15.250Z');
  });
  it('LocalDate / LocalTime', () => {
    expect(formatDate(20727)).toBe('2026-10-01');
    expect(formatDate(0)).toBe('1970-01-01');
    expect(formatDate(-1)).toBe('1969-12-31');
    expect(formatTime(34_200_000)).toBe('09:30');
    expect(formatTime(34_215_000)).toBe('09:30:15');
    expect(formatTime(34_215_250)).toBe('09:30:15.250');
  });
  it('CAST(... AS STRING) forms', () => {
    expect(formatSqlTimestamp(at(9, 30), 3)).toBe('2026-10-01 09:30:00.000');
    expect(formatSqlTimestamp(at(9, 30, 15, 250), 3)).toBe('2026-10-01 09:30:15.250');
    expect(formatSqlTimestamp(at(9, 30), 0)).toBe('2026-10-01 09:30:00');
    expect(formatSqlTime(34_215_250, 3)).toBe('09:30:15.25');
    expect(formatSqlTime(34_215_000, 3)).toBe('09:30:15.0');
    expect(formatSqlTime(34_215_000, 0)).toBe('09:30:15');
  });
  it('formatClock: short on the scenario date, ±∞ for the watermark sentinels', () => {
    expect(formatClock(at(9, 30), DATE)).toBe('09:30');
    expect(formatClock(at(9, 30, 15, 250), DATE)).toBe('09:30:15.250');
    expect(formatClock(Date.UTC(2026, 9, 2, 0, 5), DATE)).toBe('2026-10-02 00:05');
    expect(formatClock(WM_MIN, DATE)).toBe('-∞');
    expect(formatClock(WM_MAX, DATE)).toBe('+∞');
  });
});
