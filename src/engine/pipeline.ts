/**
 * One join input's pipeline, in Flink's order: source row → filter → ChangelogNormalize (upsert
 * sources, keyed by the primary key) → Deduplicate (ROW_NUMBER keep-last view) →
 * DropUpdateBefore → projection → the operator.
 *
 * ChangelogNormalize follows DeduplicateFunctionHelper.processLastRowOnChangelog(WithFilter):
 * +I/+U with no previous row (none stored, or expired under table.exec.state.ttl) → +I; the same row again → nothing (unless state TTL is on; before
 * 2.2 a +U never equals the stored +I row); otherwise -U old, +U new; -U/-D → -D of the *stored*
 * row (the input may carry only the key), nothing if none stored. From 2.1 the input's filter is
 * evaluated inside it: a first row failing it is not stored, an update failing it deletes the
 * stored row (-D). In 2.0 the filter is a Calc over the normalized changelog.
 *
 * Deduplicate is in pipeline-dedup.ts, the last stages (DropUpdateBefore, projection, the
 * operator) in pipeline-deliver.ts.
 */
import { formatRow } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import { pmDelete, pmGet, pmSet } from './collections/pmap.js';
import type { SideRuntime } from './context.js';
import { rowKey, rowsEqual } from './keys.js';
import { dedup } from './pipeline-dedup.js';
import { deliver } from './pipeline-deliver.js';
import { ownSide, StageOutput, stateTtlEnabled } from './pipeline-side.js';
import type { Work } from './work.js';

/** A source row (table layout, computed columns filled) enters side `sr`. */
export function sideRow(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  if (sr.rawUpsertKey !== undefined) {
    const key = sr.rawUpsertKey;
    if (isAccumulate(kind)) kind = '+I';
    else {
      kind = '-D';
      row = row.map((v, i) => (key.includes(i) || sr.table.proctimeColumns.includes(i) ? v : null));
    }
  }
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

/** Whether +I/+U `row` counts as the stored row again (the equaliser compared RowKind before 2.2). */
function identical(w: Work, sr: SideRuntime, kind: RowKind, prev: Row, row: Row): boolean {
  if (stateTtlEnabled(w)) return false;
  if (kind === '+U' && !sr.normalizeIgnoresKind) return false;
  return rowsEqual(prev, row, undefined, sr.table.proctimeColumns);
}

/** The rows ChangelogNormalize sends on, per side (a side's normalize is never re-entered). */
const OUT = [new StageOutput(), new StageOutput()] as const;

function normalize(w: Work, sr: SideRuntime, key: readonly number[], kind: RowKind, row: Row): void {
  const k = rowKey(row, key);
  const entry = pmGet(w.sides[sr.side].normalize, k);
  // keyed state with table.exec.state.ttl (OnCreateAndWrite, NeverReturnExpired): a row written
  // `ttl` ago or more reads as absent, so the key starts over with +I
  const ttl = w.ctx.config.stateTtlMs;
  const expired = entry !== undefined && ttl > 0 && entry.writtenAt + ttl <= w.procTime;
  const prev = entry === undefined || expired ? undefined : entry.row;
  const filter = sr.filterInNormalize ? sr.filter : undefined;
  const o = OUT[sr.side];
  o.none();
  let store: Row | null | undefined; // undefined = state unchanged, null = cleared
  let reason: string;
  if (isAccumulate(kind)) {
    if (prev === undefined) {
      if (filter !== undefined && filter(row, w.evalCtx) !== true) {
        reason = 'first row for this key does not pass the filter: not stored';
      } else {
        o.one('+I', row);
        store = row;
        reason = expired ? 'the stored row expired (table.exec.state.ttl): a first row again' : 'first row for this key';
      }
    } else if (identical(w, sr, kind, prev, row)) {
      reason = 'identical to the stored row: dropped';
    } else if (filter !== undefined && filter(row, w.evalCtx) !== true) {
      o.one('-D', prev);
      store = null;
      reason = 'the new row no longer passes the filter: the stored row is deleted';
    } else {
      o.update(sr, prev, row);
      store = row;
      reason = 'replaces the stored row';
    }
  } else if (prev !== undefined) {
    o.one('-D', prev);
    store = null;
    reason = 'deletes the stored row (sent in full)';
  } else {
    reason = expired ? 'the stored row expired (table.exec.state.ttl): nothing to delete' : 'no stored row for this key: nothing to delete';
  }
  if (store !== undefined) {
    const st = ownSide(w, sr.side);
    st.normalize = store === null ? pmDelete(st.normalize, k) : pmSet(st.normalize, k, { row: store, writtenAt: w.procTime });
  }
  o.send(w, sr, kind, row, 'ChangelogNormalize', reason, normalized);
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
