/**
 * Reading and writing a side's entries during a step (join-state.ts): through the Work's cursor on
 * the join key's bucket, with lazy State TTL (an expired entry found by a read is absent: it is
 * dropped and `state.expire` traced).
 */
import type { Row } from '../../values/types.js';
import type { Side } from '../../planner/plan.js';
import type { Collector } from '../types.js';
import { type Cursor, cursorEntries, cursorFind, cursorPut, cursorRemove } from './join-state-bucket.js';
import type { JoinEntry, KeyRef, SideSpec, Work } from './join-state.js';
import { printStored, printTime } from './join-state-print.js';

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

export function isExpired(spec: SideSpec, e: JoinEntry, now: number): boolean {
  return spec.ttlMs > 0 && e.at + spec.ttlMs <= now;
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
