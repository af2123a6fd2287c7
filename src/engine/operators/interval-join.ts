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
import { cleanupTimeFor, emitPadded, expirationTime, fillCtx, keyText, newIntervalCtx, probeOtherCache, type IntervalCtx } from './interval-join-cache.js';
import { describeIntervalSide } from './interval-join-describe.js';
import { joinRow, makeJoinRows, otherSide, printRow, printRowOf, printTime, rowTime, sideName, type JoinRows } from './interval-join-rows.js';
import { EMPTY_INTERVAL_STATE, expirationOf, getKey, isOuter, keysWith, ownState, relativeSize, type IntervalState, type Writable } from './interval-join-state.js';
import type { PMap } from '../collections/pmap.js';
import { cleanupOf, keyRowOf, keySideOf, newKeyState, withRow, type IntervalKeyState } from './interval-key-state.js';
import { bulkWhy, wantsText } from '../why.js';
import { addTimer, nextTimerTime } from './interval-join-timers.js';
import { fireDue, timerDomain, type MakeCtx } from './interval-join-expiry.js';
import { newInterner, type Interner } from './interval-key-intern.js';

export function createIntervalJoin(plan: Plan): JoinOperator<IntervalState> {
  const spec = plan.interval;
  if (spec === undefined) throw new Error('createIntervalJoin: the plan has no interval');
  const j = makeJoinRows(plan);
  const rowtime = spec.timeKind === 'rowtime';
  const opTimeOf = (time: OpTime): number => (rowtime ? Math.max(time.watermark, 0) : time.procTime);
  // One context per operator, refilled by each call instead of built per row or timer: calls
  // never nest (the collector does not call back), and nothing keeps it past the call.
  const scratch = newIntervalCtx(j, spec);
  const ctx = (time: OpTime, out: Collector, keySide: Side, keyRow: Row): IntervalCtx => fillCtx(scratch, out, time, opTimeOf(time), keySide, keyRow);
  const keys = newInterner();
  const delay = spec.negativeWindow || !rowtime ? 0 : Math.max(-spec.lowerMs, spec.upperMs);

  return {
    init: () => EMPTY_INTERVAL_STATE,
    processElement(state, side, kind, row, time, out) {
      if (spec.negativeWindow) return negativeWindow(j, state, side, row, out);
      return processRow(j, state, side, kind, row, time, out, ctx, keys);
    },
    onWatermark(state, time, out) {
      return rowtime ? fireDue(state, time.watermark, time, out, ctx) : state;
    },
    onProcessingTime(state, time, out) {
      return rowtime ? state : fireDue(state, time.procTime, time, out, ctx);
    },
    nextProcessingTimer: (state) => (rowtime ? undefined : nextTimerTime(state.timers)),
    outputWatermarkDelay: delay,
    describe: (state: IntervalState, side: Side, time: OpTime): StateView => describeIntervalSide(j, spec, state, side, time),
  };
}


