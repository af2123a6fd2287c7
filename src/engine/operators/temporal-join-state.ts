/**
 * The event-time temporal join's state as plain data (Flink's TemporalRowTimeJoinOperator plus
 * the retention timer of BaseTwoInputStreamOperatorWithStateRetention), and its timer rules.
 */
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';
import type { Row, RowKind } from '../../values/types.js';
import { addTimer, deleteTimer, EMPTY_TIMERS, type TimerQueue } from './interval-join-timers.js';
import { created, isEditable } from '../collections/edit.js';
import { own } from './interval-join-state.js';

/** A buffered probe (left) row, waiting for the watermark to pass its time. */
export interface ProbeRow {
  /** Flink's nextLeftIndex value: emission follows it (arrival order), not time. */
  readonly seq: number;
  readonly time: number;
  readonly kind: RowKind;
  readonly row: Row;
}

/** A build-side version: one per build time (a later arrival for the same time overwrites). */
export interface Version {
  readonly time: number;
  /** Any kind is stored; a -U / -D version means "no row from this time on". */
  readonly kind: RowKind;
  readonly row: Row;
}

export interface TemporalKeyState {
  readonly printedKey: string;
  /** In arrival order. */
  readonly probes: readonly ProbeRow[];
  readonly nextSeq?: number;
  /** Ascending time, unique times. */
  readonly versions: readonly Version[];
  /** Flink's registeredTimer: the single pending event-time timer of the key. */
  readonly timer?: number;
  /** Flink's latestRegisteredCleanupTimer (processing time), when retention is on. */
  readonly cleanupAt?: number;
}

export interface TemporalState {
  readonly keys: PMap<TemporalKeyState>;
  readonly eventTimers: TimerQueue;
  readonly procTimers: TimerQueue;
}

export const EMPTY_TEMPORAL_STATE: TemporalState = Object.freeze({ keys: PMAP_EMPTY, eventTimers: EMPTY_TIMERS, procTimers: EMPTY_TIMERS });

/** State retention from table.exec.state.ttl: min = ttl, max = ttl * 3 / 2, on only if min > 1 ms. */
export interface Retention {
  readonly enabled: boolean;
  readonly minMs: number;
  readonly maxMs: number;
}

export function retentionOf(ttlMs: number): Retention {
  return { enabled: ttlMs > 1, minMs: ttlMs, maxMs: Math.floor((ttlMs * 3) / 2) };
}

const NONE: readonly never[] = Object.freeze([]);

export function getTKey(s: TemporalState, key: string, printedKey: string): TemporalKeyState {
  return pmGet(s.keys, key) ?? newTKey(printedKey);
}

/** A key's empty state (every field present, so that all key states share one shape). */
export function newTKey(printedKey: string): TemporalKeyState {
  return created({ printedKey, probes: NONE, nextSeq: undefined, versions: NONE, timer: undefined, cleanupAt: undefined });
}

/** `stored`: the state the map held for the key when the operation began, if any. */
export function putTKey(s: TemporalState, key: string, ks: TemporalKeyState, stored?: TemporalKeyState): TemporalState {
  const empty =
    ks.probes.length === 0 && ks.versions.length === 0 && ks.nextSeq === undefined && ks.timer === undefined && ks.cleanupAt === undefined;
  // Changed in place, the stored state needs no second map walk.
  if (!empty && ks === stored) return s;
  const keys = empty ? pmDelete(s.keys, key) : pmSet(s.keys, key, ks);
  if (keys === s.keys) return s;
  const w = own(s);
  w.keys = keys;
  return w;
}

export type WritableKey = { -readonly [P in keyof TemporalKeyState]: TemporalKeyState[P] };

/**
 * The key state, writable: itself when the current edit created it, else a registered copy made
 * by a literal (one shape, every field in the object: a spread copy can spill fields into a
 * separate property array, which every checkpoint would retain).
 */
export function ownTKey(ks: TemporalKeyState): WritableKey {
  if (isEditable(ks)) return ks as WritableKey;
  return created({ printedKey: ks.printedKey, probes: ks.probes, nextSeq: ks.nextSeq, versions: ks.versions, timer: ks.timer, cleanupAt: ks.cleanupAt });
}

export function withEventTimers(s: TemporalState, q: TimerQueue): TemporalState {
  if (s.eventTimers === q) return s;
  const w = own(s);
  w.eventTimers = q;
  return w;
}

