/**
 * One join key's entries (a bucket) and the operations on it, under the side's layout. A step
 * reads a bucket into a Cursor, changes the cursor, and record-store.ts stores it back.
 *
 * Up to BIG entries a bucket is a version (log, n) of a ColumnLog (collections/shared-log-columns.ts):
 * the entries in arrival order as columns (a row slot, a hash and a seq per entry; count, assoc
 * and at are constants until entries differ), found by a scan of their identity hashes (a hash
 * index was tried and dropped: docs/decisions.md, the eleventh session). An append to the newest
 * version is in place, so a checkpoint keeps only (log, n) per key it touched, not a copy, and no
 * object exists per entry. Beyond BIG: a map by entry id, so that a hot key stays
 * O(log n) per write (read in arrival order by sorting on seq). Entries are handed out as
 * JoinEntry objects built on read.
 */
import type { Row } from '../../values/types.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmSize, pmValues, type PMap } from '../collections/pmap.js';
import { writeStamp } from '../collections/edit.js';
import { ColumnLog } from '../collections/shared-log-columns.js';
import { joinKey, rowHash, rowId, sameOn, sameRow } from '../keys.js';
import type { JoinEntry, SideSpec } from './record-state.js';

/** A bucket read for a step: a small version (log, n), a big map, or nothing (no entry). */
export class Cursor {
  /** The join key read into this cursor; undefined: nothing read yet. */
  key: string | undefined = undefined;
  /** The key's id in `keys`, the KeyInterner of the store it was read from (record-store.ts). */
  id = -1;
  keys: object | undefined = undefined;
  log: ColumnLog<Row> | undefined = undefined;
  n = 0;
  big: PMap<JoinEntry> | undefined = undefined;
  /** The key's main log when the read found it (record-store.ts): a write need not look it up. */
  main: ColumnLog<Row> | undefined = undefined;
  /**
   * Whether the store read is the newest version of its run's first lineage, the only one that
   * may push onto a main log (record-store.ts): any other version appending there copies.
   */
  rootTip = false;
  /**
   * A big bucket's most entries since it was last empty (record-store.ts keeps it; a log bucket's
   * is its log's, see cursorPeak): a HashMap's capacity never shrinks while it lives.
   */
  peak = 0;
  /** The last row whose identity hash this cursor computed (cursorFind), and that hash. */
  hashed: Row | undefined = undefined;
  h = 0;

  clear(key: string | undefined): void {
    this.key = key;
    this.id = -1;
    this.keys = undefined;
    this.log = undefined;
    this.n = 0;
    this.big = undefined;
    this.main = undefined;
    this.rootTip = false;
    this.peak = 0;
    this.hashed = undefined;
  }

  /** The most entries the bucket has held since it was last empty (what sizes its HashMap). */
  peakSize(): number {
    if (this.big !== undefined) return Math.max(this.peak, pmSize(this.big));
    return this.log === undefined ? 0 : this.log.peakAt(this.n);
  }

  /** Entries in the bucket now (a NoUniqueKey row counted once, as a map key). */
  size(): number {
    return this.big !== undefined ? pmSize(this.big) : this.log === undefined ? 0 : this.n;
  }
}

/** The entry id of a row under the side's layout (large buckets only). */
export function entryId(spec: SideSpec, row: Row): string {
  switch (spec.layout.kind) {
    case 'JoinKeyContainsUniqueKey':
      return '';
    case 'InputSideHasUniqueKey':
      return joinKey(row, spec.layout.uniqueKey);
    case 'InputSideHasNoUniqueKey':
      // the map key is the row Flink stores: the input pruned to the columns the query reads
      return spec.kept === undefined ? rowId(row) : joinKey(row, spec.kept);
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
      return spec.kept === undefined ? rowHash(row) : rowHash(row, spec.kept);
  }
}

/** Whether two rows are the same entry under the side's layout (what entryId compares). */
export function sameEntry(spec: SideSpec, a: Row, b: Row): boolean {
  switch (spec.layout.kind) {
    case 'JoinKeyContainsUniqueKey':
      return true;
    case 'InputSideHasUniqueKey':
      return sameOn(a, b, spec.layout.uniqueKey);
    case 'InputSideHasNoUniqueKey':
      return spec.kept === undefined ? sameRow(a, b) : sameOn(a, b, spec.kept);
  }
}

/** Slot i of a log as an entry object. */
export function entryAt(log: ColumnLog<Row>, i: number): JoinEntry {
  return { row: log.row(i), count: log.count(i), assoc: log.assoc(i), seq: log.seq(i), at: log.at(i), h: log.hash(i) };
}

