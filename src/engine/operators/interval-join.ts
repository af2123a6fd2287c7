/**
 * Flink's time-bounded ("interval") stream join: RowTimeIntervalJoin / ProcTimeIntervalJoin over
 * TimeIntervalJoin, for `L.t BETWEEN R.t + lower AND R.t + upper`, inner / left / right / full.
 *
 * Inputs are insert-only and every output row is +I. With relSize(left) = -lower and
 * relSize(right) = upper, a row of side S at time t matches rows of the other side O timed in
 * [t - relSize(O), t + relSize(S)] (both ends inclusive). Per join key each side has a cache from
 * time to rows, each row with an "emitted" flag. Operator time is max(combined watermark, 0) for
 * rowtime, the processing time for proctime (where a row's time is the processing time at arrival).
 *
 * +I row r of side S arrives at time t:
 *   1. If expiration[O] < t + relSize(S) (an operator field shared by all keys, start 0):
 *      set expiration[O] = opTime - relSize(O) - 1, then walk O's cache in ascending time:
 *        - rows in range are joined: emit +I[l, r] for each one the condition accepts; an outer
 *          O row that joins is flagged emitted;
 *        - buckets timed <= expiration[O] are removed (eagerly), emitting +I[o, nulls] first for
 *          every never-joined row if O is outer.
 *   2. If opTime < t + relSize(S) (rows of O can still arrive in range), cache r at t with the
 *      flag "joined something", and if the key has no cleanup timer for S's cache, register one at
 *      t + relSize(S) + min-cleanup-interval + 1.
 *   3. Otherwise r is not cached: a late row joins what is still cached but is never dropped up
 *      front; if it joined nothing and S is outer, +I[r, nulls] is emitted at once.
 * Cleanup timer at T for a key (the right cache's timer first, as Flink checks it first):
 *   expiration[S] = opTime - relSize(S) - 1; remove S's buckets timed <= it, emitting
 *   +I[r, nulls] for never-joined rows of an outer S; re-arm one timer for the earliest remaining
 *   row time (if that time is <= 0 Flink clears the cache unpadded instead: kept as a quirk).
 * Negative window (upper < lower): Flink builds no join operator, so there is no state: every
 * outer-side row is padded at once and inner-side rows are dropped.
 * Rowtime output watermarks are held back by max(-lower, upper).
 */
import type { Plan, Side } from '../../planner/plan.js';
import type { Row, RowKind } from '../../values/types.js';
import { WM_MAX, type Collector, type JoinOperator, type OpTime, type StateView } from '../types.js';
import { cleanupTimeFor, emitPadded, expirationTime, expireBuckets, probeOtherCache, type IntervalCtx } from './interval-join-cache.js';
import { describeIntervalSide } from './interval-join-describe.js';
import { joinRow, keyOf, makeJoinRows, otherSide, printKey, printRow, printRowOf, printTime, rowTime, sideName, type JoinRows } from './interval-join-rows.js';
import {
  addToCache,
  emptyKeyState,
  EMPTY_INTERVAL_STATE,
  getKey,
  isOuter,
  putKey,
  relativeSize,
  withSide,
  type IntervalKeyState,
  type IntervalState,
} from './interval-join-state.js';
import { bulkWhy, wantsText } from '../why.js';
import { addTimer, fireDue, nextTimerTime, type Timer, type TimerQueue } from './interval-join-timers.js';

