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
 * Negative window (upper < lower), or a condition that simplifies to FALSE: Flink builds no join
 * operator, so there is no state: every outer-side row is padded at once and inner-side rows are
 * dropped. On FALSE, LEFT / RIGHT is a Calc over the preserved side: no join watermark at all.
 * Rowtime output watermarks are held back by max(-lower, upper).
 *
 * Per time, as Flink walks its MapState (a HashMap from row time: see runsInMapOrder): the rows of
 * that time are joined first, then (if expired) removed; a row that joins in this very scan is not
 * padded.
 */
import type { IntervalSpec, Plan, Side } from '../../../planner/plan.js';
import type { Row, RowKind } from '../../../values/types.js';
import { STEP_EXPIRE, WM_MAX, type Collector, type JoinOperator, type OpTime, type StateEntryView, type StateView } from '../../types.js';
import { bulkWhy } from '../../why.js';
import { KeyInterner, KEYS_KEPT } from '../../state/key-interner.js';
import { cacheSize, cleanedAt, cleanupOf, EMPTY_INTERVAL_STATE, IntervalStateView, joinedAt, keyRowOf, keySideOf, layoutOf, mapPeakOf, rowAt, timeAt, type IntervalKeyState, type IntervalState } from '../../state/interval-state.js';
import { hashMapBucket, hashMapCapacity, longHash } from '../../state/flink-map-order.js';
import { keyStatesOf } from '../../state/keyed-state-view.js';
import { nextTimerTime } from '../../state/timer-service.js';
import { conditionHolds, joinRow, keyRejectsNull, makeJoinRows, otherSide, printKey, printRow, printRowOf, printSpan, printTime, rowTime, sideName, type JoinRows } from '../join-rows.js';
import { groupedStateView, stateViewOf } from '../../describe.js';

/** Flink's relative window sizes: left rows wait `-lower`, right rows wait `upper`. */
export function relativeSize(spec: IntervalSpec, side: Side): number {
  return side === 0 ? -spec.lowerMs : spec.upperMs;
}

export function isOuter(plan: Plan, side: Side): boolean {
  return plan.joinType === 'full' || plan.joinType === (side === 0 ? 'left' : 'right');
}

/** Flink's calExpirationTime (allowed lateness is always 0 from SQL). */
function expirationTime(opTime: number, relSize: number, maxTime: number): number {
  return opTime >= maxTime ? maxTime : opTime - relSize - 1;
}

/** The time at which a cleanup timer for a row at `time` of `side` is due. */
export function cleanupTimeFor(spec: IntervalSpec, side: Side, time: number): number {
  return time + relativeSize(spec, side) + spec.minCleanupMs + 1;
}

/**
 * The element or timer being processed: what every step below needs besides the state. The
 * operator keeps one and refills it per call (calls never nest, and nothing keeps it past one).
 */
class Call {
  out!: Collector;
  time!: OpTime;
  /** Rowtime: max(combined watermark, 0); proctime: the processing time. */
  opTime = 0;
  /**
   * The key's first-seen side and row: the printed key is built from them only when traced, and
   * only a traced call sets them (why untraced calls skip it: docs/decisions.md, the layout row).
   */
  keySide: Side = 0;
  keyRow: Row = [];
  /** Whether the last probe joined something (the probe returns the key's next state). */
  emitted = false;

  constructor(
    readonly j: JoinRows,
    readonly spec: IntervalSpec,
    readonly s: IntervalStateView,
  ) {}

  get key(): string {
    return printKey(this.j, this.keySide, this.keyRow);
  }

  get domain(): 'event' | 'proc' {
    return this.spec.timeKind === 'rowtime' ? 'event' : 'proc';
  }
}

