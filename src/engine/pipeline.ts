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
import type { SideRuntime } from './context.js';
import { rowKey, rowsEqual } from './keys.js';
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

function traceNormalize(w: Work, sr: SideRuntime, kind: RowKind, row: Row, out: [RowKind, Row][], reason: string): void {
  if (!w.tracing) return;
  const types = sr.table.types;
  w.trace({ t: 'normalize', table: sr.table.name, in: formatRow(kind, row, types), out: out.map(([k, r]) => formatRow(k, r, types)), reason });
}

/** Whether +I/+U `row` counts as the stored row again (the equaliser compared RowKind before 2.2). */
function identical(w: Work, sr: SideRuntime, kind: RowKind, prev: Row, row: Row): boolean {
  if (stateTtlEnabled(w)) return false;
  if (kind === '+U' && !sr.normalizeIgnoresKind) return false;
  return rowsEqual(prev, row, undefined, sr.table.proctimeColumns);
}

function normalize(w: Work, sr: SideRuntime, key: readonly number[], kind: RowKind, row: Row): void {
  const k = rowKey(row, key);
  const state = w.sides[sr.side];
  const prev = pmGet(state.normalize, k);
  const filter = sr.filterInNormalize ? sr.filter : undefined;
  const out: [RowKind, Row][] = [];
  let store: Row | null | undefined; // undefined = state unchanged, null = cleared
  let reason: string;
  if (isAccumulate(kind)) {
    if (prev === undefined) {
      if (filter !== undefined && filter(row, w.evalCtx) !== true) {
        reason = 'first row for this key does not pass the filter: not stored';
      } else {
        out.push(['+I', row]);
        store = row;
        reason = 'first row for this key';
      }
    } else if (identical(w, sr, kind, prev, row)) {
      reason = 'identical to the stored row: dropped';
    } else if (filter !== undefined && filter(row, w.evalCtx) !== true) {
      out.push(['-D', prev]);
      store = null;
      reason = 'the new row no longer passes the filter: the stored row is deleted';
    } else {
      if (sr.generateUpdateBefore) out.push(['-U', prev]);
      out.push(['+U', row]);
      store = row;
      reason = 'replaces the stored row';
    }
  } else if (prev !== undefined) {
    out.push(['-D', prev]);
    store = null;
    reason = 'deletes the stored row (sent in full)';
  } else {
    reason = 'no stored row for this key: nothing to delete';
  }
  if (store !== undefined) {
    w.setSide(sr.side, { ...state, normalize: store === null ? pmDelete(state.normalize, k) : pmSet(state.normalize, k, store) });
  }
  traceNormalize(w, sr, kind, row, out, `ChangelogNormalize: ${reason}`);
  for (const [ok, or] of out) {
    // Flink 2.0: the filter is a Calc over the normalized changelog.
    if (sr.filter !== undefined && !sr.filterInNormalize && !passes(w, sr, ok, or)) continue;
    afterNormalize(w, sr, ok, or);
  }
}

function afterNormalize(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  if (sr.dedup !== undefined) dedup(w, sr, kind, row);
  else deliver(w, sr, kind, row);
}

/** ROW_NUMBER() = 1 keep-last (RowTime / ProcTime DeduplicateKeepLastRow). */
function dedup(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  const d = sr.dedup!;
  const k = rowKey(row, d.key);
  const state = w.sides[sr.side];
  const prev = pmGet(state.dedup, k);
  const out: [RowKind, Row][] = [];
  let reason: string;
  if (!isAccumulate(kind)) {
    if (prev !== undefined && rowsEqual(prev, row, undefined, sr.table.proctimeColumns)) {
      out.push(['-D', prev]);
      w.setSide(sr.side, { ...state, dedup: pmDelete(state.dedup, k) });
      reason = 'the kept row is retracted';
    } else reason = 'retracts a row that is not the kept one: ignored';
  } else {
    const keep = keepCurrent(d, prev, row);
    if (!keep) {
      reason = d.keepLast ? 'older than the kept row: dropped' : 'not the first row: dropped';
    } else if (prev !== undefined && !d.rowtime && !stateTtlEnabled(w) && rowsEqual(prev, row, undefined, sr.table.proctimeColumns)) {
      reason = 'identical to the kept row: dropped';
      w.setSide(sr.side, { ...state, dedup: pmSet(state.dedup, k, row) });
    } else {
      if (prev === undefined) out.push(['+I', row]);
      else {
        if (sr.generateUpdateBefore) out.push(['-U', prev]);
        out.push(['+U', row]);
      }
      reason = prev === undefined ? 'first row for this key' : 'replaces the kept row';
      w.setSide(sr.side, { ...state, dedup: pmSet(state.dedup, k, row) });
    }
  }
  traceNormalize(w, sr, kind, row, out, `Deduplicate (ROW_NUMBER = 1): ${reason}`);
  for (const [ok, or] of out) deliver(w, sr, ok, or);
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
