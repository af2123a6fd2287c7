/**
 * The event-time temporal join's state as plain data (Flink's TemporalRowTimeJoinOperator plus
 * the retention timer of BaseTwoInputStreamOperatorWithStateRetention), and its timer rules.
 */
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';
import type { Row, RowKind } from '../../values/types.js';
import { addTimer, deleteTimer, EMPTY_TIMERS, type TimerQueue } from './interval-join-timers.js';

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

export const EMPTY_TEMPORAL_STATE: TemporalState = { keys: PMAP_EMPTY, eventTimers: EMPTY_TIMERS, procTimers: EMPTY_TIMERS };

/** State retention from table.exec.state.ttl: min = ttl, max = ttl * 3 / 2, on only if min > 1 ms. */
export interface Retention {
  readonly enabled: boolean;
  readonly minMs: number;
  readonly maxMs: number;
}

export function retentionOf(ttlMs: number): Retention {
  return { enabled: ttlMs > 1, minMs: ttlMs, maxMs: Math.floor((ttlMs * 3) / 2) };
}

export function getTKey(s: TemporalState, key: string, printedKey: string): TemporalKeyState {
  return pmGet(s.keys, key) ?? { printedKey, probes: [], versions: [] };
}

export function putTKey(s: TemporalState, key: string, ks: TemporalKeyState): TemporalState {
  const empty =
    ks.probes.length === 0 && ks.versions.length === 0 && ks.nextSeq === undefined && ks.timer === undefined && ks.cleanupAt === undefined;
  return { ...s, keys: empty ? pmDelete(s.keys, key) : pmSet(s.keys, key, ks) };
}

/** Both the key's state and the operator's timer queues, updated together. */
export interface KeyAndTimers {
  readonly ks: TemporalKeyState;
  readonly s: TemporalState;
}

/** Flink's registerSmallestTimer: keep one event-time timer per key, at the smallest time seen. */
export function registerSmallestTimer(x: KeyAndTimers, key: string, time: number): KeyAndTimers {
  const cur = x.ks.timer;
  if (cur !== undefined && cur <= time) return x;
  const q = cur === undefined ? x.s.eventTimers : deleteTimer(x.s.eventTimers, key, cur);
  return { ks: { ...x.ks, timer: time }, s: { ...x.s, eventTimers: addTimer(q, key, time) } };
}

/**
 * Flink's registerProcessingCleanupTimer: the timer sits at now + max retention and is moved only
 * when now + min retention passes it, so a busy key is not re-armed on every row.
 */
export function registerCleanup(x: KeyAndTimers, key: string, now: number, r: Retention): KeyAndTimers {
  if (!r.enabled) return x;
  const cur = x.ks.cleanupAt;
  if (cur !== undefined && now + r.minMs <= cur) return x;
  const q = cur === undefined ? x.s.procTimers : deleteTimer(x.s.procTimers, key, cur);
  const at = now + r.maxMs;
  return { ks: { ...x.ks, cleanupAt: at }, s: { ...x.s, procTimers: addTimer(q, key, at) } };
}

/** Flink's cleanupLastTimer: drop the pending retention timer. */
export function dropCleanup(x: KeyAndTimers, key: string): KeyAndTimers {
  const cur = x.ks.cleanupAt;
  if (cur === undefined) return x;
  const { cleanupAt: _drop, ...rest } = x.ks;
  return { ks: rest, s: { ...x.s, procTimers: deleteTimer(x.s.procTimers, key, cur) } };
}

/** Store a version, overwriting one with the same time (Flink's MapState keyed by build time). */
export function putVersion(versions: readonly Version[], v: Version): readonly Version[] {
  const at = versions.findIndex((x) => x.time >= v.time);
  if (at < 0) return [...versions, v];
  if (versions[at]?.time === v.time) return [...versions.slice(0, at), v, ...versions.slice(at + 1)];
  return [...versions.slice(0, at), v, ...versions.slice(at)];
}

/** The version valid at `time`: the latest with version time <= time. */
export function versionAt(versions: readonly Version[], time: number): Version | undefined {
  let found: Version | undefined;
  for (const v of versions) {
    if (v.time > time) break;
    found = v;
  }
  return found;
}

/**
 * Flink's cleanupExpiredVersionInState: keep the last version <= watermark and everything newer;
 * with no version <= watermark nothing goes.
 */
export function cleanVersions(versions: readonly Version[], watermark: number): { kept: readonly Version[]; removed: readonly Version[] } {
  const firstNewer = versions.findIndex((v) => v.time > watermark);
  const keepFrom = firstNewer < 0 ? versions.length - 1 : firstNewer - 1;
  if (keepFrom <= 0) return { kept: versions, removed: [] };
  return { kept: versions.slice(keepFrom), removed: versions.slice(0, keepFrom) };
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
