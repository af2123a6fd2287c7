/**
 * The record state of the regular and semi/anti joins: Flink's JoinRecordStateViews and
 * OuterJoinRecordStateViews (stream/state/), as persistent plain data. The operators speak its
 * verbs — addRecord, retractRecord, updateAssoc, hasRecord, liveEntries (the records of a key),
 * liveEntry, storedRows — on a RecordStateViews opened on the operator state for one element.
 *
 * One store per input side (record-store.ts): join key -> entry id -> entry, where a key's
 * entries are kept as columns (record-bucket.ts) and handed out as JoinEntry objects built on
 * read. The entry id depends on the side's layout (Flink's JoinInputSideSpec):
 *   JoinKeyContainsUniqueKey  one row per join key (a ValueState): id '' ; add overwrites,
 *                             retract clears whatever row was sent;
 *   InputSideHasUniqueKey     map unique key -> row: id = the unique key ; put overwrites;
 *   InputSideHasNoUniqueKey   map row -> count: id = the stored row (the input pruned to the
 *                             columns the query reads, `kept`) ; duplicates are counted.
 * Outer sides also keep the number of associations (matches on the other side) per entry; for a
 * duplicated row the copies share one number, as in Flink's (count, numAssociations) tuple.
 *
 * State TTL is per entry (a map entry or the ValueState), processing time, refreshed by writes
 * only (an association update is a write), expired when `at + ttl <= now`. It is lazy: an access
 * that finds an expired entry treats it as absent, drops it, flags the step and traces
 * `state.expire`. Each entry keeps the sequence number of its first put into the key's map (a put
 * on an existing entry keeps it), and the records of a key are handed out as Flink's heap MapState
 * iterates them: HashMap order over the rows' binary form (flink-map-order.ts). One row per key
 * (a ValueState) has no order to choose.
 */
import type { Row, SqlType } from '../../values/types.js';
import type { Side, StateLayout } from '../../planner/plan.js';
import { formatRow, formatValue } from '../../values/format.js';
import { created, isEditable } from '../collections/edit.js';
import { STEP_EXPIRE, type Collector } from '../types.js';
import { Cursor, cursorEntries, cursorFind, cursorHash, cursorPut, cursorRemove, entryAt, entryId } from './record-bucket.js';
import type { ColumnLog } from '../collections/shared-log-columns.js';
import { KeyInterner } from './key-interner.js';
import { SideStore } from './record-store.js';
import { binaryRowHash, cachedMapKeyHash, inHashMapOrder } from './flink-map-order.js';

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


export interface JoinState {
  readonly sides: readonly [SideStore, SideStore];
  /** Next arrival sequence number. */
  readonly seq: number;
}

/** A new empty state (each run gets its own stores: their registries are per run). */
export function emptyJoinState(): JoinState {
  const keys = new KeyInterner();
  return { sides: [SideStore.empty(keys), SideStore.empty(keys)], seq: 0 };
}

/** A side's entries in arrival order, each built when read (the state pane reads a screenful). */
export interface EntriesInOrder {
  readonly size: number;
  at(i: number): JoinEntry;
}

/**
 * A side's entries in arrival order (the order the state pane lists them). A side can hold a
 * million entries and the pane reads a screenful, most often the first ones: so the first HEAD
 * entries are selected in one pass over the seqs (a log bucket's are read off its columns) with
 * no per-entry arrays, and only a read past them puts the whole side in order. Entries are
 * ordered by seq, then by where they were found (logs before maps), as a stable sort would.
 * Only the entries read are built.
 */
export function entriesInArrivalOrder(state: JoinState, side: Side): EntriesInOrder {
  const logs: ColumnLog<Row>[] = [];
  const sizes: number[] = [];
  const maps: JoinEntry[][] = [];
  state.sides[side].forEachBucketStored(
    (log, n) => {
      logs.push(log);
      sizes.push(n);
    },
    (entries) => maps.push(entries),
  );
  let size = 0;
  for (const n of sizes) size += n;
  for (const m of maps) size += m.length;
  const entry = (b: number, i: number): JoinEntry => (b >= 0 ? entryAt(logs[b]!, i) : maps[-1 - b]![i]!);
  // Made now, not on the first read: the app times a state's description to decide whether a
  // frame can wait for it (src/ui/step-view.ts), and this pass is most of its cost.
  const first = Math.min(HEAD, size);
  const head = firstBySeq(logs, sizes, maps, first);
  let all: ReturnType<typeof allBySeq> | undefined;
  return {
    size,
    at(i: number): JoinEntry {
      if (i < first) return entry(head.bucket[i]!, head.place[i]!);
      all ??= allBySeq(logs, sizes, maps, size, state.seq);
      const e = all.order[i]!;
      return entry(all.bucket[e]!, all.place[e]!);
    },
  };
}

