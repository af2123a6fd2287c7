/**
 * What the input pipeline's stateful stages (pipeline.ts: ChangelogNormalize; pipeline-dedup.ts:
 * Deduplicate) share: whether state TTL is on, the trace of a stage's step, and writing the
 * side's state.
 */
import { formatRow } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import { created, isEditable } from './collections/edit.js';
import type { SideRuntime } from './context.js';
import type { SideState } from './snapshot.js';
import type { Work } from './work.js';

export function stateTtlEnabled(w: Work): boolean {
  return w.ctx.config.stateTtlMs > 0;
}

/**
 * Trace one stateful stage's step for input (kind, row) and why: (k1, r1) and (k2, r2) are the
 * rows it sends on, a kind undefined for none. A stage keeps the at most two rows it sends on
 * (-U old then +U new, or one row) in locals and sends them itself: no list or pair per row.
 */
export function traceStage(w: Work, sr: SideRuntime, kind: RowKind, row: Row, k1: RowKind | undefined, r1: Row | undefined, k2: RowKind | undefined, r2: Row | undefined, reason: string): void {
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
export function ownSide(w: Work, side: 0 | 1): WritableSide {
  const state = w.sides[side];
  if (isEditable(state)) return state as WritableSide;
  const copy = created({ normalize: state.normalize, normalizeWritten: state.normalizeWritten, dedup: state.dedup, dedupWritten: state.dedupWritten, firstEmitted: state.firstEmitted });
  w.setSide(side, copy);
  return copy;
}
