/**
 * The event-time temporal join's state as plain data (Flink's TemporalRowTimeJoinOperator plus
 * the retention timer of BaseTwoInputStreamOperatorWithStateRetention): per key one flat array
 * (temporal-key-state.ts), the event-time and processing-time timer queues; and its timer rules.
 */
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';
import { addTimer, deleteTimer, EMPTY_TIMERS, type TimerQueue } from './interval-join-timers.js';
import type { Writable } from './interval-join-state.js';
import { created, isEditable } from '../collections/edit.js';
import {
  cleanupAtOf,
  isEmptyTKey,
  newTKey,
  nextSeqOf,
  probeCount,
  setCleanupAt,
  setTimer,
  timerOf,
  versionCount,
  type TemporalKeyState,
  type WritableTKey,
} from './temporal-key-state.js';

export type { TemporalKeyState } from './temporal-key-state.js';

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

/**
 * `s` itself when the current edit created it, else a registered copy. Fields are listed, not
 * spread: spread copies of the frozen empty state and of later states got different hidden
 * classes, and the per-row reads of keys and timers went megamorphic (V8's --log-ic showed them).
 */
function ownState(s: TemporalState): Writable<TemporalState> {
  if (isEditable(s)) return s as Writable<TemporalState>;
  return created({ keys: s.keys, eventTimers: s.eventTimers, procTimers: s.procTimers });
}

export function getTKey(s: TemporalState, key: string, printedKey: string): TemporalKeyState {
  return pmGet(s.keys, key) ?? newTKey(printedKey);
}

/** `stored`: the state the map held for the key when the operation began, if any. */
export function putTKey(s: TemporalState, key: string, ks: TemporalKeyState, stored?: TemporalKeyState): TemporalState {
  const empty = isEmptyTKey(ks);
  // Changed in place, the stored state needs no second map walk.
  if (!empty && ks === stored) return s;
  const keys = empty ? pmDelete(s.keys, key) : pmSet(s.keys, key, ks);
  if (keys === s.keys) return s;
  const w = ownState(s);
  w.keys = keys;
  return w;
}

export function withEventTimers(s: TemporalState, q: TimerQueue): TemporalState {
  if (s.eventTimers === q) return s;
  const w = ownState(s);
  w.eventTimers = q;
  return w;
}

export function withProcTimers(s: TemporalState, q: TimerQueue): TemporalState {
  if (s.procTimers === q) return s;
  const w = ownState(s);
  w.procTimers = q;
  return w;
}

/**
 * The timer rules below change the key's state `w` (writable: see temporal-key-state.ts) and return
 * the operator state with its timer queues updated.
 */

/** Flink's registerSmallestTimer: keep one event-time timer per key, at the smallest time seen. */
export function registerSmallestTimer(s: TemporalState, w: WritableTKey, key: string, time: number): TemporalState {
  const cur = timerOf(w);
  if (cur !== undefined && cur <= time) return s;
  const q = cur === undefined ? s.eventTimers : deleteTimer(s.eventTimers, key, cur);
  setTimer(w, time);
  return withEventTimers(s, addTimer(q, key, time));
}

/**
 * Flink's registerProcessingCleanupTimer: the timer sits at now + max retention and is moved only
 * when now + min retention passes it, so a busy key is not re-armed on every row.
 */
export function registerCleanup(s: TemporalState, w: WritableTKey, key: string, now: number, r: Retention): TemporalState {
  if (!r.enabled) return s;
  const cur = cleanupAtOf(w);
  if (cur !== undefined && now + r.minMs <= cur) return s;
  const q = cur === undefined ? s.procTimers : deleteTimer(s.procTimers, key, cur);
  const at = now + r.maxMs;
  setCleanupAt(w, at);
  return withProcTimers(s, addTimer(q, key, at));
}

/** Flink's cleanupLastTimer: drop the pending retention timer. */
export function dropCleanup(s: TemporalState, w: WritableTKey, key: string): TemporalState {
  const cur = cleanupAtOf(w);
  if (cur === undefined) return s;
  setCleanupAt(w, undefined);
  return withProcTimers(s, deleteTimer(s.procTimers, key, cur));
}

/** Flink's harness numKeyedStateEntries for this operator: (key, state) pairs that hold a value. */
export function temporalStateEntries(s: TemporalState): number {
  let n = 0;
  for (const ks of pmValues(s.keys)) {
    n += (probeCount(ks) > 0 ? 1 : 0) + (versionCount(ks) > 0 ? 1 : 0) + (nextSeqOf(ks) !== undefined ? 1 : 0);
    n += (timerOf(ks) !== undefined ? 1 : 0) + (cleanupAtOf(ks) !== undefined ? 1 : 0);
  }
  return n;
}
