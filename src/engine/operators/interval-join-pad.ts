/**
 * Removing expired rows from a side's cache as Flink's TimeIntervalJoin does, shared by the eager
 * removal in a probe and by the cleanup timers: pad an outer side's never-joined rows, and trace
 * each removal.
 */
import type { Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';
import { joinRow, printRow, printRowOf, sideName } from './interval-join-rows.js';
import { bulkWhy, wantsText } from '../why.js';
import { isOuter } from './interval-join-state.js';
import { keyText, type IntervalCtx } from './interval-join-ctx.js';
import { joinedAt, rowAt, type IntervalKeyState } from './interval-key-layout.js';

export function emitPadded(c: IntervalCtx, side: Side, row: Row, rule: string, because: () => string): void {
  if (!wantsText(c.out) && c.out.emitPair !== undefined) {
    if (side === 0) c.out.emitPair('+I', row, undefined, bulkWhy(rule));
    else c.out.emitPair('+I', undefined, row, bulkWhy(rule));
    return;
  }
  const joined = side === 0 ? joinRow(c.j, row, undefined) : joinRow(c.j, undefined, row);
  if (!wantsText(c.out)) {
    c.out.emit('+I', joined, bulkWhy(rule));
    return;
  }
  const text = `${sideName(side)} ${printRow(c.j, side, '+I', row)} is null-padded: ${because()}`;
  c.out.emit('+I', joined, { rule, text, rows: [printRowOf(c.j, side, '+I', row)] });
}

/** Pad every never-joined row i in [from, to) of an outer side and trace the removal of each row. */
export function expireRows(c: IntervalCtx, side: Side, ks: IntervalKeyState, from: number, to: number, reason: () => string): void {
  const tracing = wantsText(c.out);
  const outer = isOuter(c.j.plan, side);
  for (let i = from; i < to; i++) {
    if (outer && !joinedAt(ks, side, i)) {
      emitPadded(c, side, rowAt(ks, side, i), 'interval.pad-expired', tracing ? expiredBecause(reason) : NO_TEXT);
    }
    // Always traced (it sets STEP_EXPIRE); the text only when kept.
    if (tracing) c.out.trace({ t: 'state.expire', side, key: keyText(c), row: printRow(c.j, side, '+I', rowAt(ks, side, i)), reason: reason() });
    else c.out.trace(EXPIRE_NO_TEXT[side]);
  }
}

/** Reasons are only read when the step keeps text: bulk runs pass this instead of a closure. */
export const NO_TEXT = (): string => '';

/*
 * The reason closures are built in functions of their own (this one, and eagerReason in
 * interval-join-cache.ts): V8 allocates a context for the variables a closure captures on every
 * call of the function that declares them, even when the closure is never built, and the scans
 * run per row.
 */

function expiredBecause(reason: () => string): () => string {
  return () => `it matched nothing before it expired (${reason()})`;
}

const EXPIRE_NO_TEXT = [
  Object.freeze({ t: 'state.expire', side: 0, key: '', row: '', reason: '' } as const),
  Object.freeze({ t: 'state.expire', side: 1, key: '', row: '', reason: '' } as const),
] as const;