export function withProcTimers(s: TemporalState, q: TimerQueue): TemporalState {
  if (s.procTimers === q) return s;
  const w = own(s);
  w.procTimers = q;
  return w;
}

/**
 * `xs` plus `x` at the end: a small array is copied at its exact size (checkpoints retain it, and
 * V8's growth slack would cost more than the copy); a large editable one grows in place.
 */
export function appended<T>(xs: readonly T[], x: T): readonly T[] {
  if (xs.length >= GROW_IN_PLACE && isEditable(xs)) {
    (xs as T[]).push(x);
    return xs;
  }
  const c = new Array<T>(xs.length + 1);
  for (let i = 0; i < xs.length; i++) c[i] = xs[i] as T;
  c[xs.length] = x;
  // Only an array that may grow in place later needs registering (each one costs a Set entry).
  return c.length >= GROW_IN_PLACE ? created(c) : c;
}

const GROW_IN_PLACE = 16;

/**
 * The timer rules below change the key's state `w` (writable: from ownTKey) in place and return
 * the operator state with its timer queues updated.
 */

/** Flink's registerSmallestTimer: keep one event-time timer per key, at the smallest time seen. */
export function registerSmallestTimer(s: TemporalState, w: WritableKey, key: string, time: number): TemporalState {
  const cur = w.timer;
  if (cur !== undefined && cur <= time) return s;
  const q = cur === undefined ? s.eventTimers : deleteTimer(s.eventTimers, key, cur);
  w.timer = time;
  return withEventTimers(s, addTimer(q, key, time));
}

/**
 * Flink's registerProcessingCleanupTimer: the timer sits at now + max retention and is moved only
 * when now + min retention passes it, so a busy key is not re-armed on every row.
 */
export function registerCleanup(s: TemporalState, w: WritableKey, key: string, now: number, r: Retention): TemporalState {
  if (!r.enabled) return s;
  const cur = w.cleanupAt;
  if (cur !== undefined && now + r.minMs <= cur) return s;
  const q = cur === undefined ? s.procTimers : deleteTimer(s.procTimers, key, cur);
  const at = now + r.maxMs;
  w.cleanupAt = at;
  return withProcTimers(s, addTimer(q, key, at));
}

/** Flink's cleanupLastTimer: drop the pending retention timer. */
export function dropCleanup(s: TemporalState, w: WritableKey, key: string): TemporalState {
  const cur = w.cleanupAt;
  if (cur === undefined) return s;
  w.cleanupAt = undefined;
  return withProcTimers(s, deleteTimer(s.procTimers, key, cur));
}

/** Store a version, overwriting one with the same time (Flink's MapState keyed by build time). */
export function putVersion(versions: readonly Version[], v: Version): readonly Version[] {
  let at = versions.length;
  while (at > 0 && (versions[at - 1] as Version).time >= v.time) at--;
  if (at === versions.length) return appended(versions, v);
  const c = versions[at]?.time === v.time ? own(versions) : [...versions.slice(0, at), v, ...versions.slice(at)];
  c[at] = v;
  return isEditable(c) ? c : created(c);
}

/** The version valid at `time`: the latest with version time <= time. */
export function versionAt(versions: readonly Version[], time: number): Version | undefined {
  let found: Version | undefined;
  for (let i = 0; i < versions.length; i++) {
    const v = versions[i] as Version;
    if (v.time > time) break;
    found = v;
  }
  return found;
}

/**
 * Flink's cleanupExpiredVersionInState: keep the last version <= watermark and everything newer;
 * with no version <= watermark nothing goes. Returns how many versions (oldest first) go.
 */
export function expiredVersions(versions: readonly Version[], watermark: number): number {
  let firstNewer = 0;
  while (firstNewer < versions.length && (versions[firstNewer] as Version).time <= watermark) firstNewer++;
  const keepFrom = firstNewer === versions.length ? versions.length - 1 : firstNewer - 1;
  return keepFrom <= 0 ? 0 : keepFrom;
}

/** Flink's harness numKeyedStateEntries for this operator: (key, state) pairs that hold a value. */
export function temporalStateEntries(s: TemporalState): number {
  let n = 0;
  for (const ks of pmValues(s.keys)) {
    n += (ks.probes.length > 0 ? 1 : 0) + (ks.versions.length > 0 ? 1 : 0) + (ks.nextSeq !== undefined ? 1 : 0);
    n += (ks.timer !== undefined ? 1 : 0) + (ks.cleanupAt !== undefined ? 1 : 0);
  }
  return n;
}