/** Version (log, n)'s entries, in arrival order. */
export function logEntries(log: ColumnLog<Row>, n: number): JoinEntry[] {
  const out: JoinEntry[] = [];
  for (let i = 0; i < n; i++) out.push(entryAt(log, i));
  return out;
}

/** A big bucket's entries, in arrival order. */
export function mapEntries(m: PMap<JoinEntry>): JoinEntry[] {
  return pmValues(m).sort((x, y) => x.seq - y.seq);
}

/** The cursor's entries in arrival order (new objects: callers may keep them). */
export function cursorEntries(c: Cursor): JoinEntry[] {
  if (c.big !== undefined) return mapEntries(c.big);
  return c.log === undefined ? [] : logEntries(c.log, c.n);
}

/** Index of the entry with `row`'s identity (hash `h`) in version (log, n), or -1. */
function indexIn(spec: SideSpec, log: ColumnLog<Row>, n: number, row: Row, h: number): number {
  for (let i = log.find(h, 0, n); i >= 0; i = log.find(h, i + 1, n)) {
    if (sameEntry(spec, log.row(i), row)) return i;
  }
  return -1;
}

/**
 * entryHash(spec, row), remembered in the cursor: a step looks a row up and then stores it (the
 * spec is the cursor's side's, and rows are never changed in place).
 */
export function cursorHash(spec: SideSpec, c: Cursor, row: Row): number {
  if (c.hashed === row) return c.h;
  c.h = entryHash(spec, row);
  c.hashed = row;
  return c.h;
}

/** The stored entry that `row` identifies under the layout, if any (expired or not). */
export function cursorFind(spec: SideSpec, c: Cursor, row: Row): JoinEntry | undefined {
  if (c.big !== undefined) return pmGet(c.big, entryId(spec, row));
  if (c.log === undefined) return undefined;
  const at = indexIn(spec, c.log, c.n, row, cursorHash(spec, c, row));
  return at < 0 ? undefined : entryAt(c.log, at);
}

/** Buckets above this size switch to a map by entry id. */
const BIG = 512;

function toMap(spec: SideSpec, log: ColumnLog<Row>, n: number): PMap<JoinEntry> {
  let m: PMap<JoinEntry> = PMAP_EMPTY;
  for (let i = 0; i < n; i++) m = pmSet(m, entryId(spec, log.row(i)), entryAt(log, i));
  return m;
}

/**
 * Store an entry in the cursor's bucket (a new bucket when it has none), replacing the entry with
 * the same identity; a new seq moves it to the end. `absent`: the caller has just looked and found
 * no entry with this identity (skips a second scan).
 */
export function cursorPut(spec: SideSpec, c: Cursor, row: Row, count: number, assoc: number, seq: number, at: number, h: number, absent: boolean): void {
  if (c.big !== undefined) {
    c.big = pmSet(c.big, entryId(spec, row), { row, count, assoc, seq, at, h });
    return;
  }
  if (c.log === undefined) {
    c.log = ColumnLog.single(row, h, seq, count, assoc, at, writeStamp());
    c.n = 1;
    return;
  }
  if (!absent) {
    const i = indexIn(spec, c.log, c.n, row, h);
    if (i >= 0 && c.log.seq(i) === seq) {
      c.log = c.log.set(c.n, i, row, count, assoc, at);
      return;
    }
    if (i >= 0) {
      c.log = c.log.removeAt(c.n, i);
      c.n--;
    }
  }
  c.log = c.log.append(c.n, row, h, seq, count, assoc, at, writeStamp(), c.log !== c.main || c.rootTip);
  c.n++;
  if (c.n > BIG) {
    c.peak = c.log.peakAt(c.n);
    c.big = toMap(spec, c.log, c.n);
    c.log = undefined;
    c.n = 0;
  }
}

/** Remove the entry `row` identifies from the cursor's bucket; false if there is none. */
export function cursorRemove(spec: SideSpec, c: Cursor, row: Row): boolean {
  if (c.big !== undefined) {
    const next = pmDelete(c.big, entryId(spec, row));
    if (next === c.big) return false;
    c.big = pmSize(next) === 0 ? undefined : next;
    return true;
  }
  if (c.log === undefined) return false;
  const i = indexIn(spec, c.log, c.n, row, cursorHash(spec, c, row));
  if (i < 0) return false;
  if (c.n === 1) c.log = undefined;
  else c.log = c.log.removeAt(c.n, i);
  c.n--;
  return true;
}