export function createIntervalJoin(plan: Plan): JoinOperator<IntervalState> {
  const spec = plan.interval;
  if (spec === undefined) throw new Error('createIntervalJoin: the plan has no interval');
  const j = makeJoinRows(plan);
  const rowtime = spec.timeKind === 'rowtime';
  const c = new Call(j, spec, new IntervalStateView(layoutOf(isOuter(plan, 0), isOuter(plan, 1))));
  const keys = new KeyInterner(KEYS_KEPT, true);
  // no join operator in Flink's plan: an empty window, or a condition that is always FALSE
  const noJoin = spec.negativeWindow || spec.alwaysFalse === true;
  const delay = noJoin || !rowtime ? 0 : Math.max(-spec.lowerMs, spec.upperMs);

  return {
    init: () => EMPTY_INTERVAL_STATE,
    processElement(state, side, kind, row, time, out) {
      if (noJoin) return negativeWindow(j, state, side, row, out);
      return processElement(c, state, side, kind, row, time, out, keys);
    },
    onWatermark(state, time, out) {
      return rowtime ? onTimers(c, state, time, out, time.watermark) : state;
    },
    onProcessingTime(state, time, out) {
      return rowtime ? state : onTimers(c, state, time, out, time.procTime);
    },
    nextProcessingTimer: (state) => (rowtime ? undefined : nextTimerTime(state.timers)),
    outputWatermarkDelay: delay,
    // LEFT / RIGHT on FALSE: a Calc over the preserved side, no join (nor union) to emit a watermark
    noOutputWatermark: spec.alwaysFalse === true && plan.joinType !== 'full',
    describe: (state: IntervalState, side: Side, time: OpTime): StateView => describeIntervalSide(j, spec, state, side, time),
  };
}

/** Open the call on the operator state for one element or timer pass; `c.s.close()` ends it. */
function begin(c: Call, state: IntervalState, time: OpTime, out: Collector): void {
  c.s.open(state);
  c.out = out;
  c.time = time;
  c.opTime = c.spec.timeKind === 'rowtime' ? Math.max(time.watermark, 0) : time.procTime;
}

function processElement(c: Call, state: IntervalState, side: Side, kind: RowKind, row: Row, time: OpTime, out: Collector, keys: KeyInterner): IntervalState {
  begin(c, state, time, out);
  const { j, s } = c;
  // The planner only builds an interval join over insert-only inputs; anything else is a bug upstream.
  if (kind !== '+I') {
    dropped(c, side, kind, row, 'the interval join consumes insert-only input');
    return s.close();
  }
  // The key's one instance: timers keep it.
  const key = keys.keyOfRow(row, j.keyIdx[side]);
  // The key's state, held here for the element and stored back at the end.
  const stored = s.takeKey(key);
  let ks = stored;
  if (out.tracing) {
    c.keySide = ks !== undefined ? keySideOf(ks) : side;
    c.keyRow = ks !== undefined ? keyRowOf(ks) : row;
  }
  const t = c.spec.timeKind === 'rowtime' ? rowTime(j, side, row) : c.opTime;
  if (t === undefined) {
    dropped(c, side, kind, row, 'its time attribute is null');
    return s.close();
  }
  const other = otherSide(side);
  const upper = t + relativeSize(c.spec, side);
  let emitted = false;
  // 1. expiration[O] < t + relSize(S): expiration[O] = opTime - relSize(O) - 1, walk O's cache
  if (s.expiration(other) < upper) {
    const exp = expirationTime(c.opTime, relativeSize(c.spec, other), WM_MAX);
    s.setExpiration(other, exp);
    if (ks !== undefined) {
      ks = probeOtherCache(c, ks, side, row, t, exp);
      emitted = c.emitted;
    }
  }
  // 2. opTime < t + relSize(S): cache r
  if (c.opTime < upper) ks = cacheRow(c, ks, side, row, t, emitted, key);
  // 3. not cached: pad at once if it joined nothing and S is outer
  else if (!emitted) notCached(c, side, row, upper);
  s.storeKey(key, stored, ks);
  return s.close();
}