/** How many of a side's first entries are selected without putting the whole side in order. */
const HEAD = 1024;

/** Entries found: their bucket (a log's index, or -1 - a map's index) and their place there. */
interface Located {
  readonly bucket: Int32Array;
  readonly place: Int32Array;
}

/** Swaps places a and b of a typed array. */
function swapAt(xs: Float64Array | Int32Array, a: number, b: number): void {
  const t = xs[a]!;
  xs[a] = xs[b]!;
  xs[b] = t;
}

/**
 * The `h` entries with the lowest seqs, in order (`bucket[i]`, `place[i]`: the i-th): a
 * max-heap of the best `h` so far, over one pass in the order `allBySeq` numbers entries (an
 * entry met later replaces the top only with a lower seq, so equal seqs keep the earlier entry,
 * as the stable sort does).
 */
function firstBySeq(logs: readonly ColumnLog<Row>[], sizes: readonly number[], maps: readonly JoinEntry[][], h: number): Located {
  const seq = new Float64Array(h);
  const k = new Float64Array(h);
  const bucket = new Int32Array(h);
  const place = new Int32Array(h);
  let n = 0;
  // Heap order: a parent is after its children (a higher seq, or the same seq met later).
  const after = (a: number, b: number): boolean => seq[a]! > seq[b]! || (seq[a] === seq[b] && k[a]! > k[b]!);
  const swap = (a: number, b: number): void => {
    swapAt(seq, a, b);
    swapAt(k, a, b);
    swapAt(bucket, a, b);
    swapAt(place, a, b);
  };
  const down = (from: number, end: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= end) return;
      const c = l + 1 < end && after(l + 1, l) ? l + 1 : l;
      if (!after(c, i)) return;
      swap(c, i);
      i = c;
    }
  };
  // Entry `at` (its number in that pass) in bucket b, place i, when it is among the best so far.
  const offer = (s: number, at: number, b: number, i: number): void => {
    if (n < h) {
      seq[n] = s;
      k[n] = at;
      bucket[n] = b;
      place[n] = i;
      for (let c = n++; c > 0 && after(c, (c - 1) >> 1); c = (c - 1) >> 1) swap(c, (c - 1) >> 1);
    } else {
      seq[0] = s;
      k[0] = at;
      bucket[0] = b;
      place[0] = i;
      down(0, n);
    }
  };
  // Most entries lose to the top at once: the test is made here, not in a call per entry.
  let at = 0;
  for (let b = 0; b < logs.length; b++) {
    const log = logs[b]!;
    const size = sizes[b]!;
    for (let i = 0; i < size; i++, at++) {
      const s = log.seq(i);
      if (n < h || s < seq[0]!) offer(s, at, b, i);
    }
  }
  for (let b = 0; b < maps.length; b++) {
    const entries = maps[b]!;
    for (let i = 0; i < entries.length; i++, at++) {
      const s = entries[i]!.seq;
      if (n < h || s < seq[0]!) offer(s, at, -1 - b, i);
    }
  }
  // Heapsort in place: the top goes to the end, so the arrays end in ascending order.
  for (let end = n - 1; end > 0; end--) {
    swap(0, end);
    down(0, end);
  }
  return { bucket, place };
}

/**
 * Every entry in order (`order[i]`: the i-th's index in `bucket` and `place`). As sequence
 * numbers are distinct integers below `state.seq`, a big side is put in order by placing each
 * entry at its seq (about 10 ms against several hundred for a comparison sort of a million). A
 * seq out of that range falls back to the sort.
 */
function allBySeq(logs: readonly ColumnLog<Row>[], sizes: readonly number[], maps: readonly JoinEntry[][], size: number, end: number): Located & { readonly order: ArrayLike<number> } {
  // Per entry: its bucket, its place there, its seq.
  const bucket = new Int32Array(size);
  const place = new Int32Array(size);
  const seqs = new Float64Array(size);
  let k = 0;
  for (let b = 0; b < logs.length; b++) {
    const log = logs[b]!;
    for (let i = 0; i < sizes[b]!; i++, k++) {
      bucket[k] = b;
      place[k] = i;
      seqs[k] = log.seq(i);
    }
  }
  for (let b = 0; b < maps.length; b++) {
    const entries = maps[b]!;
    for (let i = 0; i < entries.length; i++, k++) {
      bucket[k] = -1 - b;
      place[k] = i;
      seqs[k] = entries[i]!.seq;
    }
  }
  return { bucket, place, order: byValue(seqs, end) };
}

