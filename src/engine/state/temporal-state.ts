/**
 * The event-time temporal join's state layer (Flink's TemporalRowTimeJoinOperator keeps, per join
 * key, the buffered probe rows, the build versions by time, nextLeftIndex, the registered
 * event-time timer, and with retention BaseTwoInputStreamOperatorWithStateRetention's cleanup
 * timer; per operator, the event-time and processing-time timers).
 *
 * The operator speaks to a TemporalStateView: open it on the state, take a key's state (which the
 * operator holds while it processes the element or timer), buffer a probe row, store a version,
 * read the version valid at a time, release the probe rows up to the watermark with the versions
 * older than the one in use, set the key's timer fields, register and pop timers, then store the
 * key's state and close the view. Everything about how that is stored lives here:
 *
 * - one join key's state is ONE flat array:
 *
 *     [printedKey, nextSeq, timer, cleanupAt, split, seq, time, kind, row, ..., time, kind, row, ...]
 *                                                    probes: [Head, split)   versions: [split, end)
 *
 *   printedKey: the join key as people read it; nextSeq: Flink's nextLeftIndex (undefined once
 *   cleared); timer: Flink's registeredTimer, the single pending event-time timer; cleanupAt:
 *   Flink's latestRegisteredCleanupTimer (processing time, with retention); undefined = none.
 *   Probes (left rows waiting for the watermark) are in arrival order, 4 slots each: seq is
 *   Flink's nextLeftIndex value for the row, emission follows it (arrival order), not time.
 *   Versions (build rows) are in ascending, unique time, 3 slots each; any kind is stored, a -U /
 *   -D version means "no row from this time on".
 *   Why one array: checkpoints retain every key state they saw, and each key is mostly touched in
 *   one edit and then not for a long while, so the objects and headers of a key state are what
 *   the GC copies and what a run keeps (an object plus arrays of probe and version objects before).
 * - persistence (collections/edit.ts): every change of a key state returns a writable array, `ks`
 *   itself when the current edit created it or an exact-size copy, which the view goes on
 *   changing until it stores it; only large copies are registered (they then grow in place).
 *   The operator state is copied once per element or timer pass, at close, when it changed and
 *   the current edit did not create it.
 */
import type { Row, RowKind } from '../../values/types.js';
import { created, isEditable, resizedCopy } from '../collections/edit.js';
import { PMAP_EMPTY, type PMap } from '../collections/pmap.js';
import { KeyedStateView, keyedStateEntriesOf } from './keyed-state-view.js';
import { addTimer, deleteTimer, EMPTY_TIMERS, type TimerQueue } from './timer-service.js';

/** Which timers: event time (emit probe rows, clean versions) or processing time (retention). */
export type TimeDomain = 'event' | 'proc';

export interface TemporalState {
  readonly keys: PMap<TemporalKeyState>;
  readonly eventTimers: TimerQueue;
  readonly procTimers: TimerQueue;
}

export const EMPTY_TEMPORAL_STATE: TemporalState = Object.freeze({ keys: PMAP_EMPTY, eventTimers: EMPTY_TIMERS, procTimers: EMPTY_TIMERS });

/** Flink's harness numKeyedStateEntries for this operator: (key, state) pairs that hold a value. */
export function temporalStateEntries(s: TemporalState): number {
  const set = (v: unknown): number => (v !== undefined ? 1 : 0);
  return keyedStateEntriesOf(s.keys, (ks) => (probeCount(ks) > 0 ? 1 : 0) + (versionCount(ks) > 0 ? 1 : 0) + set(nextSeqOf(ks)) + set(timerOf(ks)) + set(cleanupAtOf(ks)));
}

type Slot = number | string | Row | undefined;
export type TemporalKeyState = readonly Slot[];
/** A key state that the caller may still change (not yet stored, or created in this edit). */
export type WritableTKey = Slot[];

/** A key state's fixed slots; its probe rows and versions follow from Head on. */
const enum KeySlot {
  PrintedKey,
  NextSeq,
  Timer,
  CleanupAt,
  Split,
  Head,
}
/** Slots per probe row and per version. */
const PW = 4;
const VW = 3;
/** From this many slots on, a key state created in the edit changes in place. */
const GROW_IN_PLACE = KeySlot.Head + 16 * PW;