export function createIntervalJoin(plan: Plan): JoinOperator<IntervalState> {
  const spec = plan.interval;
  if (spec === undefined) throw new Error('createIntervalJoin: the plan has no interval');
  const j = makeJoinRows(plan);
  const rowtime = spec.timeKind === 'rowtime';
  const opTimeOf = (time: OpTime): number => (rowtime ? Math.max(time.watermark, 0) : time.procTime);
  const ctx = (time: OpTime, out: Collector, key: string): IntervalCtx => ({ j, spec, out, time, opTime: opTimeOf(time), key });
  const fire = (time: OpTime, out: Collector) => (s: IntervalState, timer: Timer) => onCleanupTimer(j, s, timer, time, out, ctx);
  const delay = spec.negativeWindow || !rowtime ? 0 : Math.max(-spec.lowerMs, spec.upperMs);

  return {
    init: () => EMPTY_INTERVAL_STATE,
    processElement(state, side, kind, row, time, out) {
      if (spec.negativeWindow) return negativeWindow(j, state, side, row, out);
      return processRow(j, state, side, kind, row, time, out, ctx);
    },
    onWatermark(state, time, out) {
      if (!rowtime) return state;
      return fireDue(state, (s) => s.timers, (s, timers) => ({ ...s, timers }), time.watermark, fire(time, out));
    },
    onProcessingTime(state, time, out) {
      if (rowtime) return state;
      return fireDue(state, (s) => s.timers, (s, timers) => ({ ...s, timers }), time.procTime, fire(time, out));
    },
    nextProcessingTimer: (state) => (rowtime ? undefined : nextTimerTime(state.timers)),
    outputWatermarkDelay: delay,
    describe: (state: IntervalState, side: Side, time: OpTime): StateView => describeIntervalSide(j, spec, state, side, time),
  };
}

type MakeCtx = (time: OpTime, out: Collector, key: string) => IntervalCtx;

function processRow(j: JoinRows, state: IntervalState, side: Side, kind: RowKind, row: Row, time: OpTime, out: Collector, mk: MakeCtx): IntervalState {
  if (kind !== '+I') {
    // The planner only builds an interval join over insert-only inputs; anything else is a bug upstream.
    out.trace({ t: 'filter.drop', side, row: printRow(j, side, kind, row), reason: 'the interval join consumes insert-only input' });
    return state;
  }
  const key = keyOf(j, side, row);
  const found = getKey(state, key);
  const c = mk(time, out, found?.printedKey ?? printKey(j, side, row));
  const t = c.spec.timeKind === 'rowtime' ? rowTime(j, side, row) : c.opTime;
  if (t === undefined) {
    out.trace({ t: 'filter.drop', side, row: printRow(j, side, kind, row), reason: 'its time attribute is null' });
    return state;
  }
  const other = otherSide(side);
  const upper = t + relativeSize(c.spec, side);
  let ks: IntervalKeyState = found ?? emptyKeyState(c.key);
  let s = state;
  let emitted = false;
  if (s.expiration[other] < upper) {
    const exp = expirationTime(c.opTime, relativeSize(c.spec, other), WM_MAX);
    s = { ...s, expiration: withSide(s.expiration, other, exp) };
    const scan = probeOtherCache(c, side, row, t, ks.caches[other], exp);
    ks = { ...ks, caches: withSide(ks.caches, other, scan.cache) };
    emitted = scan.emitted;
  }
  if (c.opTime < upper) {
    const cached = cacheRow(c, s, ks, side, row, t, emitted, key);
    return putKey({ ...s, timers: cached.timers }, key, cached.ks);
  }
  if (!emitted) {
    const because = () => `the ${sideName(other)} side's time ${printTime(j, c.opTime)} has passed its window end ${printTime(j, upper)}, so it is not cached`;
    if (isOuter(j.plan, side)) emitPadded(c, side, row, 'interval.pad', () => `it matched nothing and ${because()}`);
    else if (wantsText(out)) out.trace({ t: 'no-match', side, row: printRow(j, side, '+I', row), reason: because() });
  }
  return putKey(s, key, ks);
}

function cacheRow(
  c: IntervalCtx,
  s: IntervalState,
  ks: IntervalKeyState,
  side: Side,
  row: Row,
  t: number,
  emitted: boolean,
  key: string,
): { readonly ks: IntervalKeyState; readonly timers: TimerQueue } {
  const tracing = wantsText(c.out);
  if (tracing) {
    const printed = printRow(c.j, side, '+I', row);
    c.out.trace({ t: 'state.add', side, key: c.key, row: printed, detail: `cached at ${printTime(c.j, t)}${emitted ? ', already joined' : ''}` });
  }
  const next: IntervalKeyState = { ...ks, caches: withSide(ks.caches, side, addToCache(ks.caches[side], t, { row, emitted })) };
  if (ks.cleanup[side] !== undefined) return { ks: next, timers: s.timers };
  // One cleanup timer per side per key, for the first cached row; expiry re-arms it later.
  const at = cleanupTimeFor(c.spec, side, t);
  if (tracing) c.out.trace({ t: 'timer.register', domain: timerDomain(c), time: at, key: c.key, purpose: `clean the ${sideName(side)} cache` });
  return { ks: { ...next, cleanup: withSide(next.cleanup, side, at) }, timers: addTimer(s.timers, key, at) };
}

