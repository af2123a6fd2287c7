/**
 * One join key's entries (a bucket) and the operations on it, under the side's layout. A bucket
 * is immutable except within a transient edit (collections/edit.ts, through pvec/pmap).
 */
import type { Row } from '../../values/types.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmSize, pmValues, type PMap } from '../collections/pmap.js';
import { PVEC_EMPTY, pvFromArray, pvGet, pvLeaf, pvPush, pvSet, pvToArray, type PVec } from '../collections/pvec.js';
import { joinKey, rowHash, rowId, sameOn, sameRow } from '../keys.js';
import type { JoinEntry, SideSpec } from './join-state.js';

/**
 * The entries of one join key. Up to BIG entries: a persistent vector in arrival order (entries
 * are found by a scan of their identity hashes; an append copies at most the 32-entry tail, so a
 * checkpoint keeps little of a key it touched). Beyond: a map by entry id, so that a hot key
 * stays O(log n) per write (read in arrival order by sorting on seq).
 */
export type Bucket = PVec<JoinEntry> | PMap<JoinEntry>;

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

/** A bucket's entries in arrival order (a bucket held in its tail alone is returned as is). */
export function bucketEntries(b: Bucket): readonly JoinEntry[] {
  if (!isVec(b)) return pmValues(b).sort((x, y) => x.seq - y.seq);
  return b.t.length === b.n ? b.t : pvToArray(b);
}

export function isVec(b: Bucket): b is PVec<JoinEntry> {
  return (b as PVec<JoinEntry>).t !== undefined;
}

/** The stored entry that `row` identifies under the layout, if any (expired or not). */
export function bucketFind(spec: SideSpec, b: Bucket, row: Row): JoinEntry | undefined {
  if (!isVec(b)) return pmGet(b, entryId(spec, row));
  const at = indexIn(spec, b, row, entryHash(spec, row));
  return at < 0 ? undefined : pvGet(b, at);
}

/** Buckets above this size switch to a map by entry id. */
const BIG = 512;

function toMap(spec: SideSpec, es: readonly JoinEntry[]): PMap<JoinEntry> {
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
  if (b === undefined) return pvPush(PVEC_EMPTY, e);
  if (!isVec(b)) return pmSet(b, entryId(spec, e.row), e);
  return absent ? appendToVec(spec, b, e) : putInVec(spec, b, e);
}

/** The bucket without the entry `row` identifies: `b` itself if none, undefined once empty. */
export function bucketRemove(spec: SideSpec, b: Bucket, row: Row): Bucket | undefined {
  let next: Bucket;
  if (isVec(b)) {
    const at = indexIn(spec, b, row, entryHash(spec, row));
    if (at < 0) return b;
    // Rebuilt (never changed in place): liveEntries may be iterating the old entries while it
    // drops expired rows.
    next = withoutAt(b, at);
  } else {
    next = pmDelete(b, entryId(spec, row));
    if (next === b) return b;
  }
  return (isVec(next) ? next.n === 0 : pmSize(next) === 0) ? undefined : next;
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