/** A row the join drops before it reaches the state. */
function dropped(c: Call, side: Side, kind: RowKind, row: Row, reason: string): void {
  c.out.trace({ t: 'filter.drop', side, row: printRow(c.j, side, kind, row), reason });
}

/**
 * A row of `side` at time `t` probes the other side's cache of the current key: rows timed within
 * [t - relSize(other), t + relSize(side)] are joined (ascending time, then arrival), and every
 * row timed at or below `expiredUpTo` is removed, after padding it if it never joined and the
 * other side is outer. The cache is sorted, so the expired rows are a prefix and the scan stops
 * past `hi`. Returns the key's next state; `c.emitted`: whether the row joined something.
 */
function probeOtherCache(c: Call, ks: IntervalKeyState, side: Side, row: Row, t: number, expiredUpTo: number): IntervalKeyState {
  const s = c.s;
  const other = otherSide(side);
  const lo = t - relativeSize(c.spec, other);
  const hi = t + relativeSize(c.spec, side);
  const noKey = keyRejectsNull(c.j, side, row);
  // Only rows timed up to max(hi, expiredUpTo) join or expire: a prefix, as the cache is sorted.
  const n = cacheSize(ks, other);
  const bound = Math.max(hi, expiredUpTo);
  // One pass: how many rows (m), how many times among them, and how many expire (cut).
  let m = 0;
  let times = 0;
  let cut = 0;
  for (let last = 0; m < n; m++) {
    const time = timeAt(ks, other, m);
    if (time > bound) break;
    if (m === 0 || time !== last) times++;
    if (time <= expiredUpTo) cut = m + 1;
    last = time;
  }
  c.emitted = false;
  // One time (the common case): one run, nothing to order.
  if (times === 1) ks = probeRun(c, ks, side, row, t, 0, m, lo, hi, expiredUpTo, noKey);
  else if (times > 1) {
    const count = runsInMapOrder(s, ks, other, m);
    for (let r = 0; r < count; r++) {
      // The run of rows at one time, [i, end), in the order Flink walks its time map.
      ks = probeRun(c, ks, side, row, t, runs[2 * r] as number, runs[2 * r + 1] as number, lo, hi, expiredUpTo, noKey);
    }
  }
  // The expired runs are the prefix up to cut: removed once every run was walked.
  return cut > 0 ? s.expireFirst(ks, other, cut) : ks;
}

/**
 * The other side's run of rows [i, end) at one time, probed by a row of `side` at `t`: joined when
 * in [lo, hi], then removed when timed <= expiredUpTo (a prefix of the cache, as runs leave it
 * whole). Returns the key's next state; sets `c.emitted` when the row joined something.
 */
function probeRun(c: Call, ks: IntervalKeyState, side: Side, row: Row, t: number, i: number, end: number, lo: number, hi: number, expiredUpTo: number, noKey: boolean): IntervalKeyState {
  const other = otherSide(side);
  const time = timeAt(ks, other, i);
  // rows in range are joined; an outer O row that joins is flagged emitted
  if (time >= lo && time <= hi && !noKey) {
    const markOther = isOuter(c.j.plan, other);
    for (let k = i; k < end; k++) {
      if (!joinOne(c, side, row, t, rowAt(ks, other, k), time, lo, hi)) continue;
      c.emitted = true;
      if (markOther && !joinedAt(ks, other, k)) ks = c.s.markJoined(ks, other, k);
    }
  }
  // buckets timed <= expiration[O] are removed (eagerly), padding never-joined rows if O is outer
  if (time <= expiredUpTo) {
    expireRows(c, ks, other, i, end, c.out.tracing ? eagerReason(c, side, t, time, expiredUpTo) : NO_TEXT);
  }
  return ks;
}

/** Run boundaries [start, end) pairs filled by runsInMapOrder (calls never nest). */
const runs: number[] = [];

