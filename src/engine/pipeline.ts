/**
 * One join input's pipeline, in Flink's order: source row → filter → ChangelogNormalize (upsert
 * sources, keyed by the primary key) → Deduplicate (ROW_NUMBER keep-last view) →
 * DropUpdateBefore → projection → the operator.
 *
 * ChangelogNormalize follows DeduplicateFunctionHelper.processLastRowOnChangelog(WithFilter):
 * +I/+U with no previous row → +I; the same row again → nothing (unless state TTL is on; before
 * 2.2 a +U never equals the stored +I row); otherwise -U old, +U new; -U/-D → -D of the *stored*
 * row (the input may carry only the key), nothing if none stored. From 2.1 the input's filter is
 * evaluated inside it: a first row failing it is not stored, an update failing it deletes the
 * stored row (-D). In 2.0 the filter is a Calc over the normalized changelog.
 */
import { formatRow } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import { pmDelete, pmGet, pmSet } from './collections/pmap.js';
import { created, isEditable } from './collections/edit.js';
import type { SideRuntime } from './context.js';
import { rowKey, rowsEqual } from './keys.js';
import type { SideState } from './snapshot.js';
import type { Work } from './work.js';

/** A source row (table layout, computed columns filled) enters side `sr`. */
export function sideRow(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  if (sr.filter !== undefined && !sr.filterAfterNormalize && !passes(w, sr, kind, row)) return;
  if (sr.normalizeKey !== undefined) normalize(w, sr, sr.normalizeKey, kind, row);
  else afterNormalize(w, sr, kind, row);
}

function passes(w: Work, sr: SideRuntime, kind: RowKind, row: Row): boolean {
  if (sr.filter!(row, w.evalCtx) === true) return true;
  if (w.tracing) {
    w.trace({ t: 'filter.drop', side: sr.side, row: formatRow(kind, row, sr.table.types), reason: `the filter on ${sr.input.alias} is not TRUE` });
  }
  return false;
}

function stateTtlEnabled(w: Work): boolean {
  return w.ctx.config.stateTtlMs > 0;
}

/** Trace a normalize / dedup step; (k1, r1) and (k2, r2) are the rows out, a kind undefined for none. */
function traceNormalize(w: Work, sr: SideRuntime, kind: RowKind, row: Row, k1: RowKind | undefined, r1: Row | undefined, k2: RowKind | undefined, r2: Row | undefined, reason: string): void {
  if (!w.tracing) return;
  const types = sr.table.types;
  const out: string[] = [];
  if (k1 !== undefined) out.push(formatRow(k1, r1!, types));
  if (k2 !== undefined) out.push(formatRow(k2, r2!, types));
  w.trace({ t: 'normalize', table: sr.table.name, in: formatRow(kind, row, types), out, reason });
}

type WritableSide = { -readonly [P in keyof SideState]: SideState[P] };

/**
 * The side's state, writable: itself when the current transient edit created it (edit.ts: no kept
 * snapshot can see it), else a registered copy put in the step's sides. A bulk run thus copies it
 * once per edit rather than spreading it (and a new sides pair) on every upsert row.
 */
function ownSide(w: Work, side: 0 | 1): WritableSide {
  const state = w.sides[side];
  if (isEditable(state)) return state as WritableSide;
  const copy = created({ normalize: state.normalize, dedup: state.dedup });
  w.setSide(side, copy);
  return copy;
}

/** Whether +I/+U `row` counts as the stored row again (the equaliser compared RowKind before 2.2). */
function identical(w: Work, sr: SideRuntime, kind: RowKind, prev: Row, row: Row): boolean {
  if (stateTtlEnabled(w)) return false;
  if (kind === '+U' && !sr.normalizeIgnoresKind) return false;
  return rowsEqual(prev, row, undefined, sr.table.proctimeColumns);
}

