/**
 * The step draft: one step in progress (or, in a bulk run, a run of steps: `continue`), holding
 * private, mutable working copies of the parts of a snapshot that the step changes (copied on
 * first write unless the current transient edit created them, so no kept snapshot is touched),
 * the collector handed to the operator, and what the step emitted, traced and flagged.
 */
import type { ScenarioEvent } from '../scenario/types.js';
import type { Row, RowKind } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import type { PMap } from './collections/pmap.js';
import type { Changelog } from './changelog.js';
import type { EvalCtx, RunContext } from './context.js';
import type { EngineSnapshot, SideState, SumEntry, TableState } from './snapshot.js';
import { sinkEmit, sinkEmitPair } from './sink.js';
import type { Collector, Emitted, OpTime, StepRecord, TraceEvent, Why } from './types.js';
import { STEP_EMIT, STEP_RETRACT, STEP_WATERMARK } from './types.js';
import { created, isEditable } from './collections/edit.js';
import { copyValve, type PartialWatermark, type ValveState } from './valve.js';

/** A table state whose arrays this step owns. */
export interface MutableTable {
  generated: number[];
  idleAt: (number | null)[];
  valve: ValveState;
  offsets: number[];
}

/** Shared empty list for steps that emit or trace nothing (never pushed to: replaced first). */
const NONE: unknown[] = Object.freeze([] as unknown[]) as unknown[];

export class Work implements Collector {
  index: number;
  procTime: number;
  joinWm: number;
  outputWm: number;
  /** Copied before each change (copyValve), so a snapshot's valve is never mutated. */
  unionValve: ValveState | undefined;
  op: unknown;
  inputs: PartialWatermark[];
  sides: [SideState, SideState];
  sum: PMap<SumEntry>;
  changelog: Changelog;
  emitted: Emitted[] = NONE as Emitted[];
  traces: TraceEvent[] = NONE as TraceEvent[];
  flags = 0;
  readonly evalCtx: EvalCtx;
  private tables: TableState[];
  private owned: (MutableTable | undefined)[] | undefined;
  /**
   * What this Work knows it may change in place until its next snapshot (after which a bulk run
   * opens a new edit): table i when bit i is set, and the inputs array. Saves the edit's set
   * lookups on every row of a bulk run.
   */
  private mineTables = 0;
  private mineInputs = false;
  /** Inputs whose PartialWatermark object this Work made since its last snapshot (bit per side). */
  private mineInputObjs = 0;
  /**
   * What operators see of time: one object per Work, brought up to date when asked for. Operators
   * read it during a call and never keep it (a new object per clock move was ~30 B per row).
   */
  private readonly time: { procTime: number; watermark: number };
  /** The sink state of the last snapshot made (kept when the step did not change it). */
  private sink: EngineSnapshot['sink'];

  constructor(
    readonly ctx: RunContext,
    snap: EngineSnapshot,
  ) {
    this.sink = snap.sink;
    this.index = snap.index + 1;
    this.procTime = snap.procTime;
    this.joinWm = snap.joinWm;
    this.outputWm = snap.outputWm;
    this.unionValve = snap.unionValve as ValveState | undefined;
    this.op = snap.op;
    this.inputs = snap.inputs as PartialWatermark[];
    this.sides = snap.sides as [SideState, SideState];
    this.sum = snap.sink.sum;
    this.changelog = snap.changelog;
    this.tables = snap.tables as TableState[];
    // One scratch object per context: steps are synchronous, so sharing it is safe.
    this.evalCtx = ctx.evalCtx;
    this.time = { procTime: snap.procTime, watermark: snap.joinWm };
    this.evalCtx.procTime = snap.procTime;
  }

  get tracing(): boolean {
    return this.ctx.tracing;
  }

  /** Read access to a table's state (possibly this step's copy). */
  table(i: number): TableState {
    return (this.owned?.[i] ?? this.tables[i]) as TableState;
  }

  /** A table state this step may mutate (copied on first use). */
  ownTable(i: number): MutableTable {
    if (i < 31 && (this.mineTables & (1 << i)) !== 0) return (this.owned?.[i] ?? this.tables[i]) as MutableTable;
    if (i < 31) this.mineTables |= 1 << i;
    // Both created earlier in this transient edit (edit.ts): change the table in place, and
    // finish() has nothing to record.
    const cur = this.tables[i] as TableState;
    if (this.owned?.[i] === undefined && isEditable(cur) && isEditable(this.tables)) return cur as MutableTable;
    // Exact size: an empty array grown by one index write allocates ~17 slots every step.
    this.owned ??= new Array<MutableTable | undefined>(this.tables.length);
    let t = this.owned[i];
    if (t === undefined) {
      const src = this.tables[i] as TableState;
      // Created earlier in this transient edit (edit.ts): already a private copy.
      if (isEditable(src)) t = src as MutableTable;
      // offsets: empty (and never written) unless the table counts Kafka offsets.
      else t = created({ generated: src.generated.slice(), idleAt: src.idleAt.slice(), valve: copyValve(src.valve), offsets: src.offsets.length === 0 ? (src.offsets as number[]) : src.offsets.slice() });
      this.owned[i] = t;
    }
    return t;
  }

