/**
 * The timeline: one full run at creation (without traces: emitted rows keep only their rule)
 * keeps per-step flags and changelog sizes in typed arrays and a checkpoint snapshot every K
 * steps (K = 64 for short runs, up to 512 for long ones, see checkpointEvery). The run goes in
 * transient edits (collections/edit.ts), a new one after each checkpoint, so nodes are copied
 * once per checkpoint interval rather than once per step. That run is timeline-run.ts; this
 * module holds the timeline over its results.
 *
 * `at(i)` replays the steps before i from the nearest checkpoint or kept snapshot without traces
 * (keeping a snapshot every SUB steps) and runs step i with traces, so a seek costs one replay of
 * at most K steps and stepping back or forth nearby at most SUB. Full reasons for changelog rows
 * are rebuilt the same way (whyOf). Edits (`insert` / `remove`) recompute only from the
 * checkpoint before the edit.
 */
import type { Side } from '../planner/plan.js';
import type { Scenario, ScenarioEvent } from '../scenario/types.js';
import { newEdit, useEdit } from './collections/edit.js';
import { clGet, clSlice } from './changelog.js';
import { createRunContext, withTracing, type OperatorFactory, type RunContext } from './context.js';
import { describeWatermarks } from './describe.js';
import { ResultCursor } from './result.js';
import { tagRuntimeError } from './errors.js';
import type { EngineSnapshot } from './snapshot.js';
import { applyEvent, step } from './step.js';
import { compute, RunBuilder, type RunData } from './timeline-run.js';
import type { Emitted, ResultFold, ResultRows, StateView, StepRecord, Timeline, WatermarkView, Why } from './types.js';
import { Work } from './work.js';
import { isBulkWhy } from './why.js';

export { CHECKPOINT_EVERY, CHECKPOINT_MAX, checkpointEvery } from './timeline-run.js';

/** Replays keep a snapshot every SUB steps, so stepping back near a position replays at most SUB. */
const SUB = 32;
/** Replayed snapshots and traced records kept (oldest dropped first). */
const KEEP_SNAPS = 256;
const KEEP_RECORDS = 128;

class EngineTimeline implements Timeline<EngineSnapshot> {
  /** Snapshots from replays (every SUB steps, and where each replay ended), by step. */
  private readonly snaps = new Map<number, EngineSnapshot>();
  /** Traced step records asked for, by step. */
  private readonly records = new Map<number, StepRecord<EngineSnapshot>>();
  private readonly initial: StepRecord<EngineSnapshot>;
  private readonly results: ResultCursor;
  private readonly bulk: RunContext;

  constructor(
    private readonly ctx: RunContext,
    readonly events: readonly ScenarioEvent[],
    private readonly data: RunData,
  ) {
    this.initial = { index: 0, snapshot: data.checkpoints[0]!, emitted: [], trace: [], flags: 0 };
    this.results = new ResultCursor(ctx.sink, (from, to) => clSlice(data.final.changelog, from, to));
    this.bulk = withTracing(ctx, false);
  }

  /** Steps ready: all the events' once the run is complete; fewer while it is still computed (startTimelineWith). */
  get length(): number {
    return this.data.ready;
  }

