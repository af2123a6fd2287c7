/**
 * The interval join's cleanup timers firing (Flink's TimeIntervalJoin.onTimer): each due timer
 * removes the expired rows of the side(s) whose cleanup time it is, padding never-joined rows of
 * an outer side, and re-arms one timer for the earliest row left.
 */
import type { Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';
import { WM_MAX, type Collector, type OpTime } from '../types.js';
import { wantsText } from '../why.js';
import { cacheSize, cleanupOf, EMPTY_KEY_STATE, keyRowOf, keySideOf, rowAt, setCleanup, timeAt, withoutFirst, type IntervalKeyState } from './interval-key-state.js';
import { NO_TEXT, cleanupTimeFor, expirationTime, expireRows, keyText, type IntervalCtx } from './interval-join-cache.js';
import { otherSide, printRow, printTime, sideName } from './interval-join-rows.js';
import { getKey, ownState, putKeyIn, relativeSize, type IntervalState, type Writable } from './interval-join-state.js';
import { addTimer, dropFirstTimer, firstTimerKey, nextTimerTime } from './interval-join-timers.js';

export type MakeCtx = (time: OpTime, out: Collector, keySide: Side, keyRow: Row) => IntervalCtx;

/**
 * Fire every due cleanup timer in order; timers that firing registers at or below `upTo` fire in
 * the same pass, as in Flink's advanceWatermark loop. (A loop, not a callback: no closure or timer
 * object per call, this runs on every watermark advance.) The state is made writable once for the
 * pass, not once per change: each check is a lookup in the edit's set.
 */
export function fireDue(state: IntervalState, upTo: number, time: OpTime, out: Collector, mk: MakeCtx): IntervalState {
  const first = nextTimerTime(state.timers);
  if (first === undefined || first > upTo) return state;
  const w = ownState(state);
  for (;;) {
    const at = nextTimerTime(w.timers);
    const key = firstTimerKey(w.timers);
    if (at === undefined || key === undefined || at > upTo) return w;
    w.timers = dropFirstTimer(w.timers);
    onCleanupTimer(w, key, at, time, out, mk);
  }
}

export function timerDomain(c: IntervalCtx): 'event' | 'proc' {
  return c.spec.timeKind === 'rowtime' ? 'event' : 'proc';
}

/** One cleanup timer of `key` at `at`, on the pass's writable state `w`. */
function onCleanupTimer(w: Writable<IntervalState>, key: string, at: number, time: OpTime, out: Collector, mk: MakeCtx): void {
  const found = getKey(w, key);
  if (found === undefined) return;
  const c = mk(time, out, keySideOf(found), keyRowOf(found));
  if (wantsText(out)) out.trace({ t: 'timer.fire', domain: timerDomain(c), time: at, key: keyText(c), purpose: 'interval cache cleanup' });
  let ks = found;
  // Flink checks the timer that cleans the right cache before the one that cleans the left cache.
  for (const side of RIGHT_THEN_LEFT) {
    if (cleanupOf(ks, side) !== at) continue;
    const exp = expirationTime(c.opTime, relativeSize(c.spec, side), WM_MAX);
    if (side === 0) w.expiration0 = exp;
    else w.expiration1 = exp;
    // After the first side, `ks` is this call's own copy (or the edit's): no second copy.
    ks = removeExpired(c, ks, side, exp, ks !== found);
    // removeExpired re-arms the side's timer at the earliest row left, if any.
    const again = cleanupOf(ks, side);
    if (again !== undefined) w.timers = addTimer(w.timers, key, again);
  }
  putKeyIn(w, key, ks, found);
}

const RIGHT_THEN_LEFT = [1, 0] as const;

/** Its own function: see eagerReason in interval-join-cache.ts. */
function timerReason(c: IntervalCtx, first: number, exp: number): () => string {
  return () => `the cleanup timer fired: ${printTime(c.j, first)} <= ${printTime(c.j, exp)}`;
}

/**
 * The key state without side's rows timed <= exp, its cleanup time re-armed (or unset when empty).
 * `mine`: `ks` is already the caller's to change.
 */
function removeExpired(c: IntervalCtx, ks: IntervalKeyState, side: Side, exp: number, mine: boolean): IntervalKeyState {
  let cut = 0;
  const n = cacheSize(ks, side);
  while (cut < n && timeAt(ks, side, cut) <= exp) cut++;
  const first = n > 0 ? timeAt(ks, side, 0) : exp;
  const reason = wantsText(c.out) ? timerReason(c, first, exp) : NO_TEXT;
  expireRows(c, side, ks, 0, cut, reason);
  const earliest = cut < n ? timeAt(ks, side, cut) : undefined;
  if (earliest !== undefined && earliest > 0) {
    const at = cleanupTimeFor(c.spec, side, earliest);
    if (wantsText(c.out)) c.out.trace({ t: 'timer.register', domain: timerDomain(c), time: at, key: keyText(c), purpose: `clean the ${sideName(side)} cache` });
    const w = withoutFirst(ks, side, cut, mine);
    setCleanup(w, side, at);
    return w;
  }
  // Nothing left on either side and no timer: putKey drops the key, so no copy to build.
  const other = otherSide(side);
  if (cut === n && cacheSize(ks, other) === 0 && cleanupOf(ks, other) === undefined) return EMPTY_KEY_STATE;
  for (let i = cut; i < n; i++) {
    const reason = 'Flink clears the whole cache when the earliest remaining row time is <= 0 (TimeIntervalJoin quirk), without padding';
    c.out.trace({ t: 'state.expire', side, key: keyText(c), row: printRow(c.j, side, '+I', rowAt(ks, side, i)), reason });
  }
  const w = withoutFirst(ks, side, n, mine);
  setCleanup(w, side, undefined);
  return w;
}
