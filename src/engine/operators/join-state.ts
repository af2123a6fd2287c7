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
 * that finds an expired entry treats it as absent, drops it and traces `state.expire`
 * (join-state-entries.ts).
 * Each entry keeps an arrival sequence number: matches are visited in arrival order (spec §3).
 */
import type { Side, StateLayout } from '../../planner/plan.js';
import type { Row, SqlType } from '../../values/types.js';
import { created, isEditable } from '../collections/edit.js';
import { Cursor } from './join-state-bucket.js';
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
export { isExpired, liveEntries, liveEntry, putEntry, removeEntry, storedRows } from './join-state-entries.js';
export { printKeyOf, printStored, printTime } from './join-state-print.js';

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
