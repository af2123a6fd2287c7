/**
 * The same events under two flink-versions, aligned by step: which steps emit different rows (or
 * drop different rows as late), and the version rules that differ between the two releases for
 * this plan (src/planner/version-rules.ts), which are what can make them differ.
 */
import { diffLines } from '../cli/diff.js';
import { STEP_LATE_DROP, type Timeline } from '../engine/types.js';
import type { FlinkVersion, Plan } from '../planner/plan.js';
import { changedRules, type VersionRule } from '../planner/version-rules.js';
import type { ScenarioEvent } from '../scenario/types.js';
import { formatRow } from '../values/format.js';
import type { SqlType } from '../values/types.js';

/** One display line of a step: a row in both runs, only in A (`<`), or only in B (`>`). */
export interface AlignedRow {
  readonly mark: ' ' | '<' | '>';
  readonly a?: string;
  readonly b?: string;
}

export interface DiffStep {
  readonly step: number;
  readonly event: ScenarioEvent;
  /** The rows the step emitted under A and under B, in emission order (Flink's print form). */
  readonly a: readonly string[];
  readonly b: readonly string[];
  /** Rows the step dropped as late under A and under B (from the trace). */
  readonly lateA: readonly string[];
  readonly lateB: readonly string[];
  readonly rows: readonly AlignedRow[];
  readonly same: boolean;
}

export interface VersionDiff {
  readonly versions: readonly [FlinkVersion, FlinkVersion];
  /** Every step 1..n, in order. */
  readonly steps: readonly DiffStep[];
  /** The version rules that differ between A and B for this plan. */
  readonly rules: readonly VersionRule[];
  readonly differing: number;
}

export interface DiffInput {
  readonly version: FlinkVersion;
  readonly plan: Plan;
  readonly timeline: Timeline;
  readonly outputTypes: readonly SqlType[];
}

/** The rows step `i` emitted (the changelog is in step order: its rows are one range). */
function rowsOfStep(input: DiffInput, i: number): string[] {
  const tl = input.timeline;
  return tl.changelogRange(i, tl.changelogSize(i - 1), tl.changelogSize(i)).map((e) => formatRow(e.kind, e.row, input.outputTypes));
}

function lateRows(tl: Timeline, step: number): string[] {
  // The flags come from the bulk run; only a step that dropped a row is replayed for its trace.
  if ((tl.flagsAt(step) & STEP_LATE_DROP) === 0) return [];
  return tl.at(step).trace.flatMap((t) => (t.t === 'drop.late' ? [t.row] : []));
}

/** Aligns two row lists by their longest common subsequence, so a moved row shows as moved. */
export function alignRows(a: readonly string[], b: readonly string[]): AlignedRow[] {
  return diffLines(a, b).map((line) => {
    const text = line.slice(2);
    if (line.startsWith('- ')) return { mark: '<', a: text };
    if (line.startsWith('+ ')) return { mark: '>', b: text };
    return { mark: ' ', a: text, b: text };
  });
}

export function versionDiff(a: DiffInput, b: DiffInput): VersionDiff {
  const d = startVersionDiff(a, b);
  d.advance(Infinity);
  return d.result();
}

/** A version diff made step by step (the app makes a long one in pieces between keys). */
export interface VersionDiffBuild {
  /** Steps compared so far, of `total`. */
  readonly done: number;
  readonly total: number;
  /** Compares up to `count` more steps; true once every step is. */
  advance(count: number): boolean;
  /** The diff of the steps compared so far (all of them once `advance` said true). */
  result(): VersionDiff;
}

export function startVersionDiff(a: DiffInput, b: DiffInput): VersionDiffBuild {
  const steps: DiffStep[] = [];
  const n = Math.min(a.timeline.length, b.timeline.length);
  let differing = 0;
  return {
    get done() {
      return steps.length;
    },
    total: n,
    advance(count: number): boolean {
      const to = Math.min(n, steps.length + count);
      for (let i = steps.length + 1; i <= to; i++) {
        const ra = rowsOfStep(a, i);
        const rb = rowsOfStep(b, i);
        const lateA = lateRows(a.timeline, i);
        const lateB = lateRows(b.timeline, i);
        const sameRows = ra.length === rb.length && ra.every((r, k) => r === rb[k]);
        const same = sameRows && lateA.join('\n') === lateB.join('\n');
        // Most steps of a long run are equal: only a differing step pays for the alignment.
        const rows = sameRows ? ra.map((text): AlignedRow => ({ mark: ' ', a: text, b: text })) : alignRows(ra, rb);
        steps.push({ step: i, event: a.timeline.events[i - 1]!, a: ra, b: rb, lateA, lateB, rows, same });
        if (!same) differing++;
      }
      return steps.length >= n;
    },
    result: () => ({ versions: [a.version, b.version], steps, rules: changedRules(a.plan, a.version, b.version), differing }),
  };
}