/** The indexes of `values` in ascending order of value; distinct values below `end` are placed, not sorted. */
function byValue(values: ArrayLike<number>, end: number): ArrayLike<number> {
  const n = values.length;
  const sorted = (): number[] => Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  if (n < 4096 || end > 8 * n) return sorted();
  const at = new Int32Array(end).fill(-1);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!(v >= 0 && v < end && at[v] === -1)) return sorted();
    at[v] = i;
  }
  const out = new Int32Array(n);
  let k = 0;
  for (let v = 0; v < end; v++) if (at[v]! >= 0) out[k++] = at[v]!;
  return out;
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
  /**
   * The columns of the row Flink stores (it prunes each join input to what the query reads), whose
   * bytes decide the record's hash; undefined: every column.
   */
  readonly kept?: readonly number[];
}

/**
 * Both sides' record state for one element: the stores and the sequence counter, changed as the
 * element is processed, and each side's last bucket read or written (one element reads and
 * writes one join key several times: addRecord's lookup then its write, then the other side's
 * matches). An operator keeps one and opens it per element (processElement is never re-entered):
 * no allocation per row. close() returns the new state, sharing everything that did not change.
 */
export class RecordStateViews {
  private base: JoinState | undefined = undefined;
  stores: [SideStore, SideStore];
  seq = 0;
  /** Per side: the bucket of the join key last read or written (its `key` undefined: none). */
  readonly cursors: [Cursor, Cursor] = [new Cursor(), new Cursor()];

  constructor() {
    const empty = SideStore.empty();
    this.stores = [empty, empty];
  }

  open(s: JoinState): this {
    this.base = s;
    this.stores[0] = s.sides[0];
    this.stores[1] = s.sides[1];
    this.seq = s.seq;
    this.cursors[0].clear(undefined);
    this.cursors[1].clear(undefined);
    return this;
  }

  /** The join key of `row` on a side with key columns `idx` (the one instance the run's interner holds). */
  keyOfRow(row: Row, idx: readonly number[]): string {
    return this.stores[0].keys.keyOfRow(row, idx);
  }

  close(): JoinState {
    const s = this.base as JoinState;
    if (this.stores[0] === s.sides[0] && this.stores[1] === s.sides[1] && this.seq === s.seq) return s;
    if (isEditable(s)) {
      // Created earlier in this transient edit (edit.ts): nothing else can see it.
      const m = s as { sides: [SideStore, SideStore]; seq: number };
      m.sides[0] = this.stores[0];
      m.sides[1] = this.stores[1];
      m.seq = this.seq;
      return s;
    }
    return created({ sides: created([this.stores[0], this.stores[1]]) as [SideStore, SideStore], seq: this.seq });
  }
}


export function printKeyOf(spec: SideSpec, row: Row): string {
  return spec.keyIdx.map((i) => formatValue(spec.types[i] as SqlType, row[i] ?? null)).join(', ');
}

export function printStored(spec: SideSpec, row: Row): string {
  return formatRow('+I', row, spec.types);
}

const TS: SqlType = { kind: 'TIMESTAMP', nullable: false, precision: 3 };

/** A processing time as people read it (TIMESTAMP(3) text). */
function printProcTime(ms: number): string {
  return formatValue(TS, ms);
}

/** The bucket of `key` on `side`, read once per step and remembered for the next access. */
function bucketOf(v: RecordStateViews, side: Side, key: string): Cursor {
  const c = v.cursors[side];
  if (c.key !== key) v.stores[side].read(key, c);
  return c;
}

/** Store the cursor's bucket back (an empty one drops the key). */
function storeBucket(v: RecordStateViews, side: Side, c: Cursor): void {
  v.stores[side] = v.stores[side].write(c.key as string, c);
}

/** A record's identity under the side's layout: '' (one row per key), its unique key, or the whole row. */
export function recordId(spec: SideSpec, row: Row): string {
  return entryId(spec, row);
}

export function isExpired(spec: SideSpec, e: JoinEntry, now: number): boolean {
  return spec.ttlMs > 0 && e.at + spec.ttlMs <= now;
}