  setInput(side: number, wm: number, idle: boolean): void {
    const cur = this.inputs[side];
    if (cur?.wm === wm && cur.idle === idle) return;
    if (this.mineInputs && (this.mineInputObjs & (1 << side)) !== 0) {
      // Made by this Work since its last snapshot: nothing else holds it.
      const mine = cur as { wm: number; idle: boolean };
      mine.wm = wm;
      mine.idle = idle;
      return;
    }
    const next = this.mineInputs || isEditable(this.inputs) ? this.inputs : created(this.inputs.slice());
    next[side] = { wm, idle };
    this.inputs = next;
    this.mineInputs = true;
    if (side < 31) this.mineInputObjs |= 1 << side;
  }

  setSide(side: 0 | 1, s: SideState): void {
    const next: [SideState, SideState] = [this.sides[0], this.sides[1]];
    next[side] = s;
    this.sides = next;
  }

  setProcTime(t: number): void {
    if (t === this.procTime) return;
    this.procTime = t;
    this.evalCtx.procTime = t;
  }

  setJoinWatermark(wm: number): void {
    this.joinWm = wm;
  }

  /** What the operator sees of time now. */
  opTime(): OpTime {
    const t = this.time;
    t.procTime = this.procTime;
    t.watermark = this.joinWm;
    return t;
  }

  // Collector -----------------------------------------------------------------------------

  emit(kind: RowKind, joined: Row, why: Why): void {
    sinkEmit(this, kind, joined, why);
  }

  emitPair(kind: RowKind, left: Row | undefined, right: Row | undefined, why: Why): void {
    sinkEmitPair(this, kind, left, right, why);
  }

  trace(ev: TraceEvent): void {
    if (!this.ctx.tracing) return;
    if ((this.traces as unknown[]) === NONE) this.traces = [];
    this.traces.push(ev);
  }

  flag(flags: number): void {
    this.flags |= flags;
  }

  /** A watermark advanced: the flag always, the trace only when tracing (saves the object). */
  advanced(scope: string, from: number, to: number): void {
    this.flags |= STEP_WATERMARK;
    if (this.ctx.tracing) this.trace({ t: 'watermark.advance', scope, from, to });
  }

  /** A row reached the sink's changelog (a bulk run keeps only the step's flags). */
  record(kind: RowKind, row: Row, why: Why): void {
    this.flags |= isAccumulate(kind) ? STEP_EMIT : STEP_RETRACT;
    if (!this.ctx.tracing) return;
    if ((this.emitted as unknown[]) === NONE) this.emitted = [];
    this.emitted.push({ kind, row, step: this.index, why });
  }

  finish(event: ScenarioEvent): StepRecord<EngineSnapshot> {
    const snapshot = this.snapshot();
    return { index: this.index, event, snapshot, emitted: this.emitted, trace: this.traces, flags: this.flags };
  }

  /** The state after this step as a snapshot (this step's table copies folded in). */
  snapshot(): EngineSnapshot {
    let tables: readonly TableState[] = this.tables;
    if (this.owned !== undefined) {
      const owned = this.owned;
      if (isEditable(this.tables)) {
        const mine = this.tables;
        for (let i = 0; i < owned.length; i++) {
          const t = owned[i];
          if (t !== undefined) mine[i] = t;
        }
      } else {
        // Pushed, not mapped: the array stays packed, as the first snapshot's (valve.ts, copyValve).
        const next: TableState[] = [];
        for (let i = 0; i < this.tables.length; i++) next.push(owned[i] ?? this.tables[i]!);
        tables = created(next);
      }
      this.tables = tables as TableState[];
      this.owned = undefined;
    }
    this.mineTables = 0;
    this.mineInputs = false;
    this.mineInputObjs = 0;
    if (this.sink.sum !== this.sum) this.sink = { sum: this.sum };
    return {
      index: this.index,
      procTime: this.procTime,
      tables,
      inputs: this.inputs,
      joinWm: this.joinWm,
      outputWm: this.outputWm,
      unionValve: this.unionValve,
      sides: this.sides,
      op: this.op,
      sink: this.sink,
      changelog: this.changelog,
    };
  }

  /**
   * Go on to the next step from where this one ended, without a snapshot in between (a bulk
   * run in one transient edit: what this step owns stays owned). Flags and records start over.
   */
  continue(): void {
    this.index++;
    this.flags = 0;
    this.emitted = NONE as Emitted[];
    this.traces = NONE as TraceEvent[];
  }
}