/**
 * Split side's first `m` cached rows (sorted by time) into runs of one row time, into `runs`, in
 * the order Flink's TimeIntervalJoin walks that side's MapState<Long, List<row>>: a
 * java.util.HashMap by Long key (flink-map-order.ts), then each time's rows in arrival order.
 * Within a bucket HashMap keeps first-put order: the order the times' first rows were cached.
 * Returns the number of runs. One time (the common case) sorts nothing.
 */
/** Sort order of the runs starting at x and y by when their times were put into side's map. */
function putOrder(s: IntervalStateView, ks: IntervalKeyState, side: Side, x: number, y: number): number {
  if (x === y) return 0;
  if (x < y) return s.putBefore(ks, side, x, y) ? -1 : 1;
  return s.putBefore(ks, side, y, x) ? 1 : -1;
}

function runsInMapOrder(s: IntervalStateView, ks: IntervalKeyState, side: Side, m: number): number {
  let count = 0;
  let i = 0;
  while (i < m) {
    const time = timeAt(ks, side, i);
    let end = i + 1;
    while (end < m && timeAt(ks, side, end) === time) end++;
    runs[2 * count] = i;
    runs[2 * count + 1] = end;
    count++;
    i = end;
  }
  if (count < 2) return count;
  const cap = hashMapCapacity(mapPeakOf(ks, side));
  const order: { i: number; end: number; b: number }[] = [];
  for (let r = 0; r < count; r++) {
    const start = runs[2 * r] as number;
    order.push({ i: start, end: runs[2 * r + 1] as number, b: hashMapBucket(longHash(timeAt(ks, side, start)), cap) });
  }
  // Within a bucket, the chain: times in the order they were put.
  order.sort((x, y) => x.b - y.b || putOrder(s, ks, side, x.i, y.i));
  for (let r = 0; r < count; r++) {
    const o = order[r] as { i: number; end: number };
    runs[2 * r] = o.i;
    runs[2 * r + 1] = o.end;
  }
  return count;
}

/** Emit +I[l, r] for one row of the other side when the condition accepts it. */
function joinOne(c: Call, side: Side, row: Row, t: number, otherRow: Row, otherTime: number, lo: number, hi: number): boolean {
  const { j, out } = c;
  const other = otherSide(side);
  if (!out.tracing && j.residual === undefined && out.emitPair !== undefined) {
    // No condition to evaluate: the sink may keep the two rows without a joined copy.
    if (side === 0) out.emitPair('+I', row, otherRow, bulkWhy('interval.match'));
    else out.emitPair('+I', otherRow, row, bulkWhy('interval.match'));
    return true;
  }
  const joined = side === 0 ? joinRow(j, row, otherRow) : joinRow(j, otherRow, row);
  if (!out.tracing) {
    if (!conditionHolds(j, joined, c.time.procTime)) return false;
    out.emit('+I', joined, bulkWhy('interval.match'));
    return true;
  }
  const mine = printRow(j, side, '+I', row);
  const theirs = printRow(j, other, '+I', otherRow);
  if (!conditionHolds(j, joined, c.time.procTime)) {
    out.trace({ t: 'no-match', side, row: mine, reason: `the join condition is not true for ${theirs}` });
    return false;
  }
  const window = `${printTime(j, otherTime)} within [${printTime(j, lo)}, ${printTime(j, hi)}]`;
  out.trace({ t: 'match', side, row: mine, other: theirs, detail: window });
  const text = `${sideName(side)} ${mine} at ${printTime(j, t)} matched ${sideName(other)} ${theirs} (${window})`;
  out.emit('+I', joined, { rule: 'interval.match', text, rows: [printRowOf(j, side, '+I', row), printRowOf(j, other, '+I', otherRow)] });
  return true;
}

/**
 * Cache r at t with the flag "joined something"; the first row of a side's cache registers its
 * cleanup timer. Returns the key's next state.
 */
