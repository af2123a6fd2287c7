/**
 * Watermark combination, as plain data mutated only on private copies:
 *  - `StatusWatermarkValve` over the partitions (channels) of one table;
 *  - `CombinedWatermarkStatus` over the inputs of the join operator.
 *
 * Written from Flink's StatusWatermarkValve / StatusWatermarkValveTest and
 * CombinedWatermarkStatus (notes §1.2, §1.3). The valve functions take a *fresh copy* of the
 * valve state (the caller copies on write) and report what the valve emitted through `out`,
 * in the order Flink emits it (a flushed watermark before the IDLE status).
 */
import { WM_MIN } from './types.js';

export interface Channel {
  /** Last watermark accepted from this channel (WM_MIN before any). */
  wm: number;
  idle: boolean;
  /** Counts for the minimum only when aligned: a re-activated channel must catch up first. */
  aligned: boolean;
}

export interface ValveState {
  channels: Channel[];
  /** Last watermark the valve emitted. */
  output: number;
  /** The valve's own status: idle once every channel is idle. */
  idle: boolean;
}

export interface ValveOutput {
  watermark(value: number): void;
  status(idle: boolean): void;
}

export function newValve(channels: number): ValveState {
  const cs: Channel[] = [];
  for (let i = 0; i < channels; i++) cs.push({ wm: WM_MIN, idle: false, aligned: true });
  return { channels: cs, output: WM_MIN, idle: false };
}

/**
 * A copy whose channels can be mutated without touching `v`. Fields are listed, not spread: a
 * spread copy of an object holding a non-integer number gets a new hidden class each time, and
 * every channel read on the per-row path then went through V8's slow, megamorphic lookup. The
 * channels are pushed, as in newValve, not mapped: V8's optimised `map` makes a holey array where
 * its builtin and `push` make a packed one, and valves of both kinds made the valve's readers
 * deoptimise and recompile mid-run (docs/decisions.md, sixteenth session).
 */
export function copyValve(v: Readonly<ValveState>): ValveState {
  const channels: Channel[] = [];
  for (const c of v.channels) channels.push({ wm: c.wm, idle: c.idle, aligned: c.aligned });
  return { channels, output: v.output, idle: v.idle };
}

function emitNewMin(v: ValveState, out: ValveOutput): void {
  let min = Infinity;
  for (const c of v.channels) if (c.aligned && c.wm < min) min = c.wm;
  if (min !== Infinity && min > v.output) {
    v.output = min;
    out.watermark(min);
  }
}

function emitMax(v: ValveState, out: ValveOutput): void {
  let max = WM_MIN;
  for (const c of v.channels) if (c.wm > max) max = c.wm;
  if (max > v.output) {
    v.output = max;
    out.watermark(max);
  }
}

/** Returns whether the channel accepted the watermark (it is ignored while idle or not higher). */
export function valveWatermark(v: ValveState, ch: number, wm: number, out: ValveOutput): boolean {
  const c = v.channels[ch];
  if (c === undefined || v.idle || c.idle || wm <= c.wm) return false;
  c.wm = wm;
  if (!c.aligned && wm >= v.output) c.aligned = true;
  emitNewMin(v, out);
  return true;
}

/** Returns whether the channel's status changed. */
export function valveStatus(v: ValveState, ch: number, idle: boolean, out: ValveOutput): boolean {
  const c = v.channels[ch];
  if (c === undefined || c.idle === idle) return false;
  if (idle) {
    c.idle = true;
    c.aligned = false;
    if (v.channels.every((x) => x.idle)) {
      // Flush the largest watermark, but only when the channel going idle last is the one that
      // held the output (its watermark is the output): StatusWatermarkValve assumes the others
      // already moved the minimum on as they went idle, so the order in which channels go idle
      // decides whether anything is flushed (checked against Flink's valve through the harness).
      if (c.wm === v.output) emitMax(v, out);
      v.idle = true;
      out.status(true);
    } else if (c.wm === v.output) {
      emitNewMin(v, out);
    }
    return true;
  }
  c.idle = false;
  // Realigned at once when it has not fallen behind, but nothing is emitted here: Flink 2.0-2.3's
  // valve looks for a new minimum only when a watermark arrives or a channel goes idle, so a
  // channel that comes back as the only aligned one moves the output on its next watermark.
  if (c.wm >= v.output) c.aligned = true;
  if (v.idle) {
    v.idle = false;
    out.status(false);
  }
  return true;
}

/** The aligned active channel holding the valve's output back (lowest index on ties). */
export function valveHeldBy(v: Readonly<ValveState>): number | undefined {
  let best: number | undefined;
  let min = Infinity;
  v.channels.forEach((c, i) => {
    if (!c.idle && c.aligned && c.wm < min) {
      min = c.wm;
      best = i;
    }
  });
  return best;
}

/** One input of the join: its partial watermark and idleness (CombinedWatermarkStatus.PartialWatermark). */
export interface PartialWatermark {
  readonly wm: number;
  readonly idle: boolean;
}

/**
 * The combined watermark over the join's inputs: the minimum over active inputs, the maximum
 * when all are idle; the caller keeps it only if it grew (it never goes back). `flushWhenIdle`
 * false: before Flink 2.2 (FLINK-38454) CombinedWatermarkStatus did not advance at all once
 * every input was idle, so WM_MIN (nothing new) is returned then.
 */
export function combineWatermarks(inputs: readonly PartialWatermark[], flushWhenIdle = true): number {
  let min = Infinity;
  let max = WM_MIN;
  let allIdle = true;
  for (const p of inputs) {
    if (p.wm > max) max = p.wm;
    if (!p.idle) {
      allIdle = false;
      if (p.wm < min) min = p.wm;
    }
  }
  if (inputs.length === 0) return WM_MIN;
  if (allIdle) return flushWhenIdle ? max : WM_MIN;
  return min;
}
