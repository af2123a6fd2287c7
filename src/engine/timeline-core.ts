/**
 * The timeline: one full run at creation (without traces: emitted rows keep only their rule)
 * keeps per-step flags and changelog sizes in typed arrays and a checkpoint snapshot every K
 * steps (K = 64 for short runs, up to 512 for long ones, see checkpointEvery). `at(i)` replays
 * the steps before i from the checkpoint without traces and runs step i with traces, keeping the
 * replayed snapshots, so stepping back and forth near i costs one traced step. Full reasons for
 * changelog rows are rebuilt the same way (whyOf). Edits (`insert` / `remove`) recompute only
 * from the checkpoint before the edit.
 */
import type { Side } from '../planner/plan.js';
import type { Scenario, ScenarioEvent } from '../scenario/types.js';
import { newEdit } from './collections/edit.js';
import { clGet, clSlice } from './changelog.js';
import { createRunContext, withTracing, type OperatorFactory, type RunContext } from './context.js';
import { describeWatermarks } from './describe.js';
import { ResultCursor } from './result.js';
import { tagRuntimeError } from './errors.js';
import { initialSnapshot, type EngineSnapshot } from './snapshot.js';
import { step } from './step.js';
import type { Emitted, StateView, StepRecord, Timeline, WatermarkView, Why } from './types.js';
import { isBulkWhy } from './why.js';

/** Steps between checkpoints in a short run: a seek replays at most this many steps. */
export const CHECKPOINT_EVERY = 64;
/** The widest spacing: a seek replays at most this many (traced) steps. */
export const CHECKPOINT_MAX = 512;

/**
 * Checkpoint spacing for a run of n events: 64 for short runs, wider for long ones (up to 512),
 * aiming at about 1000 checkpoints. Each checkpoint keeps the state paths its steps replaced,
 * so memory grows with n / K * (distinct paths touched); a seek replays at most K steps.
 */
export function checkpointEvery(n: number): number {
  let k = CHECKPOINT_EVERY;
  while (k < CHECKPOINT_MAX && k * 1000 < n) k *= 2;
  return k;
}

interface RunData {
  /** Steps between checkpoints (fixed for a timeline and the timelines edited from it). */
  readonly k: number;
  readonly flags: Uint8Array;
  readonly sizes: Uint32Array;
  /** checkpoints[c] = snapshot after step c * K. */
  readonly checkpoints: readonly EngineSnapshot[];
  readonly final: EngineSnapshot;
}

interface Segment {
  /** First step of the segment (a checkpoint index + 1). */
  readonly base: number;
  /** snaps[j] = the snapshot after step base + j, from a replay without traces. */
  readonly snaps: EngineSnapshot[];
  /** Traced records asked for, by step index. */
  readonly records: Map<number, StepRecord<EngineSnapshot>>;
}

/** Runs `events` from the checkpoint at step `from` (a multiple of K) reusing `prev` before it. */
function compute(ctx: RunContext, events: readonly ScenarioEvent[], prev?: RunData, from = 0): RunData {
  const K = prev?.k ?? checkpointEvery(events.length);
  const n = events.length;
  const flags = new Uint8Array(n + 1);
  const sizes = new Uint32Array(n + 1);
  const checkpoints: EngineSnapshot[] = [];
  let snap: EngineSnapshot;
  if (prev === undefined || from === 0) {
    snap = initialSnapshot(ctx);
    checkpoints.push(snap);
    from = 0;
  } else {
    flags.set(prev.flags.subarray(0, from + 1));
    sizes.set(prev.sizes.subarray(0, from + 1));
    for (let c = 0; c <= from / K; c++) checkpoints.push(prev.checkpoints[c]!);
    snap = prev.checkpoints[from / K]!;
  }
  const bulk = withTracing(ctx, false);
  // One transient edit per checkpoint interval: a new one starts after each checkpoint is kept.
  let edit = newEdit();
  for (let i = from + 1; i <= n; i++) {
    let rec: StepRecord<EngineSnapshot>;
    try {
      rec = step(bulk, snap, events[i - 1]!, edit);
    } catch (error) {
      throw tagRuntimeError(error, i - 1);
    }
    snap = rec.snapshot;
    flags[i] = rec.flags;
    sizes[i] = snap.changelog.n;
    if (i % K === 0) {
      checkpoints.push(snap);
      edit = newEdit();
    }
  }
  return { k: K, flags, sizes, checkpoints, final: snap };
}

class EngineTimeline implements Timeline<EngineSnapshot> {
  private segments: Segment[] = [];
  private readonly initial: StepRecord<EngineSnapshot>;
  private readonly results: ResultCursor;
  private readonly bulk: RunContext;

  constructor(
    private readonly ctx: RunContext,
    readonly events: readonly ScenarioEvent[],
    private readonly data: RunData,
  ) {
    this.initial = { index: 0, snapshot: data.checkpoints[0]!, emitted: [], trace: [], flags: 0 };
    this.results = new ResultCursor(ctx.sink, (i) => clGet(data.final.changelog, i));
    this.bulk = withTracing(ctx, false);
  }

