/**
 * The interval join's state layer (Flink's TimeIntervalJoin keeps, per join key, a MapState per
 * side from row time to rows with an "emitted" flag, plus one cleanup-timer time per side; and,
 * per operator, the left and right expiration times and the cleanup timers).
 *
 * The operator speaks to an IntervalStateView: open it on the state, take a key's state (which the
 * operator holds while it processes the element or timer), read the key's caches, cache a row,
 * mark a row joined, expire a cache's first rows, register or pop a timer, then store the key's
 * state and close the view. Everything about how that is stored lives here, once:
 *
 * - one join key's state is ONE flat array:
 *
 *     [meta, keyRow, cleanup0, cleanup1, map0, map1, time, row, (joined,) time, row, (joined,) ...]
 *                                                    left cache: [HEAD, split)  right cache: [split, end)
 *
 *   meta = flags | split << 3: flags bit 0 the side the key was first seen with (keySide); bits 1
 *   and 2 whether the left / right side is outer (its rows then carry a joined flag); split where
 *   the right cache starts. keySide / keyRow: the side and row the key was first seen with (the
 *   printed key is built from them only when a trace or the state pane needs it). cleanupN: the
 *   time of the timer that cleans side N's cache (Flink stores these crossed: its
 *   `rightTimerState` cleans the left cache), undefined = none. mapN: what decides the order in
 *   which Flink walks side N's cache (a java.util.HashMap from row time to rows, see
 *   flink-map-order.ts): its distinct row times, plus MAP_PEAK x the most it has held since Flink
 *   created it (it is dropped only when a cleanup timer empties it). Each side's cached rows are in
 *   ascending time then arrival order; `joined` = joined (and emitted) at least once. Flink keeps
 *   it up to date only for an outer side and nothing reads it for an inner one, so an inner side's
 *   rows take 2 slots (time, row), an outer side's 3.
 *   Why one array: checkpoints retain every key state they saw, and a key is mostly touched in one
 *   edit and not again until its rows expire, so what a key costs is what the GC copies and keeps.
 *   An object and two cache arrays cost three objects and three headers; this costs one.
 * - persistence (collections/edit.ts): a kept snapshot never changes. The view changes the
 *   operator state and a key state in place only when the current transient edit created them,
 *   else it copies them once per element (or once per timer pass), at their first change.
 */
