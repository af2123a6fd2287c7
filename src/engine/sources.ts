/**
 * Source partitions and event time: watermark generation per partition, each table's
 * StatusWatermarkValve, the join's CombinedWatermarkStatus, and what happens when the join's
 * watermark advances (operator timers first, then the output watermark). Spec §3, notes §1.2–1.4.
 */
import type { Side } from '../planner/plan.js';
import type { TableRuntime } from './context.js';
import type { TraceEvent } from './types.js';
import { WM_MAX, WM_MIN } from './types.js';
import { combineWatermarks, copyValve, valveHeldBy, valveStatus, valveWatermark, type ValveOutput } from './valve.js';
import type { Work } from './work.js';
import { firstRowsOnWatermark } from './pipeline-dedup.js';

/** A partition's name in words, as traces and `heldBy` print it. */
export function partitionName(t: TableRuntime, p: number): string {
  return t.partitions > 1 ? `${t.name} partition ${p}` : t.name;
}

/** Who holds the join watermark back: the active input with the lowest watermark, in words. */
export function joinHeldBy(w: { ctx: Work['ctx']; inputs: Work['inputs']; table(i: number): ReturnType<Work['table']> }): string | undefined {
  const active = w.ctx.joinInputs.filter((s) => w.inputs[s]?.idle === false);
  if (active.length < 2) return undefined;
  const [a, b] = active.map((s) => w.inputs[s]?.wm ?? WM_MIN) as [number, number];
  if (a === b) return undefined;
  const side = (a < b ? active[0] : active[1]) as Side;
  const t = w.ctx.sides[side].table;
  const held = valveHeldBy(w.table(t.index).valve);
  return held === undefined ? t.name : partitionName(t, held);
}

function advanceJoin(w: Work): void {
  const ctx = w.ctx;
  // two inputs: CombinedWatermarkStatus, which flushes the maximum when all are idle only from 2.2
  const combined = ctx.joinInputs.length === 2 ? combineWatermarks(w.inputs, ctx.idleInputsFlush) : combineWatermarks([w.inputs[0]!]);
  if (combined <= w.joinWm) {
    if (w.tracing) {
      const heldBy = joinHeldBy(w);
      if (heldBy !== undefined) w.trace({ t: 'watermark.hold', scope: 'join', value: w.joinWm, heldBy });
    }
    return;
  }
  w.advanced('join', w.joinWm, combined);
  w.setJoinWatermark(combined);
  // Timers first: rows they produce go out before the watermark that triggered them (notes §0.1).
  w.op = ctx.op.onWatermark(w.op, w.opTime(), w);
  if (ctx.union === true) return; // the union's valve sets the output (unionInput)
  const out = combined === WM_MAX ? WM_MAX : Math.max(WM_MIN, combined - ctx.op.outputWatermarkDelay);
  if (out > w.outputWm && ctx.op.noOutputWatermark !== true) {
    w.advanced('output', w.outputWm, out);
    w.outputWm = out;
  }
}

/**
 * What a table's valve emits goes to every join input reading the table. A class rather than an
 * object of closures: one is made for every row of a run with automatic watermarks.
 */
class TableOutput implements ValveOutput {
  private last: number;

  constructor(
    private w: Work,
    private t: TableRuntime,
  ) {
    this.last = w.table(t.index).valve.output;
  }

  /** Reuse for another call (one per row with automatic watermarks is garbage worth saving). */
  reset(w: Work, t: TableRuntime): this {
    this.w = w;
    this.t = t;
    this.last = w.table(t.index).valve.output;
    return this;
  }

  watermark(value: number): void {
    const w = this.w;
    w.advanced(this.t.name, this.last, value);
    this.last = value;
    for (const s of this.t.sides) {
      // a keep-first Deduplicate's timers fire on this watermark before it reaches the join
      firstRowsOnWatermark(w, w.ctx.sides[s], value);
      w.setInput(s, value, false);
      advanceJoin(w);
      if (w.unionValve !== undefined) unionWatermark(w, s, value);
    }
  }

  status(idle: boolean): void {
    const w = this.w;
    for (const s of this.t.sides) {
      w.setInput(s, w.inputs[s]!.wm, idle);
      advanceJoin(w);
      if (w.unionValve !== undefined) unionInput(w, s, (v, ch, o) => valveStatus(v, ch, idle, o));
    }
  }
}

/** What the union's valve emits is the output watermark (RunContext.union). */
class UnionOutput implements ValveOutput {
  constructor(private readonly w: Work) {}

  watermark(value: number): void {
    const w = this.w;
    if (value > w.outputWm) {
      w.advanced('output', w.outputWm, value);
      w.outputWm = value;
    }
  }

  status(): void {
    // an idle union passes the status on; the output watermark stays where it is
  }
}

/**
 * What side `s`'s input emitted (its table's valve: the exchange in front of the union) on the
 * union's channel `s`. Flink chains nothing to a union's consumer, which has two inputs, so the
 * two levels of valves are real: a side's partitions are combined before the union sees them.
 */
