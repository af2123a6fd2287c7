/**
 * Deduplicate in a join input's pipeline (pipeline.ts): the ROW_NUMBER() = 1 view Flink plans
 * as a keep-first or keep-last deduplication, on row time or processing time.
 *
 * The kept row per key is keyed state under table.exec.state.ttl (OnCreateAndWrite, never
 * returning an expired value): a row kept `ttl` ago or more reads as absent, so the next row of
 * the key is a first row again (+I), whatever its time, and a retraction finds nothing.
 *
 * Insert-only keep-first on row time (Flink 2.1+ over an append-only input, outputInsertOnly:
 * RowTimeDeduplicateKeepFirstRowFunction): a row whose time is below the input watermark is
 * dropped as late; once a key's row has gone out every later row is ignored; otherwise the row
 * with the smallest time waits, with an event-time timer at its time, and goes out as +I when the
 * input watermark reaches it -- before that watermark moves on to the join. Only the "gone out"
 * mark is under table.exec.state.ttl (the waiting row is not): once it expires, the key's next
 * on-time row waits and goes out as a first row again.
 */
import type { Row, RowKind } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import { pmDelete, pmEntries, pmGet, pmHas, pmSet } from './collections/pmap.js';
import { formatRow } from '../values/format.js';
import type { SideRuntime } from './context.js';
import { rowKey, rowsEqual } from './keys.js';
import { deliver } from './pipeline-deliver.js';
import { ownSide, stateTtlEnabled, traceStage } from './pipeline-side.js';
import type { Work } from './work.js';

/** ROW_NUMBER() = 1 keep-last (RowTime / ProcTime DeduplicateKeepLastRow). */
export function dedup(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  const d = sr.dedup!;
  if (d.insertOnly) {
    firstRowWaits(w, sr, row);
    return;
  }
  const k = rowKey(row, d.key);
  const side = w.sides[sr.side];
  let prev = pmGet(side.dedup, k);
  const ttl = w.ctx.config.stateTtlMs;
  const expired = prev !== undefined && ttl > 0 && (pmGet(side.dedupWritten, k) ?? w.procTime) + ttl <= w.procTime;
  if (expired) prev = undefined;
  // The rows sent on (-U old then +U new at most), a kind undefined for none.
  let k1: RowKind | undefined;
  let r1: Row | undefined;
  let k2: RowKind | undefined;
  let r2: Row | undefined;
  let reason: string;
  let store: Row | null | undefined;
  if (!isAccumulate(kind)) {
    if (prev !== undefined && rowsEqual(prev, row, undefined, sr.table.proctimeColumns)) {
      k1 = '-D';
      r1 = prev;
      store = null;
      reason = 'the kept row is retracted';
    } else reason = expired ? 'the kept row expired (table.exec.state.ttl): nothing to retract' : 'retracts a row that is not the kept one: ignored';
  } else {
    const keep = keepCurrent(d, prev, row);
    if (!keep) {
      reason = d.keepLast ? 'older than the kept row: dropped' : 'not the first row: dropped';
    } else if (prev !== undefined && !d.rowtime && !stateTtlEnabled(w) && rowsEqual(prev, row, undefined, sr.table.proctimeColumns)) {
      reason = 'identical to the kept row: dropped';
      store = row;
    } else {
      // +I for a first row; an update is -U old then +U new, or +U new alone
      const before = prev !== undefined && sr.generateUpdateBefore;
      k1 = prev === undefined ? '+I' : before ? '-U' : '+U';
      r1 = before ? prev : row;
      k2 = before ? '+U' : undefined;
      r2 = row;
      reason = prev !== undefined ? 'replaces the kept row' : expired ? 'the kept row expired (table.exec.state.ttl): a first row again' : 'first row for this key';
      store = row;
    }
  }
  if (store !== undefined) {
    const st = ownSide(w, sr.side);
    st.dedup = store === null ? pmDelete(st.dedup, k) : pmSet(st.dedup, k, store);
    if (ttl > 0) st.dedupWritten = store === null ? pmDelete(st.dedupWritten, k) : pmSet(st.dedupWritten, k, w.procTime);
  }
  if (w.tracing) traceStage(w, sr, kind, row, k1, r1, k2, r2, `Deduplicate (ROW_NUMBER = 1): ${reason}`);
  if (k1 !== undefined) deliver(w, sr, k1, r1!);
  if (k2 !== undefined) deliver(w, sr, k2, r2!);
}

function keepCurrent(d: NonNullable<SideRuntime['dedup']>, prev: Row | undefined, row: Row): boolean {
  if (prev === undefined) return true;
  if (!d.rowtime) return d.keepLast;
  const a = prev[d.orderBy];
  const b = row[d.orderBy];
  if (typeof a !== 'number' || typeof b !== 'number') return d.keepLast;
  return d.keepLast ? a <= b : b < a;
}

/** Insert-only keep-first: the row is late, ignored, or the key's candidate until the watermark. */
function firstRowWaits(w: Work, sr: SideRuntime, row: Row): void {
  const d = sr.dedup!;
  const k = rowKey(row, d.key);
  const t = row[d.orderBy];
  const time = typeof t === 'number' ? t : 0;
  const prev = pmGet(w.sides[sr.side].dedup, k);
  let reason: string;
  const side = w.sides[sr.side];
  const ttl = w.ctx.config.stateTtlMs;
  const emitted = pmHas(side.firstEmitted, k) && !(ttl > 0 && (pmGet(side.dedupWritten, k) ?? w.procTime) + ttl <= w.procTime);
  if (time < (w.inputs[sr.side]?.wm ?? Number.NEGATIVE_INFINITY)) reason = 'its time is below the watermark: dropped as late';
  else if (emitted) reason = 'the first row for this key has gone out: ignored';
  else if (!keepCurrent(d, prev, row)) reason = 'not earlier than the waiting row: dropped';
  else {
    reason = 'waits for the watermark to reach its time (insert-only keep-first)';
    const st = ownSide(w, sr.side);
    st.dedup = pmSet(st.dedup, k, row);
  }
  if (w.tracing) traceStage(w, sr, '+I', row, undefined, undefined, undefined, undefined, `Deduplicate (ROW_NUMBER = 1): ${reason}`);
}

/**
 * The input watermark of side `sr` moves to `wm`: the waiting rows with time <= wm go out as +I,
 * in time order (their timers'), and their keys are done.
 */
export function firstRowsOnWatermark(w: Work, sr: SideRuntime, wm: number): void {
  const d = sr.dedup;
  if (d === undefined || !d.insertOnly) return;
  const due = pmEntries(w.sides[sr.side].dedup)
    .map(([k, row]) => ({ k, row, time: typeof row[d.orderBy] === 'number' ? (row[d.orderBy] as number) : 0 }))
    .filter((e) => e.time <= wm)
    .sort((a, b) => a.time - b.time);
  for (const e of due) {
    const st = ownSide(w, sr.side);
    st.dedup = pmDelete(st.dedup, e.k);
    st.firstEmitted = pmSet(st.firstEmitted, e.k, true as const);
    // the mark's write time, for table.exec.state.ttl (dedupWritten is otherwise unused here)
    if (w.ctx.config.stateTtlMs > 0) st.dedupWritten = pmSet(st.dedupWritten, e.k, w.procTime);
    if (w.tracing) {
      w.trace({ t: 'normalize', table: sr.table.name, in: formatRow('+I', e.row, sr.table.types), out: [formatRow('+I', e.row, sr.table.types)], reason: 'Deduplicate (ROW_NUMBER = 1): the watermark reached its time, the first row goes out' });
    }
    deliver(w, sr, '+I', e.row);
  }
}
