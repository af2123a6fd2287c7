/**
 * Per-side record state of the regular and semi/anti joins: Flink's JoinRecordStateViews and
 * OuterJoinRecordStateViews (stream/state/), as persistent plain data.
 *
 * One store per input side: join key -> entry id -> entry. The entry id depends on the side's
 * layout (Flink's JoinInputSideSpec):
 *   JoinKeyContainsUniqueKey  one row per join key (a ValueState): id '' ; add overwrites,
 *                             retract clears whatever row was sent;
 *   InputSideHasUniqueKey     map unique key -> row: id = the unique key ; put overwrites;
 *   InputSideHasNoUniqueKey   map row -> count: id = the whole row ; duplicates are counted.
 * Outer sides also keep the number of associations (matches on the other side) per entry; for a
 * duplicated row the copies share one number, as in Flink's (count, numAssociations) tuple.
 *
 * State TTL is per entry (a map entry or the ValueState), processing time, refreshed by writes
 * only (an association update is a write), expired when `at + ttl <= now`. It is lazy: an access
 * that finds an expired entry treats it as absent, drops it and traces `state.expire`.
 * Each entry keeps an arrival sequence number: matches are visited in arrival order (spec §3).
 */
import type { Side, StateLayout } from '../../planner/plan.js';
import type { Row, SqlType } from '../../values/types.js';
import { created, isEditable } from '../collections/edit.js';
import { PVEC_EMPTY, pvFromArray, pvGet, pvLeaf, pvPush, pvSet, pvToArray, type PVec } from '../collections/pvec.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmSize, pmValues, type PMap } from '../collections/pmap.js';
import { joinKey, rowHash, rowId, sameOn, sameRow } from '../keys.js';
import type { Collector } from '../types.js';
import { formatRow, formatValue } from '../../values/format.js';

export interface JoinEntry {
  /** The stored row (stored with RowKind reset to +I). */
  readonly row: Row;
  /** Copies of this row (InputSideHasNoUniqueKey); 1 for the unique layouts. */
  readonly count: number;
  /** Associations on the other side (outer sides only); -1 on inner sides. */
  readonly assoc: number;
  /** Arrival order of the row now held by this entry. */
  readonly seq: number;
  /** Processing time of the last write (for TTL). */
  readonly at: number;
  /** Hash of the entry's identity under the layout (entryHash): compared before the rows. */
  readonly h: number;
}

/**
 * The entries of one join key. Up to BIG entries: a persistent vector in arrival order (entries
 * are found by a scan of their identity hashes; an append copies at most the 32-entry tail, so a
 * checkpoint keeps little of a key it touched). Beyond: a map by entry id, so that a hot key
 * stays O(log n) per write (read in arrival order by sorting on seq).
 */
export type Bucket = PVec<JoinEntry> | PMap<JoinEntry>;

/** join key -> the key's entries */
export type SideStore = PMap<Bucket>;

export interface JoinState {
  readonly sides: readonly [SideStore, SideStore];
  /** Next arrival sequence number. */
  readonly seq: number;
}

export const EMPTY_JOIN_STATE: JoinState = { sides: [PMAP_EMPTY, PMAP_EMPTY], seq: 0 };

/** Where in the store: the join key, and its printed form (built only when a trace needs it). */
export interface KeyRef {
  readonly key: string;
  readonly pkey: string;
}

/** What a side's state needs to know about its input. */
export interface SideSpec {
  readonly side: Side;
  readonly name: string;
  readonly layout: StateLayout;
  readonly outer: boolean;
  readonly ttlMs: number;
  readonly types: readonly SqlType[];
  readonly keyIdx: readonly number[];
}

/** Both sides' stores plus the sequence counter, threaded (mutably) through one processElement. */
export interface Work {
  stores: [SideStore, SideStore];
  seq: number;
}

export function beginWork(s: JoinState): Work {
  return { stores: [s.sides[0], s.sides[1]], seq: s.seq };
}

/** The new state, sharing everything that did not change. */
export function endWork(s: JoinState, w: Work): JoinState {
  if (w.stores[0] === s.sides[0] && w.stores[1] === s.sides[1] && w.seq === s.seq) return s;
  if (isEditable(s)) {
    // Created earlier in this transient edit (edit.ts): nothing else can see it.
    const m = s as { sides: [SideStore, SideStore]; seq: number };
    m.sides[0] = w.stores[0];
    m.sides[1] = w.stores[1];
    m.seq = w.seq;
    return s;
  }
  return created({ sides: created([w.stores[0], w.stores[1]]) as [SideStore, SideStore], seq: w.seq });
}

