/**
 * The times a scenario may name: years 0001 to 9999, as Flink's TIMESTAMP holds them. Beyond
 * ±8.64e15 ms JavaScript's Date is invalid, so a time out of this range would show as NaN in every
 * message and on screen; it is rejected where it is read (`at`, `to`, row timestamps, `advance`).
 */
import type { SqlType, Value } from '../values/types.js';

/** 0001-01-01 00:00:00.000 and 9999-12-31 23:59:59.999, in epoch ms (UTC). */
export const MIN_TIME_MS = -62_135_596_800_000;
export const MAX_TIME_MS = 253_402_300_799_999;
const MS_PER_DAY = 86_400_000;

export function inTimeRange(ms: number): boolean {
  return ms >= MIN_TIME_MS && ms <= MAX_TIME_MS;
}

export const TIME_RANGE_HINT = 'times go from 0001-01-01 00:00 to 9999-12-31 23:59:59.999 (epoch ms from -62135596800000 to 253402300799999)';

/** The message for a time read out of range: `what` is the key (`at`, `watermark to`, ...). */
export function outOfRangeMessage(what: string, ms: number): string {
  return `${what}: ${ms} ms is outside the years 0001 to 9999`;
}

/** Whether a parsed column value is a time outside the range (TIMESTAMP / _LTZ in ms, DATE in days). */
export function valueOutOfRange(type: SqlType, v: Value): boolean {
  if (typeof v !== 'number') return false;
  if (type.kind === 'TIMESTAMP' || type.kind === 'TIMESTAMP_LTZ') return !inTimeRange(v);
  if (type.kind === 'DATE') return !inTimeRange(v * MS_PER_DAY);
  return false;
}