function timerDomain(c: IntervalCtx): 'event' | 'proc' {
  return c.spec.timeKind === 'rowtime' ? 'event' : 'proc';
}

function onCleanupTimer(j: JoinRows, state: IntervalState, timer: Timer, time: OpTime, out: Collector, mk: MakeCtx): IntervalState {
  const found = getKey(state, timer.key);
  if (found === undefined) return state;
  const c = mk(time, out, found.printedKey);
  if (wantsText(out)) out.trace({ t: 'timer.fire', domain: timerDomain(c), time: timer.time, key: c.key, purpose: 'interval cache cleanup' });
  let s = state;
  let ks = found;
  // Flink checks the timer that cleans the right cache before the one that cleans the left cache.
  for (const side of [1, 0] as const) {
    if (ks.cleanup[side] !== timer.time) continue;
    const exp = expirationTime(c.opTime, relativeSize(c.spec, side), WM_MAX);
    s = { ...s, expiration: withSide(s.expiration, side, exp) };
    const r = removeExpired(c, s, ks, side, exp, timer.key);
    s = r.state;
    ks = r.ks;
  }
  return putKey(s, timer.key, ks);
}

function removeExpired(c: IntervalCtx, s: IntervalState, ks: IntervalKeyState, side: Side, exp: number, key: string): { state: IntervalState; ks: IntervalKeyState } {
  const cache = ks.caches[side];
  const expired = cache.filter((b) => b.time <= exp);
  const kept = cache.filter((b) => b.time > exp);
  expireBuckets(c, side, expired, () => `the cleanup timer fired: ${printTime(c.j, expired[0]?.time ?? exp)} <= ${printTime(c.j, exp)}`);
  const earliest = kept[0]?.time;
  if (earliest !== undefined && earliest > 0) {
    const at = cleanupTimeFor(c.spec, side, earliest);
    if (wantsText(c.out)) c.out.trace({ t: 'timer.register', domain: timerDomain(c), time: at, key: c.key, purpose: `clean the ${sideName(side)} cache` });
    const next = { ...ks, caches: withSide(ks.caches, side, kept), cleanup: withSide(ks.cleanup, side, at) };
    return { state: { ...s, timers: addTimer(s.timers, key, at) }, ks: next };
  }
  for (const b of kept) {
    for (const r of b.rows) {
      const reason = 'Flink clears the whole cache when the earliest remaining row time is <= 0 (TimeIntervalJoin quirk), without padding';
      c.out.trace({ t: 'state.expire', side, key: c.key, row: printRow(c.j, side, '+I', r.row), reason });
    }
  }
  return { state: s, ks: { ...ks, caches: withSide(ks.caches, side, []), cleanup: withSide(ks.cleanup, side, undefined) } };
}

function negativeWindow(j: JoinRows, state: IntervalState, side: Side, row: Row, out: Collector): IntervalState {
  const because = 'the interval is empty (upper bound < lower bound), so Flink builds no join and nothing can ever match';
  if (isOuter(j.plan, side)) {
    const joined = side === 0 ? joinRow(j, row, undefined) : joinRow(j, undefined, row);
    const text = `${sideName(side)} ${printRow(j, side, '+I', row)} is null-padded at once: ${because}`;
    out.emit('+I', joined, wantsText(out) ? { rule: 'interval.pad', text, rows: [printRowOf(j, side, '+I', row)] } : bulkWhy('interval.pad'));
  } else {
    out.trace({ t: 'no-match', side, row: printRow(j, side, '+I', row), reason: because });
  }
  return state;
}