function cacheRow(c: Call, ks: IntervalKeyState | undefined, side: Side, row: Row, t: number, emitted: boolean, key: string): IntervalKeyState {
  const s = c.s;
  // One cleanup timer per side per key, for the first cached row; expiry re-arms it later.
  const armed = ks === undefined ? undefined : cleanupOf(ks, side);
  const at = armed ?? cleanupTimeFor(c.spec, side, t);
  if (c.out.tracing) traceCached(c, side, row, t, emitted, armed === undefined ? at : undefined);
  const next = s.cacheRow(ks, side, t, row, emitted, at);
  if (armed === undefined) s.registerCleanup(key, ks, side, at);
  return next;
}

/** The traces of cacheRow (kept apart from it: see docs/decisions.md, the layout row). `timer`: the cleanup timer it registers. */
function traceCached(c: Call, side: Side, row: Row, t: number, emitted: boolean, timer: number | undefined): void {
  const { j, out } = c;
  out.trace({ t: 'state.add', side, key: c.key, row: printRow(j, side, '+I', row), detail: `cached at ${printTime(j, t)}${emitted ? ', already joined' : ''}` });
  if (timer !== undefined) out.trace({ t: 'timer.register', domain: c.domain, time: timer, key: c.key, purpose: `clean the ${sideName(side)} cache` });
}

/** A late row that joined nothing: padded at once if its side is outer. */
function notCached(c: Call, side: Side, row: Row, upper: number): void {
  const j = c.j;
  const other = otherSide(side);
  const because = () => `the ${sideName(other)} side's time ${printTime(j, c.opTime)} has passed its window end ${printTime(j, upper)}, so it is not cached`;
  if (isOuter(j.plan, side)) emitPadded(c, side, row, 'interval.pad', () => `it matched nothing and ${because()}`);
  else if (c.out.tracing) c.out.trace({ t: 'no-match', side, row: printRow(j, side, '+I', row), reason: because() });
}

/** Fire every due cleanup timer in order; timers that firing registers at or below `upTo` fire in the same pass, as in Flink's advanceWatermark loop. */
function onTimers(c: Call, state: IntervalState, time: OpTime, out: Collector, upTo: number): IntervalState {
  begin(c, state, time, out);
  for (let key = c.s.popTimer(upTo); key !== undefined; key = c.s.popTimer(upTo)) onTimer(c, key, c.s.firedAt);
  return c.s.close();
}

const RIGHT_THEN_LEFT = [1, 0] as const;

/** The cleanup timer of `key` at `at` (Flink's TimeIntervalJoin.onTimer). */
function onTimer(c: Call, key: string, at: number): void {
  const s = c.s;
  // The key's state, held here for the timer and stored back at the end.
  const stored = s.takeKey(key);
  if (stored === undefined) return;
  let ks = stored;
  if (c.out.tracing) {
    c.keySide = keySideOf(ks);
    c.keyRow = keyRowOf(ks);
  }
  if (c.out.tracing) c.out.trace({ t: 'timer.fire', domain: c.domain, time: at, key: c.key, purpose: 'interval cache cleanup' });
  // Flink checks the timer that cleans the right cache before the one that cleans the left cache.
  for (const side of RIGHT_THEN_LEFT) {
    if (!cleanedAt(ks, side, at)) continue;
    // expiration[S] = opTime - relSize(S) - 1
    const exp = expirationTime(c.opTime, relativeSize(c.spec, side), WM_MAX);
    s.setExpiration(side, exp);
    ks = removeExpired(c, ks, side, exp);
    // re-arm one timer for the earliest remaining row time
    const again = cleanupOf(ks, side);
    if (again !== undefined) s.registerCleanup(key, ks, side, again);
  }
  s.storeKey(key, stored, ks);
}

/**
 * Remove side's rows timed <= exp (padding never-joined rows of an outer side); re-arm side's
 * cleanup time, or unset it when empty. Returns the key's next state.
 */