import type { Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';
import { created, isEditable, resizedCopy } from '../collections/edit.js';
import { PMAP_EMPTY, type PMap } from '../collections/pmap.js';
import { KeyedStateView, keyedStateEntriesOf } from './keyed-state-view.js';
import { addNewTimer, EMPTY_TIMERS, type TimerQueue } from './timer-service.js';

type Slot = number | Row | boolean | undefined;
export type IntervalKeyState = readonly Slot[];
/** A key state that the caller may still change (not yet stored, or created in this edit). */
export type WritableKeyState = Slot[];

export interface IntervalState {
  readonly keys: PMap<IntervalKeyState>;
  /**
   * Flink's `leftExpirationTime` / `rightExpirationTime`: points up to which each cache is known
   * to be clean. They are fields of the operator instance, shared by all keys (not keyed state),
   * and start at 0.
   */
  readonly expiration0: number;
  readonly expiration1: number;
  /** Cleanup timers (event time for rowtime joins, processing time for proctime joins). */
  readonly timers: TimerQueue;
}

export const EMPTY_INTERVAL_STATE: IntervalState = Object.freeze({ keys: PMAP_EMPTY, expiration0: 0, expiration1: 0, timers: EMPTY_TIMERS });

/**
 * Flink's harness numKeyedStateEntries for this operator: a cache holding many rows counts once,
 * and each set cleanup-timer value counts once.
 */
export function keyedStateEntries(s: IntervalState): number {
  const filled = (ks: IntervalKeyState, side: Side): number => (cacheSize(ks, side) > 0 ? 1 : 0) + (cleanupOf(ks, side) !== undefined ? 1 : 0);
  return keyedStateEntriesOf(s.keys, (ks) => filled(ks, 0) + filled(ks, 1));
}

/** flags (3 bits) | split << 3 */
const META = 0;
const KEY_ROW = 1;
/** cleanup0 at CLEANUP, cleanup1 at CLEANUP + 1. */
const CLEANUP = 2;
/** map0 at MAP, map1 at MAP + 1: distinct times + MAP_PEAK x peak distinct times. */
const MAP = 4;
const MAP_PEAK = 2 ** 26;
const HEAD = 6;
/** What moving `split` by one slot adds to META. */
const SPLIT_UNIT = 8;

/** The layout flags of a join: which sides are outer (their rows carry a joined flag). */
export function layoutOf(outerLeft: boolean, outerRight: boolean): number {
  return (outerLeft ? 2 : 0) | (outerRight ? 4 : 0);
}

/** Slots per cached row of side: 3 with the joined flag (outer side), else 2. */
function widthOf(ks: IntervalKeyState, side: Side): number {
  return ((ks[META] as number) >> (1 + side)) & 1 ? 3 : 2;
}

export function keySideOf(ks: IntervalKeyState): Side {
  return ((ks[META] as number) & 1) as Side;
}

export function keyRowOf(ks: IntervalKeyState): Row {
  return ks[KEY_ROW] as Row;
}

export function cleanupOf(ks: IntervalKeyState, side: Side): number | undefined {
  return ks[CLEANUP + side] as number | undefined;
}

/**
 * Whether side's cache is cleaned by the timer at `at`. Unset is told apart first, so that the
 * time comparison only ever sees numbers: a comparison that also saw undefined was compiled to a
 * call of V8's generic equality stub, with `at` boxed for it, on every fired timer.
 */
export function cleanedAt(ks: IntervalKeyState, side: Side, at: number): boolean {
  const cleanup = ks[CLEANUP + side];
  return cleanup !== undefined && (cleanup as number) === at;
}

function splitOf(ks: IntervalKeyState): number {
  return (ks[META] as number) >> 3;
}

function start(ks: IntervalKeyState, side: Side): number {
  return side === 0 ? HEAD : splitOf(ks);
}

function stop(ks: IntervalKeyState, side: Side): number {
  return side === 0 ? splitOf(ks) : ks.length;
}

/** How many rows side's cache holds. */
export function cacheSize(ks: IntervalKeyState, side: Side): number {
  return (stop(ks, side) - start(ks, side)) / widthOf(ks, side);
}

export function timeAt(ks: IntervalKeyState, side: Side, i: number): number {
  return ks[start(ks, side) + i * widthOf(ks, side)] as number;
}

export function rowAt(ks: IntervalKeyState, side: Side, i: number): Row {
  return ks[start(ks, side) + i * widthOf(ks, side) + 1] as Row;
}

export function joinedAt(ks: IntervalKeyState, side: Side, i: number): boolean {
  // An inner side keeps no flag: nothing reads it there.
  return widthOf(ks, side) === 3 && (ks[start(ks, side) + i * 3 + 2] as boolean);
}

/**
 * The capacity-deciding size of side's time map: the most distinct row times it has held since
 * Flink created it (java.util.HashMap never shrinks).
 */
export function mapPeakOf(ks: IntervalKeyState, side: Side): number {
  return Math.floor((ks[MAP + side] as number) / MAP_PEAK);
}

/**
 * A key state of `n` slots to fill: every key state is made here or by resizedCopy, both as
 * `new Array(n)`, so that all of them share one elements kind (HOLEY_ELEMENTS) and one map. An
 * array literal (PACKED_ELEMENTS) or a frozen array beside them made every slot read polymorphic,
 * and the onTimer path fell back to V8's generic keyed-load stub (docs/decisions.md, "The interval
 * join's run (sixteenth session)").
 */
function blankKeyState(n: number): WritableKeyState {
  return new Array<Slot>(n);
}

/**
 * A key state with nothing left: what an expiry returns instead of copying, as storeKey drops it.
 * Not frozen (that would give it a map of its own, see blankKeyState): nothing changes it, as the
 * view changes in place only the states it made (mayChange).
 */
export const EMPTY_KEY_STATE: IntervalKeyState = emptyKeyState();

function emptyKeyState(): IntervalKeyState {
  const w = blankKeyState(HEAD);
  w[META] = 0;
  w[KEY_ROW] = undefined;
  w[CLEANUP] = undefined;
  w[CLEANUP + 1] = undefined;
  w[MAP] = 0;
  w[MAP + 1] = 0;
  return w;
}

/** No cached row and no cleanup timer: Flink would hold no state for the key. */
export function isEmptyKey(ks: IntervalKeyState): boolean {
  return ks.length === HEAD && ks[CLEANUP] === undefined && ks[CLEANUP + 1] === undefined;
}

/**
 * A new key's state: one row cached on `side`, whose cache is cleaned by a timer at `cleanup`.
 * `layout`: the join's layoutOf.
 */
export function newKeyState(layout: number, side: Side, row: Row, time: number, joined: boolean, cleanup: number): WritableKeyState {
  const left = side === 0;
  const cw = ((layout >> (1 + side)) & 1) === 0 ? 2 : 3;
  const w = blankKeyState(HEAD + cw);
  w[META] = layout | side | ((left ? HEAD + cw : HEAD) << 3);
  w[KEY_ROW] = row;
  w[CLEANUP] = left ? cleanup : undefined;
  w[CLEANUP + 1] = left ? undefined : cleanup;
  w[MAP] = left ? ONE_TIME : 0;
  w[MAP + 1] = left ? 0 : ONE_TIME;
  w[HEAD] = time;
  w[HEAD + 1] = row;
  if (cw === 3) w[HEAD + 2] = joined;
  return w;
}


/** A time map holding one time, and having held no more. */
const ONE_TIME = MAP_PEAK + 1;

/** From this many slots (16 to 24 cached rows) on, a key state created in the edit changes in place. */
const GROW_IN_PLACE = HEAD + 48;

/** `ks` itself when the current edit created it, else a copy the caller may change. */
export function writable(ks: IntervalKeyState): WritableKeyState {
  return mayChange(ks) ? (ks as WritableKeyState) : noted(resized(ks, ks.length, 0, 0));
}

/**
 * Whether the current edit created `ks`. Only copies of GROW_IN_PLACE slots or more are
 * registered, so a smaller one is not looked up in the edit's set (a registered state that shrank
 * below it is then merely copied once more); the last small copy that removed rows or set flags
 * is known here instead (see `noted`).
 */
function mayChange(ks: IntervalKeyState): boolean {
  if (ks === lastCopy) return isEditable(copiedIn);
  return ks.length >= GROW_IN_PLACE && isEditable(ks);
}

/**
 * The last copy made by `writable` or `withoutFirst`, and a token registered in the edit it was
 * made in: while that edit is current, nothing kept can see the copy, so it may change in place.
 * Expiry takes a key's rows out one cleanup timer after another (one per row time), mostly within
 * one edit: the first removal copies the key state, the next ones reuse that copy (and the key
 * map is not written again). Only shrinking reuses it: growing in place would leave V8's slack in
 * what checkpoints keep. A shrunk copy keeps its capacity, at most the slots removed in the edit.
 */
let lastCopy: IntervalKeyState | undefined;
let copiedIn: object = {};

function noted(w: WritableKeyState): WritableKeyState {
  if (!isEditable(copiedIn)) copiedIn = created({});
  lastCopy = w;
  return w;
}

/** A copy with `remove` slots at `at` taken out and `insert` free slots put there. */
function resized(ks: IntervalKeyState, at: number, remove: number, insert: number): WritableKeyState {
  return resizedCopy(ks, at, remove, insert, GROW_IN_PLACE);
}

/**
 * Where withRow reports a late put (a new time put into side's map while a later time was there,
 * see IntervalStateView.putBefore): the latest time then present, else undefined. withRow finds
 * both while it looks for the row's place, so the view's row path reads no cache size nor time of
 * its own.
 */
export interface PutOutcome {
  latestAtLatePut: number | undefined;
}

/**
 * Cache a row on `side` after every cached row timed <= time (rows mostly arrive in time order)
 * and set side's cleanup time. Reports a late put in `put`.
 */
export function withRow(ks: IntervalKeyState, side: Side, time: number, row: Row, joined: boolean, cleanup: number, put: PutOutcome): WritableKeyState {
  const cw = widthOf(ks, side);
  const from = start(ks, side);
  const end = stop(ks, side);
  let at = end;
  while (at > from && (ks[at - cw] as number) > time) at -= cw;
  // A new time (none equal before `at`: the rows are sorted) with later rows after it.
  put.latestAtLatePut = at < end && (at === from || (ks[at - cw] as number) !== time) ? (ks[end - cw] as number) : undefined;
  let w: WritableKeyState;
  if (mayChange(ks)) {
    w = ks as WritableKeyState;
    for (let k = 0; k < cw; k++) w.push(undefined);
    for (let i = w.length - 1; i >= at + cw; i--) w[i] = w[i - cw];
  } else {
    w = resized(ks, at, 0, cw);
  }
  // A new row time is a new key of Flink's time map: it may grow the map.
  if (at === from || (w[at - cw] as number) !== time) {
    const m = w[MAP + side] as number;
    const distinct = (m % MAP_PEAK) + 1;
    w[MAP + side] = Math.max(Math.floor(m / MAP_PEAK), distinct) * MAP_PEAK + distinct;
  }
  w[at] = time;
  w[at + 1] = row;
  if (cw === 3) w[at + 2] = joined;
  if (side === 0) w[META] = (w[META] as number) + cw * SPLIT_UNIT;
  w[CLEANUP + side] = cleanup;
  return w;
}

/**
 * Without side's first `k` rows (whole runs of row times). `inPlace`: `ks` is already the caller's
 * to change. `dropMap`: Flink clears the side's map (a cleanup timer left nothing in it), so its
 * next row starts a new one.
 */
export function withoutFirst(ks: IntervalKeyState, side: Side, k: number, inPlace = false, dropMap = false): WritableKeyState {
  const from = start(ks, side);
  const cw = widthOf(ks, side);
  const cut = k * cw;
  let times = 0;
  for (let i = from; i < from + cut; i += cw) if (i === from || ks[i] !== ks[i - cw]) times++;
  const m = ks[MAP + side] as number;
  let w: WritableKeyState;
  if (inPlace || mayChange(ks)) {
    w = ks as WritableKeyState;
    if (cut > 0) {
      for (let i = from + cut; i < w.length; i++) w[i - cut] = w[i];
      w.length -= cut;
    }
  } else {
    w = noted(resized(ks, from, cut, 0));
  }
  if (side === 0) w[META] = (w[META] as number) - cut * SPLIT_UNIT;
  w[MAP + side] = dropMap ? 0 : m - times;
  return w;
}

/** Flag side's row i joined, in `w` (the caller's to change); an inner side keeps no flag. */
export function setJoined(w: WritableKeyState, side: Side, i: number): void {
  if (widthOf(w, side) === 3) w[start(w, side) + i * 3 + 2] = true;
}

/** Set side's cleanup time in `w` (the caller's to change). */
export function setCleanup(w: WritableKeyState, side: Side, at: number | undefined): void {
  w[CLEANUP + side] = at;
}

type WritableState = { -readonly [P in keyof IntervalState]: IntervalState[P] };

/**
 * A row that put a new time into a side's map (a HashMap from row time to rows) while a later time
 * was already there: the order of such puts, and the latest time present at the put. Only these
 * are recorded (see IntervalStateView.putBefore): rows in time order, the usual case, cost nothing.
 */
interface LatePut {
  readonly n: number;
  readonly latest: number;
}

/**
 * Numbers of late puts, in put order. A row object keeps its record: replaying from a kept
 * snapshot caches later rows again, the same state deciding the same, and new row objects get
 * numbers above every row the snapshot holds, so the relative order stays right.
 */
let nextLatePut = 0;

/**
 * The operator's view of its state while it processes one element or one timer pass. An operator
 * keeps one and reopens it per call (calls never nest). A join key's state is the caller's between
 * takeKey and storeKey; close() returns the new operator state, `state` itself when nothing changed.
 */
export class IntervalStateView extends KeyedStateView<IntervalKeyState, IntervalState> {
  private exp0 = 0;
  private exp1 = 0;
  private timers: TimerQueue = EMPTY_TIMERS;
  /** The late puts of this operator's rows, by row object (one view per operator). */
  private readonly latePuts = new WeakMap<Row, LatePut>();
  /** What the last withRow reported. */
  private readonly put: PutOutcome = { latestAtLatePut: undefined };

  /** `layout`: which sides are outer (layoutOf), for new key states. */
  constructor(private readonly layout: number) {
    super(EMPTY_INTERVAL_STATE);
  }

  protected load(state: IntervalState): void {
    this.exp0 = state.expiration0;
    this.exp1 = state.expiration1;
    if (this.timers !== state.timers) this.timers = state.timers;
  }

  protected unchanged(state: IntervalState): boolean {
    return this.exp0 === state.expiration0 && this.exp1 === state.expiration1 && this.timers === state.timers;
  }

  protected storeIn(state: IntervalState, keys: PMap<IntervalKeyState>): void {
    const w = state as WritableState;
    w.keys = keys;
    w.expiration0 = this.exp0;
    w.expiration1 = this.exp1;
    w.timers = this.timers;
  }

  protected fresh(keys: PMap<IntervalKeyState>): IntervalState {
    return { keys, expiration0: this.exp0, expiration1: this.exp1, timers: this.timers };
  }

  expiration(side: Side): number {
    return side === 0 ? this.exp0 : this.exp1;
  }

  setExpiration(side: Side, time: number): void {
    if (side === 0) this.exp0 = time;
    else this.exp1 = time;
  }

  /**
   * Register the timer that cleans side's cache of `key` at `time`, where `ks` is the key's state
   * with the other side's cleanup time as it stands. A key's timers are its two cleanup times, so
   * (key, time) is queued already exactly when the other side's cleanup is at `time`: Flink's
   * timer set then keeps its one timer, which cleans both caches. Else the timer is added
   * without a lookup. (While a timer fires, its time is still the other side's cleanup but no
   * longer queued; a cleanup that pass registers is later than it, as its rows outlived it.)
   */
  registerCleanup(key: string, ks: IntervalKeyState | undefined, side: Side, time: number): void {
    if (ks !== undefined && cleanedAt(ks, side === 0 ? 1 : 0, time)) return;
    this.timers = addNewTimer(this.timers, key, time);
  }

  /** The key of the earliest timer timed <= upTo, which is removed (its time in `firedAt`); else undefined. */
  popTimer(upTo: number): string | undefined {
    this.timers = this.takeDue(this.timers, upTo);
    return this.fired.key;
  }

  /**
   * Cache a row on `side` at `time` (after the rows timed <= time) and set side's cleanup time;
   * returns the key's next state (`ks`: the caller's, undefined for a key without state).
   */
  cacheRow(ks: IntervalKeyState | undefined, side: Side, time: number, row: Row, joined: boolean, cleanup: number): IntervalKeyState {
    if (ks === undefined) return this.made(newKeyState(this.layout, side, row, time, joined, cleanup));
    const put = this.put;
    const w = withRow(ks, side, time, row, joined, cleanup, put);
    const latest = put.latestAtLatePut;
    if (latest !== undefined && !this.latePuts.has(row)) this.latePuts.set(row, { n: nextLatePut++, latest });
    return this.made(w);
  }

  /** Flag side's row i as joined (an inner side keeps no flag); returns the key's next state. */
  markJoined(ks: IntervalKeyState, side: Side, i: number): IntervalKeyState {
    const w = this.changeable(ks) as WritableKeyState;
    setJoined(w, side, i);
    return w;
  }

  /**
   * Remove side's first `n` rows (the cache is sorted by time: an expired run is a prefix);
   * returns the key's next state. `dropMap`: a cleanup timer emptied the cache, and Flink clears
   * its map.
   */
  expireFirst(ks: IntervalKeyState, side: Side, n: number, dropMap = false): IntervalKeyState {
    return this.made(withoutFirst(ks, side, n, this.mine, dropMap));
  }

  /**
   * Whether the run of side's rows starting at i (the rows of one time; runs leave the cache whole)
   * put its time into Flink's map before the run starting at j, i < j (so time i < time j): a
   * HashMap bucket chains its keys in put order. A cache loses only its earliest times, so every
   * time present when a run was put is still there while that run is. Hence a run put in time
   * order (no later time present) came before every later time; a late put came after exactly
   * the times up to the latest one present at its put; two late puts compare by their numbers.
   */
  putBefore(ks: IntervalKeyState, side: Side, i: number, j: number): boolean {
    const a = this.latePuts.get(rowAt(ks, side, i));
    if (a === undefined) return true;
    const b = this.latePuts.get(rowAt(ks, side, j));
    return b === undefined ? timeAt(ks, side, j) > a.latest : a.n < b.n;
  }

  /** Set side's cleanup time; returns the key's next state. */
  setCleanup(ks: IntervalKeyState, side: Side, time: number | undefined): IntervalKeyState {
    const w = this.changeable(ks) as WritableKeyState;
    setCleanup(w, side, time);
    return w;
  }

  /** Nothing is left for the key on either side: the state to return, which storeKey drops. */
  clearKey(): IntervalKeyState {
    return this.sharedState(EMPTY_KEY_STATE);
  }

  protected isEmpty(ks: IntervalKeyState): boolean {
    return isEmptyKey(ks);
  }

  protected copy(ks: IntervalKeyState): IntervalKeyState {
    return writable(ks);
  }
}
