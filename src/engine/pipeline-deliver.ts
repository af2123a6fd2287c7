/**
 * The last stages of a join input's pipeline (pipeline.ts): DropUpdateBefore (a temporal join's
 * versioned side, or any input whose consumer reads only +U), the projection, then the operator.
 */
import { formatRow } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import type { SideRuntime } from './context.js';
import type { Work } from './work.js';

export function deliver(w: Work, sr: SideRuntime, kind: RowKind, row: Row): void {
  if (kind === '-U' && sr.dropUpdateBefore) {
    if (w.tracing) w.trace({ t: 'filter.drop', side: sr.side, row: formatRow(kind, row, sr.table.types), reason: 'DropUpdateBefore: the join reads only +U' });
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
