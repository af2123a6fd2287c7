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
import { ownSide, StageOutput, stateTtlEnabled } from './pipeline-side.js';
import type { Work } from './work.js';

/** The rows Deduplicate sends on for the row being processed (it is never re-entered). */
const OUT = new StageOutput();

/** ROW_NUMBER() = 1 keep-last (RowTime / ProcTime DeduplicateKeepLastRow). */
export function dedup(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  const d = sr.dedup!;
  const k = rowKey(row, d.key);
  const prev = pmGet(w.sides[sr.side].dedup, k);
  const o = OUT;
  o.none();
  let reason: string;
  if (!isAccumulate(kind)) {
    if (prev !== undefined && rowsEqual(prev, row, undefined, sr.table.proctimeColumns)) {
      o.one('-D', prev);
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
      if (prev === undefined) o.one('+I', row);
      else o.update(sr, prev, row);
      reason = prev === undefined ? 'first row for this key' : 'replaces the kept row';
      const st = ownSide(w, sr.side);
      st.dedup = pmSet(st.dedup, k, row);
    }
  }
  o.send(w, sr, kind, row, 'Deduplicate (ROW_NUMBER = 1)', reason, deliver);
}

function keepCurrent(d: NonNullable<SideRuntime['dedup']>, prev: Row | undefined, row: Row): boolean {
  if (prev === undefined) return true;
  if (!d.rowtime) return d.keepLast;
  const a = prev[d.orderBy];
  const b = row[d.orderBy];
  if (typeof a !== 'number' || typeof b !== 'number') return d.keepLast;
  return d.keepLast ? a <= b : b < a;
}