function normalize(w: Work, sr: SideRuntime, key: readonly number[], kind: RowKind, row: Row): void {
  const k = rowKey(row, key);
  const prev = pmGet(w.sides[sr.side].normalize, k);
  const filter = sr.filterInNormalize ? sr.filter : undefined;
  // At most two rows out (-U old, +U new), kept in locals: no list or pair per row.
  let k1: RowKind | undefined;
  let r1: Row | undefined;
  let k2: RowKind | undefined;
  let r2: Row | undefined;
  let store: Row | null | undefined; // undefined = state unchanged, null = cleared
  let reason: string;
  if (isAccumulate(kind)) {
    if (prev === undefined) {
      if (filter !== undefined && filter(row, w.evalCtx) !== true) {
        reason = 'first row for this key does not pass the filter: not stored';
      } else {
        k1 = '+I';
        r1 = row;
        store = row;
        reason = 'first row for this key';
      }
    } else if (identical(w, sr, kind, prev, row)) {
      reason = 'identical to the stored row: dropped';
    } else if (filter !== undefined && filter(row, w.evalCtx) !== true) {
      k1 = '-D';
      r1 = prev;
      store = null;
      reason = 'the new row no longer passes the filter: the stored row is deleted';
    } else {
      if (sr.generateUpdateBefore) {
        k1 = '-U';
        r1 = prev;
        k2 = '+U';
        r2 = row;
      } else {
        k1 = '+U';
        r1 = row;
      }
      store = row;
      reason = 'replaces the stored row';
    }
  } else if (prev !== undefined) {
    k1 = '-D';
    r1 = prev;
    store = null;
    reason = 'deletes the stored row (sent in full)';
  } else {
    reason = 'no stored row for this key: nothing to delete';
  }
  if (store !== undefined) {
    const st = ownSide(w, sr.side);
    st.normalize = store === null ? pmDelete(st.normalize, k) : pmSet(st.normalize, k, store);
  }
  if (w.tracing) traceNormalize(w, sr, kind, row, k1, r1, k2, r2, `ChangelogNormalize: ${reason}`);
  if (k1 !== undefined) normalized(w, sr, k1, r1!);
  if (k2 !== undefined) normalized(w, sr, k2, r2!);
}

/** A row out of ChangelogNormalize goes on. */
function normalized(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  // Flink 2.0: the filter is a Calc over the normalized changelog.
  if (sr.filter !== undefined && !sr.filterInNormalize && !passes(w, sr, kind, row)) return;
  afterNormalize(w, sr, kind, row);
}

function afterNormalize(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  if (sr.dedup !== undefined) dedup(w, sr, kind, row);
  else deliver(w, sr, kind, row);
}

/** ROW_NUMBER() = 1 keep-last (RowTime / ProcTime DeduplicateKeepLastRow). */
function dedup(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  const d = sr.dedup!;
  const k = rowKey(row, d.key);
  const prev = pmGet(w.sides[sr.side].dedup, k);
  let k1: RowKind | undefined;
  let r1: Row | undefined;
  let k2: RowKind | undefined;
  let r2: Row | undefined;
  let reason: string;
  if (!isAccumulate(kind)) {
    if (prev !== undefined && rowsEqual(prev, row, undefined, sr.table.proctimeColumns)) {
      k1 = '-D';
      r1 = prev;
      const st = ownSide(w, sr.side);
      st.dedup = pmDelete(st.dedup, k);
      reason = 'the kept row is retracted';
    } else reason = 'retracts a row that is not the kept one: ignored';
  } else {
    const keep = keepCurrent(d, prev, row);
    if (!keep) {
      reason = d.keepLast ? 'older than the kept row: dropped' : 'not the first row: dropped';
    } else if (prev !== undefined && !d.rowtime && !stateTtlEnabled(w) && rowsEqual(prev, row, undefined, sr.table.proctimeColumns)) {
      reason = 'identical to the kept row: dropped';
      const st = ownSide(w, sr.side);
      st.dedup = pmSet(st.dedup, k, row);
    } else {
      if (prev === undefined) {
        k1 = '+I';
        r1 = row;
      } else if (sr.generateUpdateBefore) {
        k1 = '-U';
        r1 = prev;
        k2 = '+U';
        r2 = row;
      } else {
        k1 = '+U';
        r1 = row;
      }
      reason = prev === undefined ? 'first row for this key' : 'replaces the kept row';
      const st = ownSide(w, sr.side);
      st.dedup = pmSet(st.dedup, k, row);
    }
  }
  if (w.tracing) traceNormalize(w, sr, kind, row, k1, r1, k2, r2, `Deduplicate (ROW_NUMBER = 1): ${reason}`);
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

function deliver(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  if (kind === '-U' && sr.dropUpdateBefore) {
    if (w.tracing) w.trace({ t: 'filter.drop', side: sr.side, row: formatRow(kind, row, sr.table.types), reason: 'DropUpdateBefore: the temporal join reads only +U' });
    return;
  }
  let input = row;
  if (sr.project !== undefined) {
    const p = sr.project;
    const out = new Array(p.length);
    for (let i = 0; i < p.length; i++) out[i] = p[i]!(row, w.evalCtx);
    input = out;
  }
  w.op = w.ctx.op.processElement(w.op, sr.side, kind, input, w.opTime(), w);
}
