/**
 * One join input's pipeline, in Flink's order: source row → filter → ChangelogNormalize (upsert
 * sources, keyed by the primary key) → Deduplicate (ROW_NUMBER keep-last view) →
 * DropUpdateBefore → projection → the operator.
 *
 * ChangelogNormalize follows DeduplicateFunctionHelper.processLastRowOnChangelog(WithFilter). Over
 * a CDC source (cdc-events-duplicate) a DropUpdateBefore sits below it, so it never sees a -U.
 * +I/+U with no previous row → +I; the same row again → nothing (unless state TTL is on; before
 * 2.2 a CDC +U never equals the stored row: upsert-kafka's values all arrive as +I); otherwise -U old, +U new; -U/-D → -D of the *stored*
 * row (the input may carry only the key), nothing if none stored. Under state TTL a stored row
 * expires `ttl` after it was last written (reads do not extend it), and the key starts afresh. It
 * keeps and compares only the columns the query reads, and the key (PushCalcPastChangelogNormalizeRule
 * moves the pruning Calc below it). From 2.1 the input's filter is
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
import { ownSide, stateTtlEnabled, traceStage } from './pipeline-side.js';
import type { Work } from './work.js';

/** A source row (table layout, computed columns filled) enters side `sr`. */
export function sideRow(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  if (sr.rawUpsertKey !== undefined) return rawUpsert(w, sr, sr.rawUpsertKey, kind, row);
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
  // upsert-kafka's deserializer makes every value +I, so only a CDC source's +U differs in kind
  if (kind === '+U' && sr.normalizeUpdateDiffers) return false;
  // the normalize holds only the columns the query reads (PushCalcPastChangelogNormalizeRule)
  return rowsEqual(prev, row, sr.normalizeColumns, sr.table.proctimeColumns);
}

function normalize(w: Work, sr: SideRuntime, key: readonly number[], kind: RowKind, row: Row): void {
  if (kind === '-U' && sr.normalizeOverCdc) {
    // ChangelogNormalize asks its input for +U only: a CDC source gets a DropUpdateBefore below it
    if (w.tracing) w.trace({ t: 'filter.drop', side: sr.side, row: formatRow(kind, row, sr.table.types), reason: 'DropUpdateBefore: ChangelogNormalize reads only +U' });
    return;
  }
  const k = rowKey(row, key);
  const side = w.sides[sr.side];
  let prev = pmGet(side.normalize, k);
  // state TTL (OnCreateAndWrite, never returning an expired value): a row written `ttl` ago is gone
  const ttl = w.ctx.config.stateTtlMs;
  const expired = prev !== undefined && ttl > 0 && (pmGet(side.normalizeWritten, k) ?? w.procTime) + ttl <= w.procTime;
  if (expired) prev = undefined;
  const filter = sr.filterInNormalize ? sr.filter : undefined;
  // The rows sent on (-U old then +U new at most), a kind undefined for none.
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
        reason = expired ? 'the stored row for this key expired (state TTL): a first row again' : 'first row for this key';
      }
    } else if (identical(w, sr, kind, prev, row)) {
      reason = 'identical to the stored row: dropped';
    } else if (filter !== undefined && filter(row, w.evalCtx) !== true) {
      k1 = '-D';
      r1 = prev;
      store = null;
      reason = 'the new row no longer passes the filter: the stored row is deleted';
    } else {
      // -U old then +U new, or +U new alone when nothing after the source needs the old row
      const before = sr.generateUpdateBefore;
      k1 = before ? '-U' : '+U';
      r1 = before ? prev : row;
      k2 = before ? '+U' : undefined;
      r2 = row;
      store = row;
      reason = 'replaces the stored row';
    }
  } else if (prev !== undefined) {
    k1 = '-D';
    r1 = prev;
    store = null;
    reason = 'deletes the stored row (sent in full)';
  } else {
    reason = expired ? 'the stored row for this key expired (state TTL): nothing to delete' : 'no stored row for this key: nothing to delete';
  }
  if (store !== undefined) {
    const st = ownSide(w, sr.side);
    st.normalize = store === null ? pmDelete(st.normalize, k) : pmSet(st.normalize, k, store);
    if (ttl > 0) st.normalizeWritten = store === null ? pmDelete(st.normalizeWritten, k) : pmSet(st.normalizeWritten, k, w.procTime);
  }
  if (w.tracing) traceStage(w, sr, kind, row, k1, r1, k2, r2, `ChangelogNormalize: ${reason}`);
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

/**
 * An upsert source with no ChangelogNormalize behind it (the planner removed it, 2.1+): what
 * upsert-kafka itself produces reaches the join. Its deserializer reads every value as +I, whatever
 * the message meant, and a tombstone as -D of a row that has only the key (other physical columns
 * null, computed columns evaluated over that row, the record's metadata kept).
 */
function rawUpsert(w: Work, sr: SideRuntime, key: readonly number[], kind: RowKind, row: Row): void {
  let out: Row = row;
  let outKind: RowKind = '+I';
  if (kind === '-D') {
    outKind = '-D';
    const t = sr.table;
    const keyOnly = row.map((v, i) => (key.includes(i) || t.def.columns[i]?.kind !== 'physical' ? v : null));
    for (const c of t.computed) keyOnly[c.index] = c.fn(keyOnly, w.evalCtx);
    out = keyOnly;
  }
  if (w.tracing) {
    const types = sr.table.types;
    w.trace({ t: 'normalize', table: sr.table.name, in: formatRow(kind, row, types), out: [formatRow(outKind, out, types)],
      reason: outKind === '-D' ? 'no ChangelogNormalize: a tombstone reaches the join with only its key' : 'no ChangelogNormalize: upsert-kafka reads every value as +I' });
  }
  afterNormalize(w, sr, outKind, out);
}