/** The entry id of a row under the side's layout (large buckets only). */
export function entryId(spec: SideSpec, row: Row): string {
  switch (spec.layout.kind) {
    case 'JoinKeyContainsUniqueKey':
      return '';
    case 'InputSideHasUniqueKey':
      return joinKey(row, spec.layout.uniqueKey);
    case 'InputSideHasNoUniqueKey':
      return rowId(row);
  }
}

/** A hash of a row's identity under the layout: equal for rows that sameEntry calls the same. */
export function entryHash(spec: SideSpec, row: Row): number {
  switch (spec.layout.kind) {
    case 'JoinKeyContainsUniqueKey':
      return 0;
    case 'InputSideHasUniqueKey':
      return rowHash(row, spec.layout.uniqueKey);
    case 'InputSideHasNoUniqueKey':
      return rowHash(row);
  }
}

/** Index of the entry with `row`'s identity (hash `h`) in a vector bucket, or -1. */
function indexIn(spec: SideSpec, b: PVec<JoinEntry>, row: Row, h: number): number {
  for (let i = 0; i < b.n; i += 32) {
    const leaf = pvLeaf(b, i);
    const end = Math.min(32, b.n - i);
    for (let j = 0; j < end; j++) {
      const e = leaf[j] as JoinEntry;
      if (e.h === h && sameEntry(spec, e.row, row)) return i + j;
    }
  }
  return -1;
}

/** Whether two rows are the same entry under the side's layout (what entryId compares). */
export function sameEntry(spec: SideSpec, a: Row, b: Row): boolean {
  switch (spec.layout.kind) {
    case 'JoinKeyContainsUniqueKey':
      return true;
    case 'InputSideHasUniqueKey':
      return sameOn(a, b, spec.layout.uniqueKey);
    case 'InputSideHasNoUniqueKey':
      return sameRow(a, b);
  }
}

export function isExpired(spec: SideSpec, e: JoinEntry, now: number): boolean {
  return spec.ttlMs > 0 && e.at + spec.ttlMs <= now;
}

export function printKeyOf(spec: SideSpec, row: Row): string {
  return spec.keyIdx.map((i) => formatValue(spec.types[i] as SqlType, row[i] ?? null)).join(', ');
}

export function printStored(spec: SideSpec, row: Row): string {
  return formatRow('+I', row, spec.types);
}

const TS: SqlType = { kind: 'TIMESTAMP', nullable: false, precision: 3 };

/** A processing time as people read it (TIMESTAMP(3) text). */
export function printTime(ms: number): string {
  return formatValue(TS, ms);
}

function dropExpired(spec: SideSpec, w: Work, k: KeyRef, e: JoinEntry, now: number, out: Collector): void {
  removeEntry(spec, w, k.key, e.row);
  // Flags (STEP_EXPIRE) are derived from traces even in bulk runs: always send the event,
  // but skip building its text when nobody reads it.
  if (out.tracing === false) {
    out.trace({ t: 'state.expire', side: spec.side, key: '', row: '', reason: '' });
    return;
  }
  const reason = `last written ${printTime(e.at)} + TTL ${spec.ttlMs} ms = ${printTime(e.at + spec.ttlMs)} <= now ${printTime(now)}: expired, so Flink treats it as absent`;
  out.trace({ t: 'state.expire', side: spec.side, key: k.pkey, row: printStored(spec, e.row), reason });
}

/** A bucket's entries in arrival order (a bucket held in its tail alone is returned as is). */
export function bucketEntries(b: Bucket): readonly JoinEntry[] {
  if (!isVec(b)) return pmValues(b).sort((x, y) => x.seq - y.seq);
  return b.t.length === b.n ? b.t : pvToArray(b);
}

function isVec(b: Bucket): b is PVec<JoinEntry> {
  return (b as PVec<JoinEntry>).t !== undefined;
}

