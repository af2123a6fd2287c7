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
  printKey,
  printRow,
  printRowOf,
  printTime,
  sideName,
  type JoinRows,
} from './interval-join-rows.js';
import { bulkWhy, wantsText } from '../why.js';
import { isOuter, relativeSize } from './interval-join-state.js';
import { cacheSize, joinedAt, layoutOf, rowAt, setJoined, timeAt, withoutFirst, writable, type IntervalKeyState, type WritableKeyState } from './interval-key-state.js';

/**
 * Everything one operator call needs besides the state. The operator keeps one and refills it
 * per call (fillCtx): a row or timer builds no context object.
 */
export interface IntervalCtx {
  readonly j: JoinRows;
  readonly spec: IntervalSpec;
  readonly out: Collector;
  readonly time: OpTime;
  /** Rowtime: max(combined watermark, 0); proctime: the processing time. */
  readonly opTime: number;
  /** The key's side and row: the printed key is built from them only when a trace needs it. */
  readonly keySide: Side;
  readonly keyRow: Row;
  /** Set by probeOtherCache: whether the probing row joined something (no result object). */
  readonly scanEmitted: boolean;
  /** Which sides are outer, for new key states (interval-key-state.ts layoutOf). */
  readonly layout: number;
}

type MutableCtx = { -readonly [P in keyof IntervalCtx]: IntervalCtx[P] };

const NO_TIME: OpTime = Object.freeze({ watermark: 0, procTime: 0 });
const NO_KEY_ROW: Row = Object.freeze([]);

export function newIntervalCtx(j: JoinRows, spec: IntervalSpec): IntervalCtx {
  const none: Collector = { emit: () => undefined, trace: () => undefined };
  const layout = layoutOf(isOuter(j.plan, 0), isOuter(j.plan, 1));
  return { j, spec, out: none, time: NO_TIME, opTime: 0, keySide: 0, keyRow: NO_KEY_ROW, scanEmitted: false, layout };
}

/** Refill the operator's context for one call; returns it. */
export function fillCtx(ctx: IntervalCtx, out: Collector, time: OpTime, opTime: number, keySide: Side, keyRow: Row): IntervalCtx {
  const c = ctx as MutableCtx;
  c.out = out;
  c.time = time;
  c.opTime = opTime;
  c.keySide = keySide;
  c.keyRow = keyRow;
  c.scanEmitted = false;
  return c;
}

/** The join key as printed in traces. */
export function keyText(c: IntervalCtx): string {
  return printKey(c.j, c.keySide, c.keyRow);
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
  if (!wantsText(c.out) && c.out.emitPair !== undefined) {
    if (side === 0) c.out.emitPair('+I', row, undefined, bulkWhy(rule));
    else c.out.emitPair('+I', undefined, row, bulkWhy(rule));
    return;
  }
  const joined = side === 0 ? joinRow(c.j, row, undefined) : joinRow(c.j, undefined, row);
  if (!wantsText(c.out)) {
    c.out.emit('+I', joined, bulkWhy(rule));
    return;
  }
  const text = `${sideName(side)} ${printRow(c.j, side, '+I', row)} is null-padded: ${because()}`;
  c.out.emit('+I', joined, { rule, text, rows: [printRowOf(c.j, side, '+I', row)] });
}

/** Pad every never-joined row i in [from, to) of an outer side and trace the removal of each row. */
export function expireRows(c: IntervalCtx, side: Side, ks: IntervalKeyState, from: number, to: number, reason: () => string): void {
  const tracing = wantsText(c.out);
  const outer = isOuter(c.j.plan, side);
  for (let i = from; i < to; i++) {
    if (outer && !joinedAt(ks, side, i)) {
      emitPadded(c, side, rowAt(ks, side, i), 'interval.pad-expired', tracing ? expiredBecause(reason) : NO_TEXT);
    }
    // Always traced (it sets STEP_EXPIRE); the text only when kept.
    if (tracing) c.out.trace({ t: 'state.expire', side, key: keyText(c), row: printRow(c.j, side, '+I', rowAt(ks, side, i)), reason: reason() });
    else c.out.trace(EXPIRE_NO_TEXT[side]);
  }
}

/** Reasons are only read when the step keeps text: bulk runs pass this instead of a closure. */
export const NO_TEXT = (): string => '';

/*
 * The reason closures below are built in functions of their own: V8 allocates a context for the
 * variables a closure captures on every call of the function that declares them, even when the
 * closure is never built, and the scans run per row.
 */

function expiredBecause(reason: () => string): () => string {
  return () => `it matched nothing before it expired (${reason()})`;
}

function eagerReason(c: IntervalCtx, side: Side, t: number, removedAt: number, expiredUpTo: number): () => string {
  return () => `eagerly removed while ${sideName(side)} row at ${printTime(c.j, t)} scanned the cache: ${printTime(c.j, removedAt)} <= ${printTime(c.j, expiredUpTo)}`;
}

const EXPIRE_NO_TEXT = [
  Object.freeze({ t: 'state.expire', side: 0, key: '', row: '', reason: '' } as const),
  Object.freeze({ t: 'state.expire', side: 1, key: '', row: '', reason: '' } as const),
] as const;

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
