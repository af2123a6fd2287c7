/** The interval join's per-call context, and the join key as printed from it. */
import type { IntervalSpec, Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';
import type { Collector, OpTime } from '../types.js';
import { printKey, type JoinRows } from './interval-join-rows.js';
import { isOuter } from './interval-join-state.js';
import { layoutOf } from './interval-key-layout.js';

/**
 * Everything one operator call needs besides the state. The operator keeps one and refills it
 * per call (fillCtx): a row or timer builds no context object.
 */
export interface IntervalCtx {
  readonly j: JoinRows;
  readonly spec: IntervalSpec;
  readonly out: Collector;
  readonly time: OpTime;
  /** Rowtime: max(combined watermark, 0); proctime: the processing time. */
  readonly opTime: number;
  /** The key's side and row: the printed key is built from them only when a trace needs it. */
  readonly keySide: Side;
  readonly keyRow: Row;
  /** Set by probeOtherCache: whether the probing row joined something (no result object). */
  readonly scanEmitted: boolean;
  /** Which sides are outer, for new key states (interval-key-state.ts layoutOf). */
  readonly layout: number;
}

export type MutableCtx = { -readonly [P in keyof IntervalCtx]: IntervalCtx[P] };

const NO_TIME: OpTime = Object.freeze({ watermark: 0, procTime: 0 });
const NO_KEY_ROW: Row = Object.freeze([]);

export function newIntervalCtx(j: JoinRows, spec: IntervalSpec): IntervalCtx {
  const none: Collector = { emit: () => undefined, trace: () => undefined };
  const layout = layoutOf(isOuter(j.plan, 0), isOuter(j.plan, 1));
  return { j, spec, out: none, time: NO_TIME, opTime: 0, keySide: 0, keyRow: NO_KEY_ROW, scanEmitted: false, layout };
}

/** Refill the operator's context for one call; returns it. */
export function fillCtx(ctx: IntervalCtx, out: Collector, time: OpTime, opTime: number, keySide: Side, keyRow: Row): IntervalCtx {
  const c = ctx as MutableCtx;
  c.out = out;
  c.time = time;
  c.opTime = opTime;
  c.keySide = keySide;
  c.keyRow = keyRow;
  c.scanEmitted = false;
  return c;
}

/** The join key as printed in traces. */
export function keyText(c: IntervalCtx): string {
  return printKey(c.j, c.keySide, c.keyRow);
}
