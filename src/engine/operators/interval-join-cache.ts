/**
 * The two cache walks of Flink's TimeIntervalJoin: the probe of the opposite cache by an arriving
 * row (join what is in range, eagerly remove what has expired) and the expiry on a cleanup timer.
 */
import type { IntervalSpec, Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';
import type { Collector, OpTime } from '../types.js';
import {
  conditionHolds,
  joinRow,
  keyRejectsNull,
  otherSide,
  printRow,
  printRowOf,
  printTime,
  sideName,
  type JoinRows,
} from './interval-join-rows.js';
import { bulkWhy, wantsText } from '../why.js';
import { isOuter, relativeSize, type Bucket, type CachedRow } from './interval-join-state.js';

/** Everything one operator call needs besides the state. */
export interface IntervalCtx {
  readonly j: JoinRows;
  readonly spec: IntervalSpec;
  readonly out: Collector;
  readonly time: OpTime;
  /** Rowtime: max(combined watermark, 0); proctime: the processing time. */
  readonly opTime: number;
  readonly key: string;
}

/** Flink's calExpirationTime (allowed lateness is always 0 from SQL). */
export function expirationTime(opTime: number, relSize: number, maxTime: number): number {
  return opTime >= maxTime ? maxTime : opTime - relSize - 1;
}

/** The time at which a cleanup timer for a row at `time` of `side` is due. */
export function cleanupTimeFor(spec: IntervalSpec, side: Side, time: number): number {
  return time + relativeSize(spec, side) + spec.minCleanupMs + 1;
}

export function emitPadded(c: IntervalCtx, side: Side, row: Row, rule: string, because: () => string): void {
  const joined = side === 0 ? joinRow(c.j, row, undefined) : joinRow(c.j, undefined, row);
  if (!wantsText(c.out)) {
    c.out.emit('+I', joined, bulkWhy(rule));
    return;
  }
  const text = `${sideName(side)} ${printRow(c.j, side, '+I', row)} is null-padded: ${because()}`;
  c.out.emit('+I', joined, { rule, text, rows: [printRowOf(c.j, side, '+I', row)] });
}

/** Pad every never-joined row of an outer side and trace the removal of each bucket. */
export function expireBuckets(c: IntervalCtx, side: Side, buckets: readonly Bucket[], reason: () => string): void {
  const tracing = wantsText(c.out);
  for (const b of buckets) {
    for (const r of b.rows) {
      if (isOuter(c.j.plan, side) && !r.emitted) {
        emitPadded(c, side, r.row, 'interval.pad-expired', () => `it matched nothing before it expired (${reason()})`);
      }
      // Always traced (it sets STEP_EXPIRE); the text only when kept.
      if (tracing) c.out.trace({ t: 'state.expire', side, key: c.key, row: printRow(c.j, side, '+I', r.row), reason: reason() });
      else c.out.trace({ t: 'state.expire', side, key: '', row: '', reason: '' });
    }
  }
}

export interface ScanResult {
  readonly cache: readonly Bucket[];
  readonly emitted: boolean;
}

/**
 * A row of `side` at time `t` probes the other side's cache: rows timed within
 * [t - relSize(other), t + relSize(side)] are joined (ascending time, then arrival), and every
 * bucket at or below `expiredUpTo` is removed, after padding its never-joined rows if the other
 * side is outer. A row that joins in this very scan is not padded.
 */
export function probeOtherCache(c: IntervalCtx, side: Side, row: Row, t: number, cache: readonly Bucket[], expiredUpTo: number): ScanResult {
  const other = otherSide(side);
  const lo = t - relativeSize(c.spec, other);
  const hi = t + relativeSize(c.spec, side);
  const markOther = isOuter(c.j.plan, other);
  const noKey = keyRejectsNull(c.j, side, row);
  let emitted = false;
  const kept: Bucket[] = [];
  for (const b of cache) {
    let rows = b.rows;
    if (b.time >= lo && b.time <= hi && !noKey) {
      rows = rows.map((cr): CachedRow => {
        if (!joinOne(c, side, row, t, cr.row, b.time, lo, hi)) return cr;
        emitted = true;
        return markOther && !cr.emitted ? { row: cr.row, emitted: true } : cr;
      });
    }
    if (b.time <= expiredUpTo) {
      expireBuckets(c, other, [{ time: b.time, rows }], () => `eagerly removed while ${sideName(side)} row at ${printTime(c.j, t)} scanned the cache: ${printTime(c.j, b.time)} <= ${printTime(c.j, expiredUpTo)}`);
    } else {
      kept.push(rows === b.rows ? b : { time: b.time, rows });
    }
  }
  return { cache: kept, emitted };
}

function joinOne(c: IntervalCtx, side: Side, row: Row, t: number, otherRow: Row, otherTime: number, lo: number, hi: number): boolean {
  const other = otherSide(side);
  const joined = side === 0 ? joinRow(c.j, row, otherRow) : joinRow(c.j, otherRow, row);
  if (!wantsText(c.out)) {
    if (!conditionHolds(c.j, joined, c.time.procTime)) return false;
    c.out.emit('+I', joined, bulkWhy('interval.match'));
    return true;
  }
  const mine = printRow(c.j, side, '+I', row);
  const theirs = printRow(c.j, other, '+I', otherRow);
  if (!conditionHolds(c.j, joined, c.time.procTime)) {
    c.out.trace({ t: 'no-match', side, row: mine, reason: `the join condition is not true for ${theirs}` });
    return false;
  }
  const window = `${printTime(c.j, otherTime)} within [${printTime(c.j, lo)}, ${printTime(c.j, hi)}]`;
  c.out.trace({ t: 'match', side, row: mine, other: theirs, detail: window });
  const text = `${sideName(side)} ${mine} at ${printTime(c.j, t)} matched ${sideName(other)} ${theirs} (${window})`;
  c.out.emit('+I', joined, { rule: 'interval.match', text, rows: [printRowOf(c.j, side, '+I', row), printRowOf(c.j, other, '+I', otherRow)] });
  return true;
}
