/**
 * The timeline's bulk run (timeline-core.ts): one full run of the events without traces
 * (emitted rows keep only their rule) that keeps per-step flags and changelog sizes in typed
 * arrays and a checkpoint snapshot every K steps (K = 64 for short runs, up to 512 for long
 * ones, see checkpointEvery). The run goes in transient edits (collections/edit.ts), a new one
 * after each checkpoint, so nodes are copied once per checkpoint interval rather than once per
 * step. An edited timeline's run starts at the checkpoint before its first changed step and
 * reuses the earlier run's results before it.
 */
import type { ScenarioEvent } from '../scenario/types.js';
import { newEdit, useEdit } from './collections/edit.js';
import { withTracing, type RunContext } from './context.js';
import { tagRuntimeError } from './errors.js';
import { initialSnapshot, type EngineSnapshot } from './snapshot.js';
import { applyEvent } from './step.js';
import { Work } from './work.js';

/** Steps between checkpoints in a short run: a seek replays at most this many steps. */
export const CHECKPOINT_EVERY = 64;
/**
 * The widest spacing: a seek replays at most this many steps (without traces, in transient edits).
 * 512 keeps a seek at 1M events under a frame's budget (docs/decisions.md, the app on a big run).
 */
export const CHECKPOINT_MAX = 512;
/** About how many checkpoints a long run keeps. */
const CHECKPOINTS_TARGET = 512;

/**
 * Checkpoint spacing for a run of n events: 64 for short runs, wider for long ones (up to 512),
 * aiming at about 512 checkpoints (more past 256k events: about 2000 at 1M). Each checkpoint
 * keeps the state paths its steps replaced, so memory grows with n / K * (distinct paths touched);
 * a seek replays at most K steps.
 */
export function checkpointEvery(n: number): number {
  let k = CHECKPOINT_EVERY;
  while (k < CHECKPOINT_MAX && k * CHECKPOINTS_TARGET < n) k *= 2;
  return k;
}

export interface RunData {
  /** Steps between checkpoints (fixed for a timeline and the timelines edited from it). */
  readonly k: number;
  readonly flags: Uint8Array;
  readonly sizes: Uint32Array;
  /** checkpoints[c] = snapshot after step c * K. */
  readonly checkpoints: readonly EngineSnapshot[];
  /** The snapshot after step `ready`. */
  readonly final: EngineSnapshot;
  /**
   * A snapshot after step `ready - 2` (or a later one before `ready`): a seek to the newest step,
   * which also shows the step before it (the watermark pane compares the two), then replays a
   * step or none instead of up to K steps from the checkpoint before them.
   */
  readonly beforeFinal?: { readonly step: number; readonly snapshot: EngineSnapshot };
  /** Steps computed so far: the events' count once the run is complete. */
  readonly ready: number;
}

/** Runs `events` from the checkpoint at step `from` (a multiple of K) reusing `prev` before it. */
export function compute(ctx: RunContext, events: readonly ScenarioEvent[], prev?: RunData, from = 0, onStep?: (done: number, total: number) => void): RunData {
  const run = new RunBuilder(ctx, events, prev, from, onStep);
  run.advance(events.length);
  return run;
}

/**
 * The bulk run in pieces: `advance(count)` applies up to `count` more events and leaves the
 * data readable up to `ready` (flags, sizes, checkpoints, and `final` = the snapshot after step
 * `ready`), so an app can show the first steps while the rest is still being computed. Between
 * pieces other code may run in other transient edits: each piece starts a new edit of its own,
 * and ends with a snapshot, so nothing already handed out changes afterwards. The event list
 * may grow between pieces (the app reads a big file as the run goes): the flags and sizes grow
 * with it, and `expected` (the events the file is thought to hold) chooses K instead of the
 * list's length at the start.
 */
export class RunBuilder implements RunData {
  readonly k: number;
  flags: Uint8Array;
  sizes: Uint32Array;
  readonly checkpoints: EngineSnapshot[] = [];
  final: EngineSnapshot;
  beforeFinal?: { readonly step: number; readonly snapshot: EngineSnapshot };
  ready: number;
  private readonly work: Work;
  private readonly start: number;
  private failure: unknown;

  constructor(
    ctx: RunContext,
    private readonly events: readonly ScenarioEvent[],
    prev?: RunData,
    from = 0,
    private readonly onStep?: (done: number, total: number) => void,
    expected?: number,
  ) {
    this.k = prev?.k ?? checkpointEvery(expected ?? events.length);
    const n = Math.max(events.length, from);
    this.flags = new Uint8Array(n + 1);
    this.sizes = new Uint32Array(n + 1);
    if (prev === undefined || from === 0) {
      this.final = initialSnapshot(ctx);
      this.checkpoints.push(this.final);
      from = 0;
    } else {
      this.flags.set(prev.flags.subarray(0, from + 1));
      this.sizes.set(prev.sizes.subarray(0, from + 1));
      for (let c = 0; c <= from / this.k; c++) this.checkpoints.push(prev.checkpoints[c]!);
      this.final = prev.checkpoints[from / this.k]!;
    }
    this.start = from;
    this.ready = from;
    this.work = new Work(withTracing(ctx, false), this.final);
  }

  get complete(): boolean {
    return this.ready >= this.events.length;
  }

  /** Applies up to `count` more events; true once the run is complete. */
  advance(count: number): boolean {
    const n = this.events.length;
    const to = Math.min(n, this.ready + Math.max(0, Math.floor(count)));
    if (to <= this.ready) return this.complete;
    if (to >= this.flags.length) this.grow(to);
    const K = this.k;
    const w = this.work;
    // One Work goes from step to step, making a snapshot only for a checkpoint; one transient
    // edit per checkpoint interval (and per piece), a new one after each snapshot is kept.
    if (this.failure !== undefined) throw this.failure;
    const outer = useEdit(newEdit());
    try {
      if (to - 2 <= this.ready) this.beforeFinal = { step: this.ready, snapshot: this.final };
      for (let i = this.ready + 1; i <= to; i++) {
        if (i > this.start + 1) w.continue();
        try {
          applyEvent(w, this.events[i - 1]!);
        } catch (error) {
          // The Work is left mid-step: the run stops at the last piece, for good.
          this.failure = tagRuntimeError(error, i - 1);
          throw this.failure;
        }
        this.flags[i] = w.flags;
        this.sizes[i] = w.changelog.n;
        this.onStep?.(i, n);
        if (i % K === 0) {
          this.checkpoints.push(w.snapshot());
          useEdit(newEdit());
        } else if (i === to - 2) {
          // One more snapshot per piece (a piece is thousands of steps in the app).
          this.beforeFinal = { step: i, snapshot: w.snapshot() };
          useEdit(newEdit());
        }
      }
      this.final = to % K === 0 ? this.checkpoints[to / K]! : w.snapshot();
      this.ready = to;
      return this.complete;
    } finally {
      useEdit(outer);
    }
  }

  /** Room for step `to` in an event list that grew since the run started (events read as it runs). */
  private grow(to: number): void {
    const size = Math.max(to + 1, this.flags.length * 2);
    const flags = new Uint8Array(size);
    const sizes = new Uint32Array(size);
    flags.set(this.flags.subarray(0, this.ready + 1));
    sizes.set(this.sizes.subarray(0, this.ready + 1));
    this.flags = flags;
    this.sizes = sizes;
  }
}