export const printedKeyOf = (ks: TemporalKeyState): string => ks[KeySlot.PrintedKey] as string;
export const nextSeqOf = (ks: TemporalKeyState): number | undefined => ks[KeySlot.NextSeq] as number | undefined;
export const timerOf = (ks: TemporalKeyState): number | undefined => ks[KeySlot.Timer] as number | undefined;
export const cleanupAtOf = (ks: TemporalKeyState): number | undefined => ks[KeySlot.CleanupAt] as number | undefined;

export function setNextSeq(w: WritableTKey, v: number | undefined): void {
  w[KeySlot.NextSeq] = v;
}
export function setTimer(w: WritableTKey, v: number | undefined): void {
  w[KeySlot.Timer] = v;
}
export function setCleanupAt(w: WritableTKey, v: number | undefined): void {
  w[KeySlot.CleanupAt] = v;
}

export const probeCount = (ks: TemporalKeyState): number => ((ks[KeySlot.Split] as number) - KeySlot.Head) / PW;
export const probeSeq = (ks: TemporalKeyState, i: number): number => ks[KeySlot.Head + i * PW] as number;
export const probeTime = (ks: TemporalKeyState, i: number): number => ks[KeySlot.Head + i * PW + 1] as number;
export const probeKind = (ks: TemporalKeyState, i: number): RowKind => ks[KeySlot.Head + i * PW + 2] as RowKind;
export const probeRow = (ks: TemporalKeyState, i: number): Row => ks[KeySlot.Head + i * PW + 3] as Row;

export const versionCount = (ks: TemporalKeyState): number => (ks.length - (ks[KeySlot.Split] as number)) / VW;
export const versionTime = (ks: TemporalKeyState, i: number): number => ks[(ks[KeySlot.Split] as number) + i * VW] as number;
export const versionKind = (ks: TemporalKeyState, i: number): RowKind => ks[(ks[KeySlot.Split] as number) + i * VW + 1] as RowKind;
export const versionRow = (ks: TemporalKeyState, i: number): Row => ks[(ks[KeySlot.Split] as number) + i * VW + 2] as Row;

/**
 * A key's empty state. Made with `new Array(n)`, as every copy (resizedCopy, withReleased) is, so
 * that all key states share V8's holey elements kind: a literal's packed kind beside the copies'
 * holey one made every accessor polymorphic and deoptimised the state's verbs mid-run
 * (docs/decisions.md, sixteenth session).
 */
export function newTKey(printedKey: string): WritableTKey {
  const w = new Array<Slot>(KeySlot.Head);
  w[KeySlot.PrintedKey] = printedKey;
  w[KeySlot.NextSeq] = undefined;
  w[KeySlot.Timer] = undefined;
  w[KeySlot.CleanupAt] = undefined;
  w[KeySlot.Split] = KeySlot.Head;
  return w;
}

/** Nothing buffered, no version, no sequence and no timer: Flink would hold no state for the key. */
export function isEmptyTKey(ks: TemporalKeyState): boolean {
  return ks.length === KeySlot.Head && ks[KeySlot.NextSeq] === undefined && ks[KeySlot.Timer] === undefined && ks[KeySlot.CleanupAt] === undefined;
}

/** `ks` itself when the current edit created it, else a copy the caller may change. */
export function writableTKey(ks: TemporalKeyState): WritableTKey {
  return isEditable(ks) ? (ks as WritableTKey) : resized(ks, ks.length, 0, 0);
}

/** A copy with `remove` slots at `at` taken out and `insert` free slots put there. */
function resized(ks: TemporalKeyState, at: number, remove: number, insert: number): WritableTKey {
  return resizedCopy(ks, at, remove, insert, GROW_IN_PLACE);
}

/** `width` free slots at `at`: in place when editable and large, else in an exact-size copy. */
function opened(ks: TemporalKeyState, at: number, width: number): WritableTKey {
  if (ks.length < GROW_IN_PLACE || !isEditable(ks)) return resized(ks, at, 0, width);
  const w = ks as WritableTKey;
  for (let k = 0; k < width; k++) w.push(undefined);
  for (let i = w.length - 1; i >= at + width; i--) w[i] = w[i - width];
  return w;
}