function removeExpired(c: Call, ks: IntervalKeyState, side: Side, exp: number): IntervalKeyState {
  const s = c.s;
  let cut = 0;
  const n = cacheSize(ks, side);
  while (cut < n && timeAt(ks, side, cut) <= exp) cut++;
  const first = n > 0 ? timeAt(ks, side, 0) : exp;
  const reason = c.out.tracing ? timerReason(c, first, exp) : NO_TEXT;
  // Only paddings and traces show the order Flink walks its map in; an inner side's silent expiry does not.
  if (c.out.tracing || isOuter(c.j.plan, side)) {
    const count = runsInMapOrder(s, ks, side, cut);
    for (let r = 0; r < count; r++) expireRows(c, ks, side, runs[2 * r] as number, runs[2 * r + 1] as number, reason);
  } else expireRows(c, ks, side, 0, cut, reason);
  const earliest = cut < n ? timeAt(ks, side, cut) : undefined;
  if (earliest !== undefined && earliest > 0) {
    const at = cleanupTimeFor(c.spec, side, earliest);
    if (c.out.tracing) c.out.trace({ t: 'timer.register', domain: c.domain, time: at, key: c.key, purpose: `clean the ${sideName(side)} cache` });
    return s.setCleanup(s.expireFirst(ks, side, cut), side, at);
  }
  // Nothing left on either side and no timer: the key is dropped.
  const other = otherSide(side);
  if (cut === n && cacheSize(ks, other) === 0 && cleanupOf(ks, other) === undefined) return s.clearKey();
  // The earliest remaining row time is <= 0: Flink clears the whole cache, unpadded (a quirk kept).
  for (let i = cut; i < n; i++) {
    const reason = 'Flink clears the whole cache when the earliest remaining row time is <= 0 (TimeIntervalJoin quirk), without padding';
    c.out.flag(STEP_EXPIRE);
    if (c.out.tracing) c.out.trace({ t: 'state.expire', side, key: c.key, row: printRow(c.j, side, '+I', rowAt(ks, side, i)), reason });
  }
  // Flink clears the cache's map: the side's next row starts a new one.
  return s.setCleanup(s.expireFirst(ks, side, n, true), side, undefined);
}

/** Pad every never-joined row i in [from, to) of an outer side, and flag (and trace) the removal of each row. */
function expireRows(c: Call, ks: IntervalKeyState, side: Side, from: number, to: number, reason: () => string): void {
  const out = c.out;
  const outer = isOuter(c.j.plan, side);
  for (let i = from; i < to; i++) {
    if (outer && !joinedAt(ks, side, i)) {
      emitPadded(c, side, rowAt(ks, side, i), 'interval.pad-expired', out.tracing ? expiredBecause(reason) : NO_TEXT);
    }
    out.flag(STEP_EXPIRE);
    if (out.tracing) out.trace({ t: 'state.expire', side, key: c.key, row: printRow(c.j, side, '+I', rowAt(ks, side, i)), reason: reason() });
  }
}

/** Emit +I[r, nulls] (or +I[nulls, r]) for a row of `side`. */
function emitPadded(c: Call, side: Side, row: Row, rule: string, because: () => string): void {
  const { j, out } = c;
  if (!out.tracing && out.emitPair !== undefined) {
    if (side === 0) out.emitPair('+I', row, undefined, bulkWhy(rule));
    else out.emitPair('+I', undefined, row, bulkWhy(rule));
    return;
  }
  const joined = side === 0 ? joinRow(j, row, undefined) : joinRow(j, undefined, row);
  if (!out.tracing) {
    out.emit('+I', joined, bulkWhy(rule));
    return;
  }
  const text = `${sideName(side)} ${printRow(j, side, '+I', row)} is null-padded: ${because()}`;
  out.emit('+I', joined, { rule, text, rows: [printRowOf(j, side, '+I', row)] });
}

