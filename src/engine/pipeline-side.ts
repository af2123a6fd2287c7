/**
 * What the input pipeline's stateful stages (pipeline.ts: ChangelogNormalize; pipeline-dedup.ts:
 * Deduplicate) share: whether state TTL is on, the rows a stage sends on (and their trace), and
 * writing the side's state.
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
 * The rows one stateful stage sends on for one input row: none, one, or an update (-U old then
 * +U new; +U new alone when the stage generates no update-befores). A stage keeps one and refills
 * it per row: no list or pair per row.
 */
export class StageOutput {
  private k1: RowKind | undefined = undefined;
  private r1: Row | undefined = undefined;
  private k2: RowKind | undefined = undefined;
  private r2: Row | undefined = undefined;

  none(): void {
    this.k1 = undefined;
    this.k2 = undefined;
  }

  one(kind: RowKind, row: Row): void {
    this.k1 = kind;
    this.r1 = row;
    this.k2 = undefined;
  }

  update(sr: SideRuntime, prev: Row, row: Row): void {
    if (sr.generateUpdateBefore) {
      this.one('-U', prev);
      this.k2 = '+U';
      this.r2 = row;
    } else this.one('+U', row);
  }

  /** Trace the stage's step for input (kind, row) and why, then send its rows on through `next`. */
  send(w: Work, sr: SideRuntime, kind: RowKind, row: Row, stage: string, reason: string, next: (w: Work, sr: SideRuntime, kind: RowKind, row: Row) => void): void {
    const { k1, r1, k2, r2 } = this;
    if (w.tracing) {
      const types = sr.table.types;
      const out: string[] = [];
      if (k1 !== undefined) out.push(formatRow(k1, r1!, types));
      if (k2 !== undefined) out.push(formatRow(k2, r2!, types));
      w.trace({ t: 'normalize', table: sr.table.name, in: formatRow(kind, row, types), out, reason: `${stage}: ${reason}` });
    }
    if (k1 !== undefined) next(w, sr, k1, r1!);
    if (k2 !== undefined) next(w, sr, k2, r2!);
  }
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
