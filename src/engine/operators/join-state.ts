/**
 * Per-side record state of the regular and semi/anti joins: Flink's JoinRecordStateViews and
 * OuterJoinRecordStateViews (stream/state/), as persistent plain data.
 *
 * One store per input side (join-state-store.ts): join key -> entry id -> entry, where a key's
 * entries are kept as columns (join-state-bucket.ts) and handed out as JoinEntry objects built on
 * read. The entry id depends on the side's layout (Flink's JoinInputSideSpec):
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
import type { Collector } from '../types.js';
import { formatRow, formatValue } from '../../values/format.js';
import { Cursor, cursorEntries, cursorFind, cursorPut, cursorRemove } from './join-state-bucket.js';
import { KeyIndex } from './join-key-index.js';
import { SideStore } from './join-state-store.js';

/** One stored entry, as handed out (built on read: the store keeps entries as columns). */
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

export { entryHash, entryId, sameEntry } from './join-state-bucket.js';
export { SideStore } from './join-state-store.js';

export interface JoinState {
  readonly sides: readonly [SideStore, SideStore];
  /** Next arrival sequence number. */
  readonly seq: number;
}

/** A new empty state (each run gets its own stores: their registries are per run). */
export function emptyJoinState(): JoinState {
  const keys = new KeyIndex();
  return { sides: [SideStore.empty(keys), SideStore.empty(keys)], seq: 0 };
}

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

/**
 * Both sides' stores plus the sequence counter, threaded (mutably) through one processElement,
 * and each side's last bucket read or written (one step reads and writes one join key several
 * times: addRecord's lookup then its write, then the other side's matches).
 */
export interface Work {
  stores: [SideStore, SideStore];
  seq: number;
  /** Per side: the bucket of the join key last read or written (its `key` undefined: none). */
  cursors: [Cursor, Cursor];
}

/** A Work for beginWork to fill: an operator keeps one, as processElement is never re-entered. */
export function newWork(): Work {
  const empty = SideStore.empty();
  return { stores: [empty, empty], seq: 0, cursors: [new Cursor(), new Cursor()] };
}

/** Start a step on state `s`, in `w` (reused: no allocation per row). */
export function beginWork(s: JoinState, w: Work = newWork()): Work {
  w.stores[0] = s.sides[0];
  w.stores[1] = s.sides[1];
  w.seq = s.seq;
  w.cursors[0].clear(undefined);
  w.cursors[1].clear(undefined);
  return w;
}

/** The bucket of `key` on `side`, read once per step and remembered for the next access. */
function bucketOf(w: Work, side: Side, key: string): Cursor {
  const c = w.cursors[side];
  if (c.key !== key) w.stores[side].read(key, c);
  return c;
}

/** Store the cursor's bucket back (an empty one drops the key). */
function storeBucket(w: Work, side: Side, c: Cursor): void {
  w.stores[side] = w.stores[side].write(c.key as string, c);
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

/** The live entries of a join key, in arrival order; expired ones are dropped (and traced). */
export function liveEntries(spec: SideSpec, w: Work, k: KeyRef, now: number, out: Collector): readonly JoinEntry[] {
  const all = cursorEntries(bucketOf(w, spec.side, k.key));
  if (spec.ttlMs <= 0 || all.length === 0) return all;
  const live: JoinEntry[] = [];
  for (const e of all) {
    if (isExpired(spec, e, now)) dropExpired(spec, w, k, e, now, out);
    else live.push(e);
  }
  return live;
}

/** One live entry, identified by `row` (expired = absent, dropped and traced). */
export function liveEntry(spec: SideSpec, w: Work, k: KeyRef, row: Row, now: number, out: Collector): JoinEntry | undefined {
  const e = cursorFind(spec, bucketOf(w, spec.side, k.key), row);
  if (e === undefined) return undefined;
  if (!isExpired(spec, e, now)) return e;
  dropExpired(spec, w, k, e, now, out);
  return undefined;
}

/**
 * Store an entry (its fields, so that no object is built), replacing the entry with the same
 * identity; a new seq moves it to the end. `absent`: the caller has just looked and found no
 * entry with this identity (skips a second scan).
 */
export function putEntry(
  spec: SideSpec,
  w: Work,
  key: string,
  row: Row,
  count: number,
  assoc: number,
  seq: number,
  at: number,
  h: number,
  absent = false,
): void {
  const c = bucketOf(w, spec.side, key);
  cursorPut(spec, c, row, count, assoc, seq, at, h, absent);
  storeBucket(w, spec.side, c);
}

/**
 * The rows stored under a join key, each as many times as it is counted, in arrival order, into
 * `into` from index 0 (slots past the count are left as they were: no array is shrunk or built,
 * and no entry objects). Returns the count, or -1 when an entry has expired (TTL): then the
 * caller must read liveEntries, which drops and traces it.
 */
export function storedRows(spec: SideSpec, w: Work, key: string, now: number, into: Row[]): number {
  const c = bucketOf(w, spec.side, key);
  const ttl = spec.ttlMs;
  let m = 0;
  if (c.big !== undefined) {
    for (const e of cursorEntries(c)) {
      if (isExpired(spec, e, now)) return -1;
      for (let i = 0; i < e.count; i++) into[m++] = e.row;
    }
    return m;
  }
  const log = c.log;
  if (log === undefined) return 0;
  for (let i = 0; i < c.n; i++) {
    if (ttl > 0 && log.at(i) + ttl <= now) return -1;
    const row = log.row(i);
    for (let copies = log.count(i); copies > 0; copies--) into[m++] = row;
  }
  return m;
}

/** Remove the entry that `row` identifies. */
export function removeEntry(spec: SideSpec, w: Work, key: string, row: Row): void {
  const c = bucketOf(w, spec.side, key);
  if (cursorRemove(spec, c, row)) storeBucket(w, spec.side, c);
}
