/**
 * The cache walk of Flink's TimeIntervalJoin on an arriving row: the probe of the opposite cache
 * (join what is in range, eagerly remove what has expired), and the expiration and cleanup times
 * it shares with the expiry on a cleanup timer (interval-join-expiry.ts).
 *
 * Re-exported here: the per-call context (interval-join-ctx.ts) and the padding and tracing of
 * removed rows (interval-join-pad.ts).
 */
import type { IntervalSpec, Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';
import { conditionHolds, joinRow, keyRejectsNull, otherSide, printRow, printRowOf, printTime, sideName } from './interval-join-rows.js';
import { bulkWhy, wantsText } from '../why.js';
import { isOuter, relativeSize } from './interval-join-state.js';
import type { IntervalCtx, MutableCtx } from './interval-join-ctx.js';
import { NO_TEXT, expireRows } from './interval-join-pad.js';
import { cacheSize, joinedAt, rowAt, setJoined, timeAt, withoutFirst, writable, type IntervalKeyState, type WritableKeyState } from './interval-key-state.js';

export { fillCtx, keyText, newIntervalCtx, type IntervalCtx } from './interval-join-ctx.js';
export { emitPadded, expireRows, NO_TEXT } from './interval-join-pad.js';

/** Flink's calExpirationTime (allowed lateness is always 0 from SQL). */
export function expirationTime(opTime: number, relSize: number, maxTime: number): number {
  return opTime >= maxTime ? maxTime : opTime - relSize - 1;
}

/** The time at which a cleanup timer for a row at `time` of `side` is due. */
export function cleanupTimeFor(spec: IntervalSpec, side: Side, time: number): number {
  return time + relativeSize(spec, side) + spec.minCleanupMs + 1;
}

/** Built in a function of its own, as expiredBecause (interval-join-pad.ts): probes run per row. */
function eagerReason(c: IntervalCtx, side: Side, t: number, removedAt: number, expiredUpTo: number): () => string {
  return () => `eagerly removed while ${sideName(side)} row at ${printTime(c.j, t)} scanned the cache: ${printTime(c.j, removedAt)} <= ${printTime(c.j, expiredUpTo)}`;
}

/**
 * A row of `side` at time `t` probes the other side's cache in key state `ks`: rows timed within
 * [t - relSize(other), t + relSize(side)] are joined (ascending time, then arrival), and every
 * row timed at or below `expiredUpTo` is removed, after padding it if it never joined and the
 * other side is outer. Per time, as Flink walks its MapState by time: the rows of that time are
 * joined first, then (if expired) removed; a row that joins in this very scan is not padded.
 * The cache is sorted, so the expired rows are a prefix and the scan stops past `hi`.
 * Returns the key state after the scan (`ks` when nothing changed); `c.scanEmitted` tells
 * whether the row joined something.
 */
export function probeOtherCache(c: IntervalCtx, side: Side, row: Row, t: number, ks: IntervalKeyState, expiredUpTo: number): IntervalKeyState {
  const other = otherSide(side);
  const lo = t - relativeSize(c.spec, other);
  const hi = t + relativeSize(c.spec, side);
  const markOther = isOuter(c.j.plan, other);
  const noKey = keyRejectsNull(c.j, side, row);
  let emitted = false;
  let rows = ks;
  // Whether `rows` is already this call's copy (or the edit's), so flags can be set in place.
  let mine = false;
  let cut = 0;
  const n = cacheSize(rows, other);
  let i = 0;
  while (i < n) {
    const time = timeAt(rows, other, i);
    if (time > hi && time > expiredUpTo) break;
    // The run of rows at this time: [i, end).
    let end = i + 1;
    while (end < n && timeAt(rows, other, end) === time) end++;
    if (time >= lo && time <= hi && !noKey) {
      for (let k = i; k < end; k++) {
        if (!joinOne(c, side, row, t, rowAt(rows, other, k), time, lo, hi)) continue;
        emitted = true;
        if (markOther && !joinedAt(rows, other, k)) {
          if (!mine) {
            rows = writable(rows);
            mine = true;
          }
          setJoined(rows as WritableKeyState, other, k);
        }
      }
    }
    if (time <= expiredUpTo) {
      expireRows(c, other, rows, i, end, wantsText(c.out) ? eagerReason(c, side, t, time, expiredUpTo) : NO_TEXT);
      cut = end;
    }
    i = end;
  }
  if (cut > 0) rows = withoutFirst(rows, other, cut, mine);
  (c as MutableCtx).scanEmitted = emitted;
  return rows;
}

function joinOne(c: IntervalCtx, side: Side, row: Row, t: number, otherRow: Row, otherTime: number, lo: number, hi: number): boolean {
  const other = otherSide(side);
  if (!wantsText(c.out) && c.j.residual === undefined && c.out.emitPair !== undefined) {
    // No condition to evaluate: the sink may keep the two rows without a joined copy.
    if (side === 0) c.out.emitPair('+I', row, otherRow, bulkWhy('interval.match'));
    else c.out.emitPair('+I', otherRow, row, bulkWhy('interval.match'));
    return true;
  }
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