function processRow(j: JoinRows, state: IntervalState, side: Side, kind: RowKind, row: Row, time: OpTime, out: Collector, mk: MakeCtx, keys: Interner): IntervalState {
  if (kind !== '+I') {
    // The planner only builds an interval join over insert-only inputs; anything else is a bug upstream.
    out.trace({ t: 'filter.drop', side, row: printRow(j, side, kind, row), reason: 'the interval join consumes insert-only input' });
    return state;
  }
  // The key's one instance: timers keep it (see interval-key-intern.ts).
  const key = keys.keyOf(row, j.keyIdx[side]);
  const found = getKey(state, key);
  const c = found === undefined ? mk(time, out, side, row) : mk(time, out, keySideOf(found), keyRowOf(found));
  const t = c.spec.timeKind === 'rowtime' ? rowTime(j, side, row) : c.opTime;
  if (t === undefined) {
    out.trace({ t: 'filter.drop', side, row: printRow(j, side, kind, row), reason: 'its time attribute is null' });
    return state;
  }
  const other = otherSide(side);
  const upper = t + relativeSize(c.spec, side);
  // The state made writable at its first change, once per row (each check is an edit lookup).
  let w: Writable<IntervalState> | undefined;
  let ks = found;
  let emitted = false;
  if (expirationOf(state, other) < upper) {
    const exp = expirationTime(c.opTime, relativeSize(c.spec, other), WM_MAX);
    if (expirationOf(state, other) !== exp) {
      w = ownState(state);
      if (other === 0) w.expiration0 = exp;
      else w.expiration1 = exp;
    }
    if (ks !== undefined) {
      ks = probeOtherCache(c, side, row, t, ks, exp);
      emitted = c.scanEmitted;
    }
  }
  if (c.opTime < upper) return cacheRow(c, state, w, ks, found, side, row, t, emitted, key);
  if (!emitted) notCached(c, side, row, upper);
  return ks === undefined ? (w ?? state) : withKeys(state, w, keysWith(w ?? state, key, ks, found));
}

/** The state with key map `keys`: `w` (the row's writable state, if any) or `state` if unchanged. */
function withKeys(state: IntervalState, w: Writable<IntervalState> | undefined, keys: PMap<IntervalKeyState>): IntervalState {
  if (keys === (w ?? state).keys) return w ?? state;
  const s = w ?? ownState(state);
  s.keys = keys;
  return s;
}

/**
 * A late row that joined nothing: padded at once if its side is outer. Its own function, since
 * V8 allocates a context for the reason closures' variables on every call of the function that
 * holds them, even when no closure is built: processRow runs per row.
 */
function notCached(c: IntervalCtx, side: Side, row: Row, upper: number): void {
  const j = c.j;
  const other = otherSide(side);
  const because = () => `the ${sideName(other)} side's time ${printTime(j, c.opTime)} has passed its window end ${printTime(j, upper)}, so it is not cached`;
  if (isOuter(j.plan, side)) emitPadded(c, side, row, 'interval.pad', () => `it matched nothing and ${because()}`);
  else if (wantsText(c.out)) c.out.trace({ t: 'no-match', side, row: printRow(j, side, '+I', row), reason: because() });
}

/**
 * `stored`: what the key map held for the key when the row arrived (see putKey); `w`: the row's
 * writable state if it changed one already.
 */
function cacheRow(
  c: IntervalCtx,
  state: IntervalState,
  w0: Writable<IntervalState> | undefined,
  ks0: IntervalKeyState | undefined,
  stored: IntervalKeyState | undefined,
  side: Side,
  row: Row,
  t: number,
  emitted: boolean,
  key: string,
): IntervalState {
  const tracing = wantsText(c.out);
  if (tracing) {
    const printed = printRow(c.j, side, '+I', row);
    c.out.trace({ t: 'state.add', side, key: keyText(c), row: printed, detail: `cached at ${printTime(c.j, t)}${emitted ? ', already joined' : ''}` });
  }
  // One cleanup timer per side per key, for the first cached row; expiry re-arms it later.
  const armed = ks0 === undefined ? undefined : cleanupOf(ks0, side);
  const at = armed ?? cleanupTimeFor(c.spec, side, t);
  if (armed === undefined && tracing) {
    c.out.trace({ t: 'timer.register', domain: timerDomain(c), time: at, key: keyText(c), purpose: `clean the ${sideName(side)} cache` });
  }
  const ks = ks0 === undefined ? newKeyState(c.layout, side, row, t, emitted, at) : withRow(ks0, side, t, row, emitted, at);
  let w = w0;
  if (armed === undefined) {
    const timers = addTimer((w ?? state).timers, key, at);
    if (timers !== (w ?? state).timers) {
      w ??= ownState(state);
      w.timers = timers;
    }
  }
  return withKeys(state, w, keysWith(w ?? state, key, ks, stored));
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
