/**
 * joinstep's run against Flink's, step by step: the rows each side emitted in a step are
 * compared in order — except in the steps the harness names as unordered, where Flink's own
 * order depends on its state layout (a heap MapState iterated in hash order) and the rows are
 * compared as a multiset. Those steps are counted and named in the comparison, never hidden.
 */
import type { SideRun, SideWatermark } from './joinstep-side.js';

export interface StepDiff {
  readonly step: number;
  readonly joinstep: readonly string[];
  readonly flink: readonly string[];
  readonly agree: boolean;
  /** Compared as a multiset (a step Flink names as unordered). */
  readonly unordered: boolean;
  /** Unordered, same rows, but printed in a different order. */
  readonly orderOnly: boolean;
}

export interface WatermarkDiff {
  readonly agree: boolean;
  /** The first step whose emitted watermarks differ. */
  readonly firstDifference?: { readonly step: number; readonly joinstep: readonly number[]; readonly flink: readonly number[] };
  readonly count: number;
}

export interface RunDiff {
  /** Every step in which either side emitted a row, in step order. */
  readonly steps: readonly StepDiff[];
  readonly firstDifference?: number;
  readonly changelogAgrees: boolean;
  readonly result: { readonly agree: boolean; readonly joinstep: readonly string[]; readonly flink: readonly string[] };
  /** Absent when Flink's side reported no watermarks. */
  readonly watermarks?: WatermarkDiff;
  /** Steps compared as a multiset that held more than one row (where order could matter at all). */
  readonly unorderedCompared: readonly number[];
  readonly agree: boolean;
}

export function diffRuns(joinstep: SideRun, flink: SideRun, unorderedSteps: readonly number[] = []): RunDiff {
  const unordered = new Set(unorderedSteps);
  const mine = byStep(joinstep.changelog);
  const theirs = byStep(flink.changelog);
  const stepNumbers = [...new Set([...mine.keys(), ...theirs.keys()])].sort((a, b) => a - b);
  const steps = stepNumbers.map((step): StepDiff => {
    const a = mine.get(step) ?? [];
    const b = theirs.get(step) ?? [];
    const inOrder = sameSequence(a, b);
    const isUnordered = unordered.has(step);
    const agree = inOrder || (isUnordered && sameMultiset(a, b));
    return { step, joinstep: a, flink: b, agree, unordered: isUnordered, orderOnly: isUnordered && agree && !inOrder };
  });
  const firstDifference = steps.find((s) => !s.agree)?.step;
  const result = { agree: sameMultiset(joinstep.result, flink.result), joinstep: [...joinstep.result].sort(), flink: [...flink.result].sort() };
  const watermarks = flink.watermarks === undefined || joinstep.watermarks === undefined ? undefined : diffWatermarks(joinstep.watermarks, flink.watermarks);
  const unorderedCompared = steps.filter((s) => s.unordered && Math.max(s.joinstep.length, s.flink.length) > 1).map((s) => s.step);
  const changelogAgrees = firstDifference === undefined;
  return {
    steps,
    ...(firstDifference !== undefined ? { firstDifference } : {}),
    changelogAgrees,
    result,
    ...(watermarks !== undefined ? { watermarks } : {}),
    unorderedCompared,
    agree: changelogAgrees && result.agree && (watermarks?.agree ?? true),
  };
}

function diffWatermarks(joinstep: readonly SideWatermark[], flink: readonly SideWatermark[]): WatermarkDiff {
  const mine = byStepValues(joinstep);
  const theirs = byStepValues(flink);
  const steps = [...new Set([...mine.keys(), ...theirs.keys()])].sort((a, b) => a - b);
  for (const step of steps) {
    const a = mine.get(step) ?? [];
    const b = theirs.get(step) ?? [];
    if (!sameSequence(a, b)) return { agree: false, firstDifference: { step, joinstep: a, flink: b }, count: flink.length };
  }
  return { agree: true, count: flink.length };
}

function byStep(rows: readonly { step: number; text: string }[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const list = out.get(r.step);
    if (list === undefined) out.set(r.step, [r.text]);
    else list.push(r.text);
  }
  return out;
}

function byStepValues(marks: readonly SideWatermark[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const w of marks) {
    const list = out.get(w.step);
    if (list === undefined) out.set(w.step, [w.value]);
    else list.push(w.value);
  }
  return out;
}

function sameSequence<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameMultiset(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The first sentence of joinstep's message (without its position), as compared with Flink's. */
export function firstSentence(message: string): string {
  const m = squash(message.replace(/^\d+:\d+: /, ''));
  const dot = m.search(/\.(\s|$)/);
  return (dot > 0 ? m.slice(0, dot) : m).slice(0, 80);
}

/**
 * Two rejections of one query are the same when Flink's message (or its root cause) contains the
 * first sentence of joinstep's: joinstep gives Flink's own error, and may add a hint of its own.
 */
export function sameRejection(joinstepMessage: string, flinkMessage: string, flinkRootCause?: string): boolean {
  return squash(`${flinkMessage} ${flinkRootCause ?? ''}`).includes(firstSentence(joinstepMessage));
}