/** A probe row buffered after the others (arrival order). */
export function withProbe(ks: TemporalKeyState, seq: number, time: number, kind: RowKind, row: Row): WritableTKey {
  const at = ks[KeySlot.Split] as number;
  const w = opened(ks, at, PW);
  w[at] = seq;
  w[at + 1] = time;
  w[at + 2] = kind;
  w[at + 3] = row;
  w[KeySlot.Split] = at + PW;
  return w;
}

/** Index of the version for exactly `time`, or -1. */
export function versionIndexOf(ks: TemporalKeyState, time: number): number {
  for (let i = 0; i < versionCount(ks); i++) if (versionTime(ks, i) === time) return i;
  return -1;
}

/** Store a version, overwriting one with the same time (Flink's MapState keyed by build time). */
export function withVersion(ks: TemporalKeyState, time: number, kind: RowKind, row: Row): WritableTKey {
  const from = ks[KeySlot.Split] as number;
  let at = ks.length;
  while (at > from && (ks[at - VW] as number) >= time) at -= VW;
  let w: WritableTKey;
  if (at < ks.length && ks[at] === time) w = writableTKey(ks);
  else w = opened(ks, at, VW);
  w[at] = time;
  w[at + 1] = kind;
  w[at + 2] = row;
  return w;
}

/** The version valid at `time`: the index of the latest with version time <= time, or -1. */
export function versionAt(ks: TemporalKeyState, time: number): number {
  let found = -1;
  for (let i = 0; i < versionCount(ks); i++) {
    if (versionTime(ks, i) > time) break;
    found = i;
  }
  return found;
}

/**
 * Flink's cleanupExpiredVersionInState: keep the last version <= watermark and everything newer;
 * with no version <= watermark nothing goes. Returns how many versions (oldest first) go.
 */
export function expiredVersions(ks: TemporalKeyState, watermark: number): number {
  const n = versionCount(ks);
  let firstNewer = 0;
  while (firstNewer < n && versionTime(ks, firstNewer) <= watermark) firstNewer++;
  const keepFrom = firstNewer === n ? n - 1 : firstNewer - 1;
  return keepFrom <= 0 ? 0 : keepFrom;
}

/**
 * The key state without its probe rows timed <= watermark (the others stay in order) and without
 * its first `gone` versions: one copy (or in place when editable), as a timer firing changes both.
 */
export function withReleased(ks: TemporalKeyState, watermark: number, gone: number): WritableTKey {
  const split = ks[KeySlot.Split] as number;
  const n = probeCount(ks);
  let kept = 0;
  for (let i = 0; i < n; i++) if (probeTime(ks, i) > watermark) kept++;
  const newSplit = KeySlot.Head + kept * PW;
  const size = newSplit + ks.length - split - gone * VW;
  const inPlace = isEditable(ks);
  // In place, every slot moves to a lower or equal index, so a forward copy is safe.
  const w: WritableTKey = inPlace ? (ks as WritableTKey) : new Array<Slot>(size);
  for (let i = 0; i < KeySlot.Head; i++) w[i] = ks[i];
  let o = KeySlot.Head;
  for (let i = 0; i < n; i++) {
    if (probeTime(ks, i) <= watermark) continue;
    for (let k = 0; k < PW; k++) w[o + k] = ks[KeySlot.Head + i * PW + k];
    o += PW;
  }
  for (let i = split + gone * VW; i < ks.length; i++) w[o++] = ks[i];
  // A new array already has its exact size (setting length is a runtime call).
  if (inPlace) w.length = size;
  w[KeySlot.Split] = newSplit;
  return !inPlace && size >= GROW_IN_PLACE ? created(w) : w;
}

type WritableState = { -readonly [P in keyof TemporalState]: TemporalState[P] };

/**
 * The operator's view of its state while it processes one element or one timer pass (an operator
 * keeps one and reopens it per call; calls never nest). A join key's state is the caller's between
 * takeKey and storeKey: each verb that changes it takes the caller's and returns the next one.
 * close() returns the new operator state, `state` itself when nothing changed.
 */