  get length(): number {
    return this.events.length;
  }

  private check(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index > this.length) {
      throw new RangeError(`[engine] step ${index} is outside 0..${this.length}`);
    }
  }

  /**
   * Step `index` with its trace: the steps before it in its segment are replayed without traces
   * (cheap) and kept as snapshots, and only the asked-for step runs traced; so a seek costs one
   * bulk replay of at most K steps, and stepping back costs one traced step.
   */
  at(index: number): StepRecord<EngineSnapshot> {
    this.check(index);
    if (index === 0) return this.initial;
    const K = this.data.k;
    const base = Math.floor((index - 1) / K) * K + 1;
    let seg = this.segments.find((s) => s.base === base);
    if (seg === undefined) {
      seg = { base, snaps: [], records: new Map() };
      // Keep the current and the previous segment: stepping back over a boundary stays cheap.
      this.segments = [seg, ...this.segments].slice(0, 2);
    }
    const cached = seg.records.get(index);
    if (cached !== undefined) return cached;
    const prev = this.snapshotAfter(seg, index - 1);
    let rec: StepRecord<EngineSnapshot>;
    try {
      rec = step(this.ctx, prev, this.events[index - 1]!);
    } catch (error) {
      throw tagRuntimeError(error, index - 1);
    }
    seg.records.set(index, rec);
    return rec;
  }

  /** The snapshot after step i (base - 1 <= i < base + K - 1), replaying the segment in bulk. */
  private snapshotAfter(seg: Segment, i: number): EngineSnapshot {
    const K = this.data.k;
    const start = this.data.checkpoints[(seg.base - 1) / K]!;
    if (i < seg.base) return start;
    const snaps = seg.snaps;
    while (seg.base + snaps.length <= i) {
      const j = seg.base + snaps.length;
      const prev = snaps.length === 0 ? start : snaps[snaps.length - 1]!;
      try {
        snaps.push(step(this.bulk, prev, this.events[j - 1]!).snapshot);
      } catch (error) {
        throw tagRuntimeError(error, j - 1);
      }
    }
    return snaps[i - seg.base]!;
  }

  flagsAt(index: number): number {
    this.check(index);
    return this.data.flags[index]!;
  }

  changelogSize(index: number): number {
    this.check(index);
    return this.data.sizes[index]!;
  }

  /**
   * The bulk run keeps only each row's rule (why.ts): rows handed out carry a `why` that is
   * rebuilt, on first read, by replaying the row's step with tracing on.
   */
  changelogRange(index: number, from: number, to: number): readonly Emitted[] {
    const lo = Math.max(0, Math.floor(from));
    const rows = clSlice(this.data.final.changelog, lo, Math.min(to, this.changelogSize(index)));
    return rows.map((e, i) => (isBulkWhy(e.why) ? this.lazyWhy(e, lo + i) : e));
  }

  private lazyWhy(e: Emitted, i: number): Emitted {
    let why: Why | undefined;
    const get = (): Why => (why ??= this.whyOf(i));
    return { kind: e.kind, row: e.row, step: e.step, get why(): Why { return get(); } };
  }

  whyOf(changelogIndex: number): Why {
    const e = clGet(this.data.final.changelog, changelogIndex);
    if (!isBulkWhy(e.why)) return e.why;
    const first = this.data.sizes[e.step - 1]!;
    return this.at(e.step).emitted[changelogIndex - first]?.why ?? e.why;
  }

  result(index: number): readonly string[] {
    return this.results.rows(this.changelogSize(index));
  }

  describeState(index: number, side: Side): StateView {
    const snap = this.at(index).snapshot;
    return this.ctx.op.describe(snap.op, side, { procTime: snap.procTime, watermark: snap.joinWm });
  }

  describeWatermarks(index: number): WatermarkView {
    return describeWatermarks(this.ctx, this.at(index).snapshot);
  }

  /** Steps before `firstChanged` keep their results; recompute from the checkpoint before it. */
  private edited(events: readonly ScenarioEvent[], firstChanged: number): Timeline<EngineSnapshot> {
    const K = this.data.k;
    const from = Math.floor(Math.max(0, firstChanged - 1) / K) * K;
    return new EngineTimeline(this.ctx, events, compute(this.ctx, events, this.data, from));
  }

  insert(after: number, event: ScenarioEvent): Timeline<EngineSnapshot> {
    this.check(after);
    const events = [...this.events.slice(0, after), event, ...this.events.slice(after)];
    return this.edited(events, after + 1);
  }

  remove(index: number): Timeline<EngineSnapshot> {
    this.check(index);
    if (index === 0) throw new RangeError('[engine] step 0 is the initial state: there is no event to remove');
    const events = [...this.events.slice(0, index - 1), ...this.events.slice(index)];
    return this.edited(events, index);
  }
}

export function createTimelineWith(scenario: Scenario, queryIndex: number, factory: OperatorFactory): Timeline<EngineSnapshot> {
  const ctx = createRunContext(scenario, queryIndex, factory, true);
  return new EngineTimeline(ctx, scenario.events, compute(ctx, scenario.events));
}