/** The live entries of a join key, in arrival order; expired ones are dropped (and traced). */
export function liveEntries(spec: SideSpec, w: Work, k: KeyRef, now: number, out: Collector): readonly JoinEntry[] {
  const bucket = pmGet(w.stores[spec.side], k.key);
  if (bucket === undefined) return NO_ENTRIES;
  const all = bucketEntries(bucket);
  if (spec.ttlMs <= 0) return all;
  const live: JoinEntry[] = [];
  for (const e of all) {
    if (isExpired(spec, e, now)) dropExpired(spec, w, k, e, now, out);
    else live.push(e);
  }
  return live;
}

const NO_ENTRIES: readonly JoinEntry[] = Object.freeze([]);

/** The stored entry that `row` identifies under the layout, if any (expired or not). */
function findIn(spec: SideSpec, b: Bucket, row: Row): JoinEntry | undefined {
  if (!isVec(b)) return pmGet(b, entryId(spec, row));
  const at = indexIn(spec, b, row, entryHash(spec, row));
  return at < 0 ? undefined : pvGet(b, at);
}

/** One live entry, identified by `row` (expired = absent, dropped and traced). */
export function liveEntry(spec: SideSpec, w: Work, k: KeyRef, row: Row, now: number, out: Collector): JoinEntry | undefined {
  const b = pmGet(w.stores[spec.side], k.key);
  const e = b === undefined ? undefined : findIn(spec, b, row);
  if (e === undefined) return undefined;
  if (!isExpired(spec, e, now)) return e;
  dropExpired(spec, w, k, e, now, out);
  return undefined;
}

/** Buckets above this size switch to a map by entry id. */
const BIG = 512;

function toMap(spec: SideSpec, es: readonly JoinEntry[]): PMap<JoinEntry> {
  let m: PMap<JoinEntry> = PMAP_EMPTY;
  for (const e of es) m = pmSet(m, entryId(spec, e.row), e);
  return m;
}

/**
 * Store `e`, replacing the entry with the same identity; a new seq moves it to the end. `absent`:
 * the caller has just looked and found no entry with e's identity (skips a second scan).
 */
export function putEntry(spec: SideSpec, w: Work, key: string, e: JoinEntry, absent = false): void {
  const store = w.stores[spec.side];
  const b = pmGet(store, key);
  let next: Bucket;
  if (b === undefined) next = pvPush(PVEC_EMPTY, e);
  else if (!isVec(b)) next = pmSet(b, entryId(spec, e.row), e);
  else if (absent) next = appendToVec(spec, b, e);
  else next = putInVec(spec, b, e);
  if (next !== b) w.stores[spec.side] = pmSet(store, key, next);
}

function putInVec(spec: SideSpec, b: PVec<JoinEntry>, e: JoinEntry): Bucket {
  const at = indexIn(spec, b, e.row, e.h);
  if (at >= 0 && pvGet(b, at).seq === e.seq) return pvSet(b, at, e);
  if (at >= 0) return withoutAt(b, at, e);
  return appendToVec(spec, b, e);
}

function appendToVec(spec: SideSpec, b: PVec<JoinEntry>, e: JoinEntry): Bucket {
  const next = pvPush(b, e);
  return next.n > BIG ? toMap(spec, pvToArray(next)) : next;
}

/** The bucket without entry `at` (and with `add` appended): rebuilt, as a vector has no delete. */
function withoutAt(b: PVec<JoinEntry>, at: number, add?: JoinEntry): PVec<JoinEntry> {
  const es = pvToArray(b);
  es.splice(at, 1);
  if (add !== undefined) es.push(add);
  return pvFromArray(es);
}

/** Remove the entry that `row` identifies. */
export function removeEntry(spec: SideSpec, w: Work, key: string, row: Row): void {
  const store = w.stores[spec.side];
  const b = pmGet(store, key);
  if (b === undefined) return;
  let next: Bucket;
  if (isVec(b)) {
    const at = indexIn(spec, b, row, entryHash(spec, row));
    if (at < 0) return;
    // Rebuilt (never changed in place): liveEntries may be iterating the old entries while it
    // drops expired rows.
    next = withoutAt(b, at);
  } else {
    next = pmDelete(b, entryId(spec, row));
  }
  const empty = isVec(next) ? next.n === 0 : pmSize(next) === 0;
  w.stores[spec.side] = empty ? pmDelete(store, key) : pmSet(store, key, next);
}
