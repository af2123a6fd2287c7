/**
 * Deduplicate in a join input's pipeline (pipeline.ts): the ROW_NUMBER() = 1 view Flink plans
 * as a keep-first or keep-last deduplication, on row time or processing time.
 */
import type { Row, RowKind } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import { pmDelete, pmGet, pmSet } from './collections/pmap.js';
import type { SideRuntime } from './context.js';
import { rowKey, rowsEqual } from './keys.js';
import { deliver } from './pipeline-deliver.js';
import { ownSide, stateTtlEnabled, traceNormalize } from './pipeline-side.js';
import type { Work } from './work.js';

/** ROW_NUMBER() = 1 keep-last (RowTime / ProcTime DeduplicateKeepLastRow). */
export function dedup(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
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