export class TemporalStateView extends KeyedStateView<TemporalKeyState, TemporalState> {
  private eventTimers: TimerQueue = EMPTY_TIMERS;
  private procTimers: TimerQueue = EMPTY_TIMERS;

  constructor() {
    super(EMPTY_TEMPORAL_STATE);
  }

  protected load(state: TemporalState): void {
    if (this.eventTimers !== state.eventTimers) this.eventTimers = state.eventTimers;
    if (this.procTimers !== state.procTimers) this.procTimers = state.procTimers;
  }

  protected unchanged(state: TemporalState): boolean {
    return this.eventTimers === state.eventTimers && this.procTimers === state.procTimers;
  }

  protected storeIn(state: TemporalState, keys: PMap<TemporalKeyState>): void {
    const w = state as WritableState;
    w.keys = keys;
    w.eventTimers = this.eventTimers;
    w.procTimers = this.procTimers;
  }

  protected fresh(keys: PMap<TemporalKeyState>): TemporalState {
    return { keys, eventTimers: this.eventTimers, procTimers: this.procTimers };
  }

  /** An empty state for a key that takeKey did not find, printed as `printedKey`. */
  startKey(printedKey: string): TemporalKeyState {
    return this.made(newTKey(printedKey));
  }

  /** Set Flink's nextLeftIndex; returns the key's next state (`ks`: the caller's, as for every verb below). */
  setNextSeq(ks: TemporalKeyState, v: number | undefined): TemporalKeyState {
    const w = this.changeable(ks) as WritableTKey;
    setNextSeq(w, v);
    return w;
  }

  /** The key's pending event-time timer (Flink's registeredTimer). */
  setTimer(ks: TemporalKeyState, v: number | undefined): TemporalKeyState {
    const w = this.changeable(ks) as WritableTKey;
    setTimer(w, v);
    return w;
  }

  /** The key's pending retention timer (Flink's latestRegisteredCleanupTimer). */
  setCleanupAt(ks: TemporalKeyState, v: number | undefined): TemporalKeyState {
    const w = this.changeable(ks) as WritableTKey;
    setCleanupAt(w, v);
    return w;
  }

  /** Buffer a probe row after the others (arrival order). */
  addProbe(ks: TemporalKeyState, seq: number, time: number, kind: RowKind, row: Row): TemporalKeyState {
    return this.made(withProbe(ks, seq, time, kind, row));
  }

  /** Store a version, overwriting one with the same time. */
  putVersion(ks: TemporalKeyState, time: number, kind: RowKind, row: Row): TemporalKeyState {
    return this.made(withVersion(ks, time, kind, row));
  }

  /** Take out the probe rows timed <= watermark (the others stay in order) and the first `gone` versions. */
  release(ks: TemporalKeyState, watermark: number, gone: number): TemporalKeyState {
    return this.made(withReleased(ks, watermark, gone));
  }

  /** Clear everything the key holds (its printed key stays, for traces). */
  clearKey(ks: TemporalKeyState): TemporalKeyState {
    return this.made(newTKey(printedKeyOf(ks)));
  }

  registerTimer(domain: TimeDomain, key: string, time: number): void {
    if (domain === 'event') this.eventTimers = addTimer(this.eventTimers, key, time);
    else this.procTimers = addTimer(this.procTimers, key, time);
  }

  deleteTimer(domain: TimeDomain, key: string, time: number): void {
    if (domain === 'event') this.eventTimers = deleteTimer(this.eventTimers, key, time);
    else this.procTimers = deleteTimer(this.procTimers, key, time);
  }

  /** The key of the domain's earliest timer timed <= upTo, which is removed (its time in `firedAt`); else undefined. */
  popTimer(domain: TimeDomain, upTo: number): string | undefined {
    if (domain === 'event') this.eventTimers = this.takeDue(this.eventTimers, upTo);
    else this.procTimers = this.takeDue(this.procTimers, upTo);
    return this.fired.key;
  }

  protected isEmpty(ks: TemporalKeyState): boolean {
    return isEmptyTKey(ks);
  }

  protected copy(ks: TemporalKeyState): TemporalKeyState {
    return writableTKey(ks);
  }
}
