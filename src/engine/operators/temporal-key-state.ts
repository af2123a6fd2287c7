/**
 * One join key's state in the event-time temporal join (Flink's TemporalRowTimeJoinOperator:
 * per key the buffered probe rows, the build versions by time, nextLeftIndex, the registered
 * event-time timer, and the retention timer), as ONE flat array:
 *
 *   [printedKey, nextSeq, timer, cleanupAt, split, seq, time, kind, row, ..., time, kind, row, ...]
 *                                                  probes: [HEAD, split)   versions: [split, end)
 *
 * - printedKey: the join key as people read it;
 * - nextSeq: Flink's nextLeftIndex (undefined once cleared); timer: Flink's registeredTimer, the
 *   single pending event-time timer; cleanupAt: Flink's latestRegisteredCleanupTimer (processing
 *   time, with retention); undefined = none;
 * - probes (left rows waiting for the watermark) in arrival order, 4 slots each: seq is Flink's
 *   nextLeftIndex value for the row, emission follows it (arrival order), not time;
 * - versions (build rows) in ascending, unique time, 3 slots each; any kind is stored, a -U / -D
 *   version means "no row from this time on".
 *
 * Why one array: checkpoints retain every key state they saw, and each key is mostly touched in
 * one edit and then not for a long while, so the objects and headers of a key state are what the
 * GC copies and what a run keeps (an object plus arrays of probe and version objects before).
 *
 * Persistence (edit.ts), as in interval-key-state.ts: every change returns a writable array,
 * `ks` itself when the current edit created it or an exact-size copy, which the caller may go on
 * changing until it stores it; only large copies are registered (they then grow in place).
 */
import type { Row, RowKind } from '../../values/types.js';
import { created, isEditable } from '../collections/edit.js';

type Slot = number | string | Row | undefined;
export type TemporalKeyState = readonly Slot[];
/** A key state that the caller may still change (not yet stored, or created in this edit). */
export type WritableTKey = Slot[];

const PRINTED_KEY = 0;
const NEXT_SEQ = 1;
const TIMER = 2;
const CLEANUP_AT = 3;
const SPLIT = 4;
const HEAD = 5;
/** Slots per probe row and per version. */
const PW = 4;
const VW = 3;
/** From this many slots on, a key state created in the edit changes in place. */
const GROW_IN_PLACE = HEAD + 16 * PW;

export const printedKeyOf = (ks: TemporalKeyState): string => ks[PRINTED_KEY] as string;
export const nextSeqOf = (ks: TemporalKeyState): number | undefined => ks[NEXT_SEQ] as number | undefined;
export const timerOf = (ks: TemporalKeyState): number | undefined => ks[TIMER] as number | undefined;
export const cleanupAtOf = (ks: TemporalKeyState): number | undefined => ks[CLEANUP_AT] as number | undefined;

export function setNextSeq(w: WritableTKey, v: number | undefined): void {
  w[NEXT_SEQ] = v;
}
export function setTimer(w: WritableTKey, v: number | undefined): void {
  w[TIMER] = v;
}
export function setCleanupAt(w: WritableTKey, v: number | undefined): void {
  w[CLEANUP_AT] = v;
}

export const probeCount = (ks: TemporalKeyState): number => ((ks[SPLIT] as number) - HEAD) / PW;
export const probeSeq = (ks: TemporalKeyState, i: number): number => ks[HEAD + i * PW] as number;
export const probeTime = (ks: TemporalKeyState, i: number): number => ks[HEAD + i * PW + 1] as number;
export const probeKind = (ks: TemporalKeyState, i: number): RowKind => ks[HEAD + i * PW + 2] as RowKind;
export const probeRow = (ks: TemporalKeyState, i: number): Row => ks[HEAD + i * PW + 3] as Row;

export const versionCount = (ks: TemporalKeyState): number => (ks.length - (ks[SPLIT] as number)) / VW;
export const versionTime = (ks: TemporalKeyState, i: number): number => ks[(ks[SPLIT] as number) + i * VW] as number;
export const versionKind = (ks: TemporalKeyState, i: number): RowKind => ks[(ks[SPLIT] as number) + i * VW + 1] as RowKind;
export const versionRow = (ks: TemporalKeyState, i: number): Row => ks[(ks[SPLIT] as number) + i * VW + 2] as Row;

/** A key's empty state. */
export function newTKey(printedKey: string): WritableTKey {
  return [printedKey, undefined, undefined, undefined, HEAD];
}

/** Nothing buffered, no version, no sequence and no timer: Flink would hold no state for the key. */
export function isEmptyTKey(ks: TemporalKeyState): boolean {
  return ks.length === HEAD && ks[NEXT_SEQ] === undefined && ks[TIMER] === undefined && ks[CLEANUP_AT] === undefined;
}

/** `ks` itself when the current edit created it, else a copy the caller may change. */
export function writableTKey(ks: TemporalKeyState): WritableTKey {
  return isEditable(ks) ? (ks as WritableTKey) : resized(ks, ks.length, 0, 0);
}

/** A copy with `remove` slots at `at` taken out and `insert` free slots put there. */
function resized(ks: TemporalKeyState, at: number, remove: number, insert: number): WritableTKey {
  const n = ks.length - remove + insert;
  const w = new Array<Slot>(n);
  for (let i = 0; i < at; i++) w[i] = ks[i];
  for (let i = at + remove; i < ks.length; i++) w[i - remove + insert] = ks[i];
  return n >= GROW_IN_PLACE ? created(w) : w;
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
  const at = ks[SPLIT] as number;
  const w = opened(ks, at, PW);
  w[at] = seq;
  w[at + 1] = time;
  w[at + 2] = kind;
  w[at + 3] = row;
  w[SPLIT] = at + PW;
  return w;
}

/** Index of the version for exactly `time`, or -1. */
export function versionIndexOf(ks: TemporalKeyState, time: number): number {
  for (let i = 0; i < versionCount(ks); i++) if (versionTime(ks, i) === time) return i;
  return -1;
}

/** Store a version, overwriting one with the same time (Flink's MapState keyed by build time). */
export function withVersion(ks: TemporalKeyState, time: number, kind: RowKind, row: Row): WritableTKey {
  const from = ks[SPLIT] as number;
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
  const split = ks[SPLIT] as number;
  const n = probeCount(ks);
  let kept = 0;
  for (let i = 0; i < n; i++) if (probeTime(ks, i) > watermark) kept++;
  const newSplit = HEAD + kept * PW;
  const size = newSplit + ks.length - split - gone * VW;
  const inPlace = isEditable(ks);
  // In place, every slot moves to a lower or equal index, so a forward copy is safe.
  const w: WritableTKey = inPlace ? (ks as WritableTKey) : new Array<Slot>(size);
  for (let i = 0; i < HEAD; i++) w[i] = ks[i];
  let o = HEAD;
  for (let i = 0; i < n; i++) {
    if (probeTime(ks, i) <= watermark) continue;
    for (let k = 0; k < PW; k++) w[o + k] = ks[HEAD + i * PW + k];
    o += PW;
  }
  for (let i = split + gone * VW; i < ks.length; i++) w[o++] = ks[i];
  // A new array already has its exact size (setting length is a runtime call).
  if (inPlace) w.length = size;
  w[SPLIT] = newSplit;
  return !inPlace && size >= GROW_IN_PLACE ? created(w) : w;
}