function unionInput(w: Work, s: number, apply: (v: NonNullable<Work['unionValve']>, ch: number, out: ValveOutput) => void): void {
  if (w.unionValve === undefined) return;
  const v = copyValve(w.unionValve);
  apply(v, s, new UnionOutput(w));
  w.unionValve = v;
}

/**
 * The watermark on the union's channel `s`. A function of its own: V8 makes the context a closure
 * captures on every entry to the function that holds it, and every watermark of every plan passes
 * through TableOutput.watermark.
 */
function unionWatermark(w: Work, s: number, value: number): void {
  unionInput(w, s, (v, ch, o) => valveWatermark(v, ch, value, o));
}

/** A free TableOutput: taken while a valve call runs, so a nested call (none today) gets its own. */
let spare: TableOutput | undefined;

function outputFor(w: Work, t: TableRuntime): TableOutput {
  const o = spare?.reset(w, t) ?? new TableOutput(w, t);
  spare = undefined;
  return o;
}

/** Partition `p` emits watermark `value` into its table's valve. */
export function emitPartitionWatermark(w: Work, t: TableRuntime, p: number, value: number): void {
  const mt = w.ownTable(t.index);
  const out = outputFor(w, t);
  const accepted = valveWatermark(mt.valve, p, value, out);
  spare = out;
  if (accepted && w.tracing && mt.valve.output < value) {
    const held = valveHeldBy(mt.valve);
    const heldBy = held === undefined || held === p ? `${partitionName(t, p)} (catching up)` : partitionName(t, held);
    w.trace({ t: 'watermark.hold', scope: t.name, value: mt.valve.output, heldBy });
  }
}

export function setPartitionIdle(w: Work, t: TableRuntime, p: number, idle: boolean, reason: string): void {
  const mt = w.ownTable(t.index);
  if (mt.valve.channels[p]?.idle === idle) {
    if (w.tracing) w.trace({ t: 'note', text: `${partitionName(t, p)} is already ${idle ? 'idle' : 'active'}` });
    return;
  }
  w.trace({ t: 'idle', table: t.name, partition: p, idle, reason });
  valveStatus(mt.valve, p, idle, new TableOutput(w, t));
}

/** A row arrived at a partition: it re-activates an idle partition and resets its idle clock. */
export function partitionRowArrived(w: Work, t: TableRuntime, p: number): void {
  if (t.watermark === undefined) return;
  const cur = w.table(t.index);
  if (cur.valve.channels[p]?.idle === true) setPartitionIdle(w, t, p, false, 'a row arrived');
  const timeout = w.ctx.config.idleTimeoutMs;
  if (timeout > 0) w.ownTable(t.index).idleAt[p] = w.procTime + timeout;
}

/** After a row: evaluate the WATERMARK expression; in auto mode emit the generated value if it grew. */
export function generateWatermark(w: Work, t: TableRuntime, p: number, row: readonly unknown[]): void {
  if (t.watermark === undefined) return;
  const v = t.watermark(row as never, w.evalCtx);
  const cur = w.table(t.index);
  if (typeof v === 'number' && v > (cur.generated[p] ?? WM_MIN)) {
    w.ownTable(t.index).generated[p] = v;
    if (w.tracing) w.trace({ t: 'watermark.generate', table: t.name, partition: p, value: v });
  }
  if (w.ctx.watermarks === 'auto') {
    const g = w.table(t.index).generated[p] ?? WM_MIN;
    if (g > (w.table(t.index).valve.channels[p]?.wm ?? WM_MIN)) emitPartitionWatermark(w, t, p, g);
  }
}

function ignored(w: Work, t: TableRuntime, p: number, value: number, reason: string): void {
  const ev: TraceEvent = { t: 'watermark.ignored', table: t.name, partition: p, value, reason };
  w.trace(ev);
}

/** A `watermark` event for one partition (`to` resolved by the caller's event). */
export function watermarkEvent(w: Work, t: TableRuntime, p: number, to: number | 'max' | 'generated'): void {
  const cur = w.table(t.index);
  const generated = cur.generated[p] ?? WM_MIN;
  const value = to === 'max' ? WM_MAX : to === 'generated' ? generated : to;
  const ch = cur.valve.channels[p];
  if (t.watermark === undefined) return ignored(w, t, p, value, `${t.name} has no WATERMARK: it produces no event-time watermark`);
  if (ch === undefined) return ignored(w, t, p, value, `${t.name} has no partition ${p}`);
  if (value === WM_MIN) return ignored(w, t, p, value, 'no watermark generated yet (no row with a non-null WATERMARK value)');
  if (value <= ch.wm) return ignored(w, t, p, value, `not above the partition's current watermark ${ch.wm}`);
  // A source instance that emits a watermark marks itself active first (Flink's source watermark
  // output sends ACTIVE before the watermark), so the valve takes it, as after a row.
  if (ch.idle) setPartitionIdle(w, t, p, false, 'a watermark arrived: a source instance that emits a watermark is active again');
  emitPartitionWatermark(w, t, p, value);
}

export function partitionsOf(t: TableRuntime, partition: number | undefined): number[] {
  if (partition !== undefined) return [partition];
  return Array.from({ length: t.partitions }, (_, i) => i);
}