function dropExpired(spec: SideSpec, v: RecordStateViews, k: KeyRef, e: JoinEntry, now: number, out: Collector): void {
  removeEntry(spec, v, k.key, e.row);
  out.flag(STEP_EXPIRE);
  if (!out.tracing) return;
  const reason = `last written ${printProcTime(e.at)} + TTL ${spec.ttlMs} ms = ${printProcTime(e.at + spec.ttlMs)} <= now ${printProcTime(now)}: expired, so Flink treats it as absent`;
  out.trace({ t: 'state.expire', side: spec.side, key: k.pkey, row: printStored(spec, e.row), reason });
}

/** The hash of the HashMap key Flink's MapState files `row` under on this side. */
function mapKeyHash(spec: SideSpec, row: Row): number {
  return cachedMapKeyHash(spec, row, (r) => {
    const l = spec.layout;
    if (l.kind !== 'InputSideHasUniqueKey') {
      const kept = spec.kept;
      if (kept === undefined) return binaryRowHash(r, spec.types);
      return binaryRowHash(
        kept.map((i) => r[i] ?? null),
        kept.map((i) => spec.types[i] as SqlType),
      );
    }
    return binaryRowHash(
      l.uniqueKey.map((i) => r[i] ?? null),
      l.uniqueKey.map((i) => spec.types[i] as SqlType),
    );
  });
}

/** Entries of one key in the order Flink's MapState iterates them (none to order below two). */
function inFlinkOrder(spec: SideSpec, entries: JoinEntry[], peak: number): JoinEntry[] {
  if (entries.length < 2 || spec.layout.kind === 'JoinKeyContainsUniqueKey') return entries;
  return inHashMapOrder(entries, Math.max(peak, entries.length), (e) => mapKeyHash(spec, e.row), (e) => e.seq);
}

/** The live entries of a join key, in Flink's iteration order; expired ones are dropped (and traced). */
export function liveEntries(spec: SideSpec, v: RecordStateViews, k: KeyRef, now: number, out: Collector): readonly JoinEntry[] {
  const c = bucketOf(v, spec.side, k.key);
  const all = cursorEntries(c);
  // The map's size before expired entries are dropped decides its capacity.
  const peak = c.peakSize();
  if (spec.ttlMs <= 0 || all.length === 0) return inFlinkOrder(spec, all, peak);
  const live: JoinEntry[] = [];
  for (const e of all) {
    if (isExpired(spec, e, now)) dropExpired(spec, v, k, e, now, out);
    else live.push(e);
  }
  return inFlinkOrder(spec, live, peak);
}

/** One live entry, identified by `row` (expired = absent, dropped and traced). */
export function liveEntry(spec: SideSpec, v: RecordStateViews, k: KeyRef, row: Row, now: number, out: Collector): JoinEntry | undefined {
  const e = cursorFind(spec, bucketOf(v, spec.side, k.key), row);
  if (e === undefined) return undefined;
  if (!isExpired(spec, e, now)) return e;
  dropExpired(spec, v, k, e, now, out);
  return undefined;
}

/**
 * Store an entry (its fields, so that no object is built), replacing the entry with the same
 * identity; a new seq moves it to the end. `absent`: the caller has just looked and found no
 * entry with this identity (skips a second scan).
 */
export function putEntry(
  spec: SideSpec,
  v: RecordStateViews,
  key: string,
  row: Row,
  count: number,
  assoc: number,
  seq: number,
  at: number,
  h: number,
  absent = false,
): void {
  const c = bucketOf(v, spec.side, key);
  cursorPut(spec, c, row, count, assoc, seq, at, h, absent);
  storeBucket(v, spec.side, c);
}

/**
 * The rows stored under a join key, each as many times as it is counted, in Flink's order, into
 * `into` from index 0 (slots past the count are left as they were: no array is shrunk or built,
 * and no entry objects). Returns the count, or -1 when an entry has expired (TTL): then the
 * caller must read liveEntries, which drops and traces it.
 */
