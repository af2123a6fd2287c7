/**
 * The timeline's bulk run (timeline-core.ts): one full run of the events without traces
 * (emitted rows keep only their rule) that keeps per-step flags and changelog sizes in typed
 * arrays and a checkpoint snapshot every K steps (K = 64 for short runs, up to 2048 for long
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
/** The widest spacing: a seek replays at most this many steps (without traces, in transient edits). */
export const CHECKPOINT_MAX = 2048;
/** About how many checkpoints a long run keeps. */
const CHECKPOINTS_TARGET = 512;

/**
 * Checkpoint spacing for a run of n events: 64 for short runs, wider for long ones (up to 2048),
 * aiming at about 512 checkpoints. Each checkpoint keeps the state paths its steps replaced, so
 * memory grows with n / K * (distinct paths touched); a seek replays at most K steps.
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
  readonly final: EngineSnapshot;
}

/** Runs `events` from the checkpoint at step `from` (a multiple of K) reusing `prev` before it. */
export function compute(ctx: RunContext, events: readonly ScenarioEvent[], prev?: RunData, from = 0, onStep?: (done: number, total: number) => void): RunData {
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
  // One Work goes from step to step, making a snapshot only for a checkpoint; one transient
  // edit per checkpoint interval, a new one after each checkpoint is kept (so it never changes).
  const outer = useEdit(newEdit());
  try {
    const w = new Work(withTracing(ctx, false), snap);
    for (let i = from + 1; i <= n; i++) {
      if (i > from + 1) w.continue();
      try {
        applyEvent(w, events[i - 1]!);
      } catch (error) {
        throw tagRuntimeError(error, i - 1);
      }
      flags[i] = w.flags;
      sizes[i] = w.changelog.n;
      onStep?.(i, n);
      if (i % K === 0) {
        checkpoints.push(w.snapshot());
        useEdit(newEdit());
      }
    }
    return { k: K, flags, sizes, checkpoints, final: n > from ? w.snapshot() : snap };
  } finally {
    useEdit(outer);
  }
}