  private check(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index > this.length) {
      throw new RangeError(`[engine] step ${index} is outside 0..${this.length}`);
    }
  }

  /**
   * Step `index` with its trace: the snapshot before it comes from the nearest kept snapshot or
   * checkpoint by a replay without traces, and only step `index` itself runs traced. A seek
   * costs one replay of at most K steps; stepping back or forth nearby, at most SUB.
   */
  at(index: number): StepRecord<EngineSnapshot> {
    this.check(index);
    if (index === 0) return this.initial;
    const cached = this.records.get(index);
    if (cached !== undefined) return cached;
    const prev = this.snapshotAt(index - 1);
    let rec: StepRecord<EngineSnapshot>;
    try {
      rec = step(this.ctx, prev, this.events[index - 1]!);
    } catch (error) {
      throw tagRuntimeError(error, index - 1);
    }
    remember(this.records, index, rec, KEEP_RECORDS);
    return rec;
  }

  /**
   * The snapshot after step i. The replay starts from the latest checkpoint, kept snapshot,
   * traced record or the run's snapshot before its newest step at or before i within the
   * checkpoint's interval, and runs in transient edits
   * (edit.ts), a new edit after each snapshot it keeps, so no snapshot handed out ever changes.
   */
  private snapshotAt(i: number): EngineSnapshot {
    const K = this.data.k;
    const c = Math.floor(i / K);
    let from = c * K;
    let snap = this.data.checkpoints[c]!;
    for (const [j, s] of this.snaps) if (j <= i && j > from) [from, snap] = [j, s];
    for (const [j, r] of this.records) if (j <= i && j > from) [from, snap] = [j, r.snapshot];
    const before = this.data.beforeFinal;
    if (before !== undefined && before.step <= i && before.step > from) [from, snap] = [before.step, before.snapshot];
    if (from === i) return snap;
    // As the bulk run does (timeline-run.ts): one Work goes from step to step, making a snapshot
    // only where one is kept, with a new transient edit after each; a snapshot per step (step())
    // cost about twice the CPU per seek (docs/decisions.md, the app on a big run).
    const outer = useEdit(newEdit());
    try {
      const w = new Work(this.bulk, snap);
      for (let j = from + 1; j <= i; j++) {
        if (j > from + 1) w.continue();
        try {
          applyEvent(w, this.events[j - 1]!);
        } catch (error) {
          throw tagRuntimeError(error, j - 1);
        }
        if (j % SUB === 0 || j === i) {
          snap = w.snapshot();
          remember(this.snaps, j, snap, KEEP_SNAPS);
          useEdit(newEdit());
        }
      }
    } finally {
      useEdit(outer);
    }
    return snap;
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

  resultWindow(index: number): ResultRows {
    return this.results.window(this.changelogSize(index));
  }

  resultFold(index: number, budgetMs: number): ResultFold {
    const size = this.changelogSize(index);
    const left = this.results.moveToward(size, budgetMs);
    return { left, at: this.results.position, size };
  }

  resultPrepare(budgetMs: number): number {
    return this.results.printAhead(this.changelogSize(this.length), budgetMs);
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

/** Keep `v` under `k`, dropping the oldest entries beyond `max`. */
function remember<V>(m: Map<number, V>, k: number, v: V, max: number): void {
  m.delete(k);
  m.set(k, v);
  if (m.size > max) m.delete(m.keys().next().value as number);
}

/**
 * A timeline whose bulk run is computed in pieces: `timeline.length` is the number of steps
 * ready so far (0 at first) and grows with each `advance(count)`, until it reaches the events'
 * count. Steps up to `length` answer exactly as a complete timeline's do; edits (`insert`,
 * `remove`) compute the rest at once. `scenario.events` may still grow while it is computed (a
 * file read as the run goes): `expected`, the count it is thought to reach, chooses K.
 */
export interface TimelineBuild {
  readonly timeline: Timeline<EngineSnapshot>;
  /** Applies up to `count` more events; true once the run is complete. */
  advance(count: number): boolean;
}

export function startTimelineWith(scenario: Scenario, queryIndex: number, factory: OperatorFactory, expected?: number): TimelineBuild {
  const ctx = createRunContext(scenario, queryIndex, factory, true);
  const run = new RunBuilder(ctx, scenario.events, undefined, 0, undefined, expected);
  return { timeline: new EngineTimeline(ctx, scenario.events, run), advance: (count) => run.advance(count) };
}

/** `onStep`: told how many events the first run has applied, of how many (progress for a long one). */
export function createTimelineWith(scenario: Scenario, queryIndex: number, factory: OperatorFactory, onStep?: (done: number, total: number) => void): Timeline<EngineSnapshot> {
  const ctx = createRunContext(scenario, queryIndex, factory, true);
  return new EngineTimeline(ctx, scenario.events, compute(ctx, scenario.events, undefined, 0, onStep));
}
