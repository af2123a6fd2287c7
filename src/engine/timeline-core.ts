/**
 * The timeline: one full run at creation (without traces) keeps per-step flags and changelog
 * sizes in typed arrays and a checkpoint snapshot every K steps. `at(i)` replays, with traces,
 * from the checkpoint before i and keeps the replayed segment, so stepping back and forth near
 * i is O(1). Edits (`insert` / `remove`) recompute only from the checkpoint before the edit.
 */
import type { Side } from '../planner/plan.js';
import type { Scenario, ScenarioEvent } from '../scenario/types.js';
import { pvGet, pvSlice } from './collections/pvec.js';
import { createRunContext, withTracing, type OperatorFactory, type RunContext } from './context.js';
import { describeWatermarks } from './describe.js';
import { ResultCursor } from './result.js';
import { tagRuntimeError } from './errors.js';
import { initialSnapshot, type EngineSnapshot } from './snapshot.js';
import { step } from './step.js';
import type { Emitted, StateView, StepRecord, Timeline, WatermarkView, Why } from './types.js';
import { isBulkWhy } from './why.js';

/** Steps between checkpoints: a seek replays at most this many steps. */
export const CHECKPOINT_EVERY = 256;

interface RunData {
  readonly flags: Uint8Array;
  readonly sizes: Uint32Array;
  /** checkpoints[c] = snapshot after step c * K. */
  readonly checkpoints: readonly EngineSnapshot[];
  readonly final: EngineSnapshot;
}

interface Segment {
  /** Index of the first record held (a checkpoint index + 1, or 0). */
  readonly base: number;
  readonly records: StepRecord<EngineSnapshot>[];
}

/** Runs `events` from the checkpoint at step `from` (a multiple of K) reusing `prev` before it. */
function compute(ctx: RunContext, events: readonly ScenarioEvent[], prev?: RunData, from = 0): RunData {
  const K = CHECKPOINT_EVERY;
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
  for (let i = from + 1; i <= n; i++) {
    let rec: StepRecord<EngineSnapshot>;
    try {
      rec = step(bulk, snap, events[i - 1]!);
    } catch (error) {
      throw tagRuntimeError(error, i - 1);
    }
    snap = rec.snapshot;
    flags[i] = rec.flags;
    sizes[i] = snap.changelog.n;
    if (i % K === 0) checkpoints.push(snap);
  }
  return { flags, sizes, checkpoints, final: snap };
}

class EngineTimeline implements Timeline<EngineSnapshot> {
  private segments: Segment[] = [];
  private readonly initial: StepRecord<EngineSnapshot>;
  private readonly results: ResultCursor;

  constructor(
    private readonly ctx: RunContext,
    readonly events: readonly ScenarioEvent[],
    private readonly data: RunData,
  ) {
    this.initial = { index: 0, snapshot: data.checkpoints[0]!, emitted: [], trace: [], flags: 0 };
    this.results = new ResultCursor(ctx.sink, (i) => pvGet(data.final.changelog, i));
  }

  get length(): number {
    return this.events.length;
  }

  private check(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index > this.length) {
      throw new RangeError(`[engine] step ${index} is outside 0..${this.length}`);
    }
  }

  at(index: number): StepRecord<EngineSnapshot> {
    this.check(index);
    if (index === 0) return this.initial;
    const K = CHECKPOINT_EVERY;
    const base = Math.floor((index - 1) / K) * K + 1;
    let seg = this.segments.find((s) => s.base === base);
    if (seg === undefined) {
      seg = { base, records: [] };
      // Keep the current and the previous segment: stepping back over a boundary stays cheap.
      this.segments = [seg, ...this.segments].slice(0, 2);
    }
    const recs = seg.records;
    while (base + recs.length <= index) {
      const i = base + recs.length;
      const prev = recs.length === 0 ? this.data.checkpoints[(base - 1) / K]! : recs[recs.length - 1]!.snapshot;
      try {
        recs.push(step(this.ctx, prev, this.events[i - 1]!));
      } catch (error) {
        throw tagRuntimeError(error, i - 1);
      }
    }
    return recs[index - base]!;
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
    const rows = pvSlice(this.data.final.changelog, lo, Math.min(to, this.changelogSize(index)));
    return rows.map((e, i) => (isBulkWhy(e.why) ? this.lazyWhy(e, lo + i) : e));
  }

  private lazyWhy(e: Emitted, i: number): Emitted {
    let why: Why | undefined;
    const get = (): Why => (why ??= this.whyOf(i));
    return { kind: e.kind, row: e.row, step: e.step, get why(): Why { return get(); } };
  }

  whyOf(changelogIndex: number): Why {
    const e = pvGet(this.data.final.changelog, changelogIndex);
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
    const K = CHECKPOINT_EVERY;
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
