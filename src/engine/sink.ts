/**
 * The end of the pipeline: the post-join filter and projection, the optional
 * SinkUpsertMaterializer (notes §7), and the changelog. The materialized result is folded from
 * the changelog when it is shown (result.ts).
 */
import { formatRow } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import { pmDelete, pmGet, pmSet } from './collections/pmap.js';
import { clPush, clPushPair } from './changelog.js';
import { concatRows, rowKey, rowsEqual } from './keys.js';
import type { Why } from './types.js';
import { bulkWhy } from './why.js';
import type { Work } from './work.js';

export function sinkEmit(w: Work, kind: RowKind, joined: Row, why: Why): void {
  const s = w.ctx.sink;
  if (s.postFilter !== undefined && s.postFilter(joined, w.evalCtx) !== true) {
    if (w.tracing) {
      w.trace({ t: 'sink', kind, row: formatRow(kind, joined, s.joinedTypes), detail: 'dropped by the WHERE condition after the join' });
    }
    return;
  }
  const p = s.project;
  if (!s.materialize && !w.tracing) {
    // A bulk run keeps nothing of the row but the changelog's slots: project straight into them.
    w.changelog = clPush(w.changelog, kind, joined, w.index, why.rule, p, w.evalCtx);
    w.record(kind, joined, why);
    return;
  }
  const row = new Array(p.length);
  for (let i = 0; i < p.length; i++) row[i] = p[i]!(joined, w.evalCtx);
  if (s.materialize) materialize(w, kind, row, why);
  else output(w, kind, row, why);
}

/**
 * The join of two input rows reaches the sink: kept as the pair in a bulk run that allows it
 * (SinkRuntime.pairs), else as the joined row (null-padded on a missing side).
 */
export function sinkEmitPair(w: Work, kind: RowKind, left: Row | undefined, right: Row | undefined, why: Why): void {
  const s = w.ctx.sink;
  const [nl, nr] = s.widths;
  // A pair is read back with the plan's widths: rows of another length take the values path.
  if (s.pairs !== undefined && !w.tracing && (left === undefined || left.length === nl) && (right === undefined || right.length === nr)) {
    w.changelog = clPushPair(w.changelog, kind, left, right, w.index, why.rule);
    w.record(kind, NO_ROW, why);
    return;
  }
  sinkEmit(w, kind, concatRows(left, right, nl, nr), why);
}

/** The row a bulk record gets (it keeps only the step's flags). */
const NO_ROW: Row = Object.freeze([]) as Row;

/** A row reaches the sink: the changelog and the materialized result. */
function output(w: Work, kind: RowKind, row: Row, why: Why): void {
  const s = w.ctx.sink;
  // The snapshot's changelog keeps the rule only, traced or not, so that a traced and a bulk
  // step give equal snapshots; the step record carries the full reason.
  w.changelog = clPush(w.changelog, kind, row, w.index, why.rule);
  w.record(kind, row, why);
  if (w.tracing) w.trace({ t: 'emit', kind, row: formatRow(kind, row, s.types), rule: why.rule });
}

function sumWhy(w: Work, why: Why, text: string): Why {
  if (!w.tracing) return bulkWhy('sum.upsert');
  return { rule: 'sum.upsert', text: `SinkUpsertMaterializer: ${text} (from: ${why.text})`, rows: why.rows };
}

/**
 * The live rows of a sink key. The list is keyed state with table.exec.state.ttl (the LEGACY
 * SinkUpsertMaterializer, the only strategy joinstep plans: StateTtlConfig OnCreateAndWrite,
 * NeverReturnExpired), so a list last written `ttl` ago or more reads as empty.
 */
function liveRows(w: Work, key: string): { rows: readonly Row[]; expired: boolean } {
  const entry = pmGet(w.sum, key);
  if (entry === undefined) return { rows: [], expired: false };
  const ttl = w.ctx.config.stateTtlMs;
  if (ttl > 0 && entry.writtenAt + ttl <= w.procTime) return { rows: [], expired: true };
  return { rows: entry.rows, expired: false };
}

/** SinkUpsertMaterializer, keyed by the sink primary key: a list of live rows per key. */
function materialize(w: Work, kind: RowKind, row: Row, why: Why): void {
  const s = w.ctx.sink;
  const pk = s.primaryKey ?? [];
  const key = rowKey(row, pk);
  const { rows: list, expired } = liveRows(w, key);
  const uk = s.upsertKey;
  const show = (k: RowKind, r: Row) => formatRow(k, r, s.types);
  if (expired && w.tracing) w.trace({ t: 'sink', kind, row: show(kind, row), detail: `materializer state for this key expired (table.exec.state.ttl = ${w.ctx.config.stateTtlMs} ms after its last write)` });
  if (isAccumulate(kind)) {
    const at = uk === undefined ? -1 : list.findIndex((r) => rowsEqual(r, row, uk));
    const next = list.slice();
    if (at >= 0) next[at] = row;
    else next.push(row);
    w.sum = pmSet(w.sum, key, { rows: next, writtenAt: w.procTime });
    const outKind: RowKind = list.length === 0 ? '+I' : '+U';
    if (w.tracing) w.trace({ t: 'sink', kind, row: show(kind, row), detail: `materializer holds ${next.length} row(s) for this key` });
    output(w, outKind, row, sumWhy(w, why, list.length === 0 ? 'first live row for this key' : 'newest live row for this key'));
    return;
  }
  const at = list.findIndex((r) => rowsEqual(r, row, uk));
  if (at < 0) {
    if (expired) w.sum = pmDelete(w.sum, key);
    if (w.tracing) w.trace({ t: 'sink', kind, row: show(kind, row), detail: expired ? 'the materializer state for this key expired: nothing to retract, nothing emitted' : 'not in the materializer state: ignored, nothing emitted' });
    return;
  }
  const next = list.slice(0, at).concat(list.slice(at + 1));
  if (next.length === 0) {
    w.sum = pmDelete(w.sum, key);
    output(w, '-D', row, sumWhy(w, why, 'no live row left for this key'));
  } else {
    w.sum = pmSet(w.sum, key, { rows: next, writtenAt: w.procTime });
    if (at === list.length - 1) {
      output(w, '+U', next[next.length - 1] as Row, sumWhy(w, why, 'the newest live row was retracted; the previous one is shown again'));
    } else if (w.tracing) {
      w.trace({ t: 'sink', kind, row: show(kind, row), detail: 'an older live row was retracted: the sink keeps the newest one, nothing emitted' });
    }
  }
}