/** Reasons are only read when the step keeps text: bulk runs pass this one. */
const NO_TEXT = (): string => '';

function eagerReason(c: Call, side: Side, t: number, removedAt: number, expiredUpTo: number): () => string {
  return () => `eagerly removed while ${sideName(side)} row at ${printTime(c.j, t)} scanned the cache: ${printTime(c.j, removedAt)} <= ${printTime(c.j, expiredUpTo)}`;
}

function timerReason(c: Call, first: number, exp: number): () => string {
  return () => `the cleanup timer fired: ${printTime(c.j, first)} <= ${printTime(c.j, exp)}`;
}

function expiredBecause(reason: () => string): () => string {
  return () => `it matched nothing before it expired (${reason()})`;
}

function negativeWindow(j: JoinRows, state: IntervalState, side: Side, row: Row, out: Collector): IntervalState {
  const because = j.plan.interval?.alwaysFalse === true
    ? 'the join condition simplifies to FALSE, so Flink builds no interval join and nothing can ever match'
    : 'the interval is empty (upper bound < lower bound), so Flink builds no join and nothing can ever match';
  if (isOuter(j.plan, side)) {
    const joined = side === 0 ? joinRow(j, row, undefined) : joinRow(j, undefined, row);
    const text = `${sideName(side)} ${printRow(j, side, '+I', row)} is null-padded at once: ${because}`;
    out.emit('+I', joined, out.tracing ? { rule: 'interval.pad', text, rows: [printRowOf(j, side, '+I', row)] } : bulkWhy('interval.pad'));
  } else {
    out.trace({ t: 'no-match', side, row: printRow(j, side, '+I', row), reason: because });
  }
  return state;
}

/** The state pane: each side's cache per key, with flags and expiry times. */
function describeIntervalSide(j: JoinRows, spec: IntervalSpec, state: IntervalState, side: Side, _time: OpTime): StateView {
  const rel = relativeSize(spec, side);
  const domain = spec.timeKind === 'rowtime' ? 'event' : 'proc';
  if (spec.negativeWindow || spec.alwaysFalse === true) {
    return stateViewOf(spec.negativeWindow ? 'no state: the interval is empty (upper < lower), Flink builds no join operator' : 'no state: the join condition is always FALSE, Flink builds no interval join', []);
  }
  const layout =
    `per join key · ${sideName(side)} cache: time -> rows (joined flag) · ` +
    `a row at t expires when ${spec.timeKind === 'rowtime' ? 'the watermark' : 'processing time'} passes t + ${printSpan(rel)}` +
    (spec.minCleanupMs > 0 ? ` (removed by a timer up to ${printSpan(spec.minCleanupMs)} later, or earlier by a scan)` : '');
  // Keys without rows on this side show nothing: left out before their keys are printed and sorted.
  const keys = keyStatesOf(state.keys)
    .filter((ks) => cacheSize(ks, side) > 0)
    .map((ks) => ({ ks, printed: printKey(j, keySideOf(ks), keyRowOf(ks)) }))
    .sort((a, b) => (a.printed < b.printed ? -1 : a.printed > b.printed ? 1 : 0));
  return groupedStateView(layout, keys, ({ ks }) => cacheSize(ks, side), ({ ks, printed }, i) => {
    const time = timeAt(ks, side, i);
    const tags = [`t=${printTime(j, time)}`];
    if (isOuter(j.plan, side)) tags.push(joinedAt(ks, side, i) ? 'joined' : 'not joined yet');
    const cleanup = cleanupOf(ks, side);
    if (cleanup !== undefined) tags.push(`cleanup timer ${printTime(j, cleanup)}`);
    return {
      key: printed,
      row: printRow(j, side, '+I', rowAt(ks, side, i)),
      tags,
      expiresAt: cleanupTimeFor(spec, side, time),
      expiryDomain: domain,
    };
  });
}
