/**
 * What the panes read about one step, each engine query made at most once per (timeline, step).
 * A frame asks for the result, the state views and the watermarks from several panes (titles,
 * bodies, scroll limits); on a big run each query can cost milliseconds, so they are memoized
 * here, lazily, for the few most recent steps.
 */
import type { ResultFold, ResultRows, StateView, StepRecord, Timeline, WatermarkView } from '../engine/types.js';
import type { Side } from '../planner/plan.js';

/**
 * A result fold this many changelog rows away (or fewer) is made at once when a frame asks for it
 * (a step's few rows, or a short seek: about 3 ms at most on the 1M-event temporal run); a longer one goes in slices.
 */
export const SYNC_FOLD_ROWS = 1024;
/** ...and given at most this long (the rest goes in slices). */
const SYNC_FOLD_MS = 8;

/** A query slower than this is deferred until the keys pause (see `ready`). */
const SLOW_MS = 8;
/**
 * A state holds at most the rows of the events so far, and describing it costs about as much as
 * printing them all (a second or more at step 500,000 of the 1M-event regular joins). So past
 * this step a state query is presumed slow until one at least as far was measured fast: the first
 * far step a key reaches (`G`, a seek) is not held up by a query that is only then learnt slow.
 */
export const FAR_STATE_STEP = 2048;
type HeavyQuery = 'result' | 'state';
const slowQueries = new WeakMap<Timeline, Set<HeavyQuery>>();
/** The farthest step whose state was described within SLOW_MS, per timeline. */
const stateFastTo = new WeakMap<Timeline, number>();
/** The longest a query took, per timeline (a settled frame makes several, of unlike cost). */
const slowestMs = new WeakMap<Timeline, number>();

/** The longest a slow query (a result or a state) of this timeline took; 0 when none was slow. */
export function slowestQueryMs(timeline: Timeline): number {
  return slowestMs.get(timeline) ?? 0;
}

function timed<T>(timeline: Timeline, query: HeavyQuery, f: () => T, step: number): T {
  const start = performance.now();
  const value = f();
  const took = performance.now() - start;
  if (took > SLOW_MS) {
    slowestMs.set(timeline, Math.max(took, slowestMs.get(timeline) ?? 0));
    let slow = slowQueries.get(timeline);
    if (slow === undefined) slowQueries.set(timeline, (slow = new Set()));
    slow.add(query);
  } else if (query === 'state' && step > (stateFastTo.get(timeline) ?? 0)) stateFastTo.set(timeline, step);
  return value;
}

export class StepView {
  private rec?: StepRecord;
  private wm?: WatermarkView;
  private states: [StateView?, StateView?] = [];
  private rows?: readonly string[];
  private size?: number;
  /** Where the result's fold was when this step first asked for it (for the progress shown). */
  private foldFrom?: number;

  constructor(
    readonly timeline: Timeline,
    readonly step: number,
  ) {}

  get record(): StepRecord {
    return (this.rec ??= this.timeline.at(this.step));
  }

  get watermarks(): WatermarkView {
    return (this.wm ??= this.timeline.describeWatermarks(this.step));
  }

  /** The watermarks one step earlier (to highlight what moved). */
  get previous(): StepView {
    return stepView(this.timeline, Math.max(0, this.step - 1));
  }

  state(side: Side): StateView {
    return (this.states[side] ??= timed(this.timeline, 'state', () => this.timeline.describeState(this.step, side), this.step));
  }

  get result(): readonly string[] {
    return (this.rows ??= timed(this.timeline, 'result', () => this.timeline.result(this.step), this.step));
  }

  /**
   * The result a window at a time, or undefined while its fold is still on the way here (the app
   * then moves it in slices between frames and keys, see App's fold): a timeline that folds in
   * pieces is never asked for a far step's result in one go. A short way (a step or a few) is
   * folded at once, so stepping shows each result with its step.
   */
  get resultRows(): ResultRows | undefined {
    const timeline = this.timeline;
    if (timeline.resultFold === undefined || timeline.resultWindow === undefined) {
      const rows = this.result;
      return { length: rows.length, slice: (from, to) => rows.slice(from, to) };
    }
    const fold = this.resultFold();
    if (fold === undefined) return undefined;
    if (fold.left > SYNC_FOLD_ROWS) return undefined;
    // Bounded all the same: a fold without keys that meets its first retraction starts over.
    if (fold.left > 0 && timeline.resultFold(this.step, SYNC_FOLD_MS).left > 0) return undefined;
    return timeline.resultWindow(this.step);
  }

  /** Where the fold toward this step stands (undefined for a timeline that does not fold in pieces). */
  resultFold(): ResultFold | undefined {
    const f = this.timeline.resultFold?.(this.step, 0);
    if (f !== undefined && this.foldFrom === undefined) this.foldFrom = f.at;
    return f;
  }

  /** How far the fold toward this step has come since this step was first shown (0 to 1). */
  foldDone(f: ResultFold): number {
    const from = this.foldFrom ?? f.at;
    const way = Math.abs(f.size - from);
    return way === 0 ? 1 : Math.max(0, Math.min(1, 1 - f.left / way));
  }

  /**
   * Whether a heavy query can be answered without a noticeable delay: already computed, or
   * never seen slow on this timeline (and, for a state, not past what was seen fast). While keys arrive faster than a slow query runs, the
   * panes that need it wait for the keys to pause instead of holding up every frame.
   */
  ready(query: 'result' | 'state0' | 'state1'): boolean {
    // A result folded in pieces never holds up a frame: the pane shows the fold's progress instead.
    if (query === 'result' && this.timeline.resultFold !== undefined) return true;
    if (query === 'result' ? this.rows !== undefined : this.states[query === 'state0' ? 0 : 1] !== undefined) return true;
    if (slowQueries.get(this.timeline)?.has(query === 'result' ? 'result' : 'state') === true) return false;
    return query === 'result' || this.step <= Math.max(FAR_STATE_STEP, stateFastTo.get(this.timeline) ?? 0);
  }

  get changelogSize(): number {
    return (this.size ??= this.timeline.changelogSize(this.step));
  }
}

const KEEP = 4;
const cache = new WeakMap<Timeline, Map<number, StepView>>();

export function stepView(timeline: Timeline, step: number): StepView {
  let views = cache.get(timeline);
  if (views === undefined) cache.set(timeline, (views = new Map()));
  let view = views.get(step);
  if (view === undefined) {
    view = new StepView(timeline, step);
    views.set(step, view);
    // Maps iterate in insertion order: drop the oldest views.
    for (const key of views.keys()) {
      if (views.size <= KEEP) break;
      views.delete(key);
    }
  }
  return view;
}
