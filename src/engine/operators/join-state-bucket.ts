/**
 * One join key's entries (a bucket) and the operations on it, under the side's layout. A bucket
 * is immutable except within a transient edit (collections/edit.ts, through shared-log/pmap).
 */
import type { Row } from '../../values/types.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmSize, pmValues, type PMap } from '../collections/pmap.js';
import { SharedLog } from '../collections/shared-log.js';
import { joinKey, rowHash, rowId, sameOn, sameRow } from '../keys.js';
import type { JoinEntry, SideSpec } from './join-state.js';

/**
 * The entries of one join key. Up to BIG entries: a shared log in arrival order (entries are
 * found by a scan of their identity hashes, a contiguous array of numbers; an append to the
 * newest version of a key is in place, so a checkpoint keeps a small header per key it touched,
 * not a copy of the entries). Beyond: a map by entry id, so that a hot key stays O(log n) per
 * write (read in arrival order by sorting on seq).
 */
export type Bucket = SharedLog<JoinEntry> | PMap<JoinEntry>;

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

/** Index of the entry with `row`'s identity (hash `h`) in a small bucket, or -1. */
function indexIn(spec: SideSpec, b: SharedLog<JoinEntry>, row: Row, h: number): number {
  for (let i = b.findHash(h); i >= 0; i = b.findHash(h, i + 1)) {
    if (sameEntry(spec, b.at(i).row, row)) return i;
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

/**
 * A bucket's entries in arrival order. Not a copy when the bucket is the newest version of its
 * log: read it at once (a later append to the key grows it), and never write to it.
 */
export function bucketEntries(b: Bucket): readonly JoinEntry[] {
  return isSmall(b) ? b.items() : pmValues(b).sort((x, y) => x.seq - y.seq);
}

export function isSmall(b: Bucket): b is SharedLog<JoinEntry> {
  return b instanceof SharedLog;
}

/** The stored entry that `row` identifies under the layout, if any (expired or not). */
export function bucketFind(spec: SideSpec, b: Bucket, row: Row): JoinEntry | undefined {
  if (!isSmall(b)) return pmGet(b, entryId(spec, row));
  const at = indexIn(spec, b, row, entryHash(spec, row));
  return at < 0 ? undefined : b.at(at);
}

/** Buckets above this size switch to a map by entry id. */
const BIG = 512;

function toMap(spec: SideSpec, es: Iterable<JoinEntry>): PMap<JoinEntry> {
  let m: PMap<JoinEntry> = PMAP_EMPTY;
  for (const e of es) m = pmSet(m, entryId(spec, e.row), e);
  return m;
}

/**
 * The bucket with `e` stored (a new one for `undefined`), replacing the entry with the same
 * identity; a new seq moves it to the end. `absent`: the caller has just looked and found no
 * entry with e's identity (skips a second scan).
 */
export function bucketPut(spec: SideSpec, b: Bucket | undefined, e: JoinEntry, absent: boolean): Bucket {
  if (b === undefined) return SharedLog.single(e, e.h);
  if (!isSmall(b)) return pmSet(b, entryId(spec, e.row), e);
  return absent ? append(spec, b, e) : putInLog(spec, b, e);
}

/** The bucket without the entry `row` identifies: `b` itself if none, undefined once empty. */
export function bucketRemove(spec: SideSpec, b: Bucket, row: Row): Bucket | undefined {
  let next: Bucket;
  if (isSmall(b)) {
    const at = indexIn(spec, b, row, entryHash(spec, row));
    if (at < 0) return b;
    // A copy (removeAt never changes the arrays in place): liveEntries may be iterating the
    // old entries while it drops expired rows.
    next = b.removeAt(at);
  } else {
    next = pmDelete(b, entryId(spec, row));
    if (next === b) return b;
  }
  return (isSmall(next) ? next.size === 0 : pmSize(next) === 0) ? undefined : next;
}

function putInLog(spec: SideSpec, b: SharedLog<JoinEntry>, e: JoinEntry): Bucket {
  const at = indexIn(spec, b, e.row, e.h);
  if (at >= 0 && b.at(at).seq === e.seq) return b.set(at, e);
  if (at >= 0) return append(spec, b.removeAt(at), e);
  return append(spec, b, e);
}

/**
 * The same entry: a replay from a checkpoint re-appends what the first run appended (the same
 * row object, arrival and write time), so it shares the first run's slot instead of copying.
 */
function sameAppend(a: JoinEntry, b: JoinEntry): boolean {
  return a.row === b.row && a.seq === b.seq && a.count === b.count && a.assoc === b.assoc && a.at === b.at && a.h === b.h;
}

function append(spec: SideSpec, b: SharedLog<JoinEntry>, e: JoinEntry): Bucket {
  const next = b.push(e, e.h, sameAppend);
  return next.size > BIG ? toMap(spec, next) : next;
}
