/**
 * Drives a session's run computed in pieces (session-load.ts `startSession`) on the main thread:
 * a slice of about SLICE_MS, then `setImmediate`, so that between slices Ink reads keys and
 * draws frames. Keeping the run on the main thread keeps the pure step/timeline model (and cheap
 * stepping back) as it is; the app shows and steps through the steps already computed.
 */
import type { Timeline } from '../engine/types.js';
import type { BuildProgress, SessionBuild } from './session-load.js';

/** A slice long enough to keep the scheduling cost small, short enough that a key waits < 16 ms. */
export const SLICE_MS = 8;
/** Progress is reported (a frame drawn) at most this often, and once at the end. */
export const REPORT_MS = 100;

export interface ComputeProgress extends BuildProgress {
  /** Steps per second since the driver started. */
  readonly rate: number;
}

export interface PieceOptions {
  /** A slice's budget; a function is asked before each slice (shorter slices while keys come). */
  readonly sliceMs?: number | (() => number);
  readonly reportMs?: number;
  readonly now?: () => number;
  /**
   * True while something waits to be drawn (a key read, its frame not yet drawn): slices then
   * step aside, so the key's frame never waits behind one, whatever order the loop runs them in.
   */
  readonly yieldTo?: () => boolean;
}

/** Work done in time-budgeted pieces: a session's run, or `V`'s run and diff. */
export type PieceWork = Pick<SessionBuild, 'advance' | 'progress'>;

/** Computes `build` to its end in slices; returns a function that stops it. */
export function computeInPieces(build: PieceWork, report: (p: ComputeProgress) => void, options: PieceOptions = {}): () => void {
  const now = options.now ?? (() => performance.now());
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const budget = typeof sliceMs === 'number' ? () => sliceMs : sliceMs;
  const reportMs = options.reportMs ?? REPORT_MS;
  const start = now();
  const from = build.progress().ready;
  let lastReport = -Infinity;
  let stopped = false;
  let timer: NodeJS.Immediate | undefined;
  // Two hops to the next slice: React renders a key's update from a setImmediate queued when
  // the key is read (the poll phase); a slice queued straight from the last one would run before
  // it in the same check phase, so the key's frame would wait a whole slice more.
  const hop = (): void => {
    timer = stopped ? undefined : setImmediate(slice);
  };
  const slice = (): void => {
    timer = undefined;
    if (stopped) return;
    if (options.yieldTo?.() === true) {
      timer = setImmediate(hop);
      return;
    }
    const p = build.advance(budget());
    const t = now();
    const rate = t > start ? ((p.ready - from) * 1000) / (t - start) : 0;
    const finished = p.done || p.error !== undefined || p.restart !== undefined;
    if (finished || t - lastReport >= reportMs) {
      lastReport = t;
      report({ ...p, rate });
    }
    if (!finished) timer = setImmediate(hop);
  };
  timer = setImmediate(slice);
  return () => {
    stopped = true;
    if (timer !== undefined) clearImmediate(timer);
  };
}

/**
 * The result's fold toward `step` as piece work: `ready` counts the changelog rows moved over of
 * the way there. The fold already there (or a timeline without a fold) is done at once.
 */
export function foldWork(timeline: Timeline, step: number): PieceWork {
  const at = (budgetMs: number): BuildProgress => {
    const f = timeline.resultFold?.(step, budgetMs);
    if (f === undefined) return { ready: 0, total: 0, done: true };
    const total = Math.abs(f.size - start);
    return { ready: total - f.left, total, done: f.left === 0 };
  };
  const start = timeline.resultFold?.(step, 0).at ?? 0;
  return { advance: at, progress: () => at(0) };
}

/** The result's rows printed ahead of its fold while the app is idle (Timeline.resultPrepare). */
export function prepareWork(timeline: Timeline): PieceWork {
  const total = timeline.resultPrepare?.(0) ?? 0;
  const at = (budgetMs: number): BuildProgress => {
    const left = timeline.resultPrepare?.(budgetMs) ?? 0;
    return { ready: Math.max(0, total - left), total, done: left === 0 };
  };
  return { advance: at, progress: () => at(0) };
}