export function storedRows(spec: SideSpec, v: RecordStateViews, key: string, now: number, into: Row[]): number {
  const c = bucketOf(v, spec.side, key);
  const ttl = spec.ttlMs;
  let m = 0;
  if (c.big !== undefined || (c.n > 1 && spec.layout.kind !== 'JoinKeyContainsUniqueKey')) {
    for (const e of inFlinkOrder(spec, cursorEntries(c), c.peakSize())) {
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
export function removeEntry(spec: SideSpec, v: RecordStateViews, key: string, row: Row): void {
  const c = bucketOf(v, spec.side, key);
  if (cursorRemove(spec, c, row)) storeBucket(v, spec.side, c);
}

function assocText(spec: SideSpec, assoc: number): string {
  return spec.outer ? `, assoc=${assoc}` : '';
}

/**
 * state.add(record[, numAssociations]): the unique layouts overwrite (a new arrival); the
 * no-unique-key layout counts copies of the same row, which share one association number.
 */
export function addRecord(spec: SideSpec, v: RecordStateViews, k: KeyRef, row: Row, assoc: number, now: number, out: Collector): void {
  const old = liveEntry(spec, v, k, row, now, out);
  const a = spec.outer ? assoc : -1;
  const tracing = out.tracing;
  const printed = tracing ? printStored(spec, row) : '';
  if (spec.layout.kind === 'InputSideHasNoUniqueKey' && old !== undefined) {
    putEntry(spec, v, k.key, old.row, old.count + 1, a, old.seq, now, old.h);
    if (tracing) out.trace({ t: 'state.update', side: spec.side, key: k.pkey, row: printed, detail: `count ${old.count} -> ${old.count + 1}${assocText(spec, a)}` });
    return;
  }
  // No live entry (an expired one was just dropped): append without a second scan. An overwrite
  // keeps the entry's place (a HashMap put on an existing key does not move it).
  putEntry(spec, v, k.key, row, 1, a, old?.seq ?? v.seq++, now, old?.h ?? cursorHash(spec, bucketOf(v, spec.side, k.key), row), old === undefined);
  if (!tracing) return;
  if (old === undefined) {
    out.trace({ t: 'state.add', side: spec.side, key: k.pkey, row: printed, detail: `${spec.layout.kind === 'InputSideHasNoUniqueKey' ? 'count=1' : 'stored'}${assocText(spec, a)}` });
  } else {
    const what = spec.layout.kind === 'JoinKeyContainsUniqueKey' ? 'the row of this join key' : 'the row with the same unique key';
    out.trace({ t: 'state.update', side: spec.side, key: k.pkey, row: printed, detail: `overwrites ${what}, ${printStored(spec, old.row)}${assocText(spec, a)}` });
  }
}

/**
 * state.retract(record): JoinKeyContainsUniqueKey clears the key's row whatever row was sent;
 * InputSideHasUniqueKey removes by unique key; InputSideHasNoUniqueKey takes one copy away.
 * Nothing stored (never arrived, or expired) changes nothing.
 */
export function retractRecord(spec: SideSpec, v: RecordStateViews, k: KeyRef, row: Row, now: number, out: Collector): void {
  const old = liveEntry(spec, v, k, row, now, out);
  const tracing = out.tracing;
  if (old === undefined) {
    if (tracing) out.trace({ t: 'note', text: `${spec.name}: ${printStored(spec, row)} is not in state (never stored, or expired): nothing to retract` });
    return;
  }
  if (spec.layout.kind === 'InputSideHasNoUniqueKey' && old.count > 1) {
    putEntry(spec, v, k.key, old.row, old.count - 1, old.assoc, old.seq, now, old.h);
    if (tracing) out.trace({ t: 'state.update', side: spec.side, key: k.pkey, row: printStored(spec, old.row), detail: `count ${old.count} -> ${old.count - 1}` });
    return;
  }
  removeEntry(spec, v, k.key, row);
  if (!tracing) return;
  const detail =
    spec.layout.kind === 'JoinKeyContainsUniqueKey'
      ? 'clears the row of this join key (one row per key: whatever row the retraction carries)'
      : spec.layout.kind === 'InputSideHasUniqueKey'
        ? 'removed by its unique key'
        : 'last copy removed';
  out.trace({ t: 'state.retract', side: spec.side, key: k.pkey, row: printStored(spec, old.row), detail });
}

/**
 * otherState.update(other, n): a write (it refreshes the entry's TTL). An entry that is gone is
 * written back with count 1, as Flink does "for state ttl".
 */
export function updateAssoc(spec: SideSpec, v: RecordStateViews, k: KeyRef, seen: JoinEntry, n: number, now: number, out: Collector): void {
  const cur = liveEntry(spec, v, k, seen.row, now, out);
  if (cur === undefined) putEntry(spec, v, k.key, seen.row, 1, n, v.seq++, now, seen.h);
  else putEntry(spec, v, k.key, seen.row, cur.count, n, cur.seq, now, cur.h);
  if (out.tracing) out.trace({ t: 'state.update', side: spec.side, key: k.pkey, row: printStored(spec, seen.row), detail: `assoc ${seen.assoc} -> ${n}` });
}

/** Flink's hasRecord: is this row (by the layout's identity) in state now? */
export function hasRecord(spec: SideSpec, v: RecordStateViews, k: KeyRef, row: Row, now: number, out: Collector): boolean {
  return liveEntry(spec, v, k, row, now, out) !== undefined;
}
