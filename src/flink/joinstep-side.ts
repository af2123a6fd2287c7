/**
 * joinstep's own run of a scenario in the shape the Flink harness answers in: every changelog
 * row with the step that caused it, the final result, and every advance of the join's output
 * watermark with its step. The comparison (step-diff.ts) lines the two up.
 */
import { clToArray } from '../engine/changelog.js';
import { createRunContext } from '../engine/context.js';
import { tagRuntimeError } from '../engine/errors.js';
import { createOperator } from '../engine/operators/index.js';
import { foldResult } from '../engine/result.js';
import { initialSnapshot } from '../engine/snapshot.js';
import { step } from '../engine/step.js';
import type { Scenario } from '../scenario/types.js';
import { formatRow } from '../values/format.js';

export interface SideRow {
  readonly step: number;
  readonly text: string;
}

export interface SideWatermark {
  readonly step: number;
  readonly value: number;
}

/** One side's run, joinstep's or Flink's, as the comparison reads it. */
export interface SideRun {
  readonly changelog: readonly SideRow[];
  readonly result: readonly string[];
  /** Absent when this side does not report watermarks. */
  readonly watermarks?: readonly SideWatermark[];
}

/** Runs query `queryIndex` of the scenario through joinstep's engine. Runtime errors throw as `runScenario`'s do. */
export function joinstepRun(scenario: Scenario, queryIndex = 0): SideRun {
  const ctx = createRunContext(scenario, queryIndex, createOperator, true);
  let snap = initialSnapshot(ctx);
  const watermarks: SideWatermark[] = [];
  scenario.events.forEach((event, i) => {
    let record: ReturnType<typeof step>;
    try {
      record = step(ctx, snap, event);
    } catch (error) {
      throw tagRuntimeError(error, i);
    }
    snap = record.snapshot;
    for (const t of record.trace) {
      if (t.t === 'watermark.advance' && t.scope === 'output') watermarks.push({ step: i + 1, value: t.to });
    }
  });
  const emitted = clToArray(snap.changelog);
  return {
    changelog: emitted.map((e) => ({ step: e.step, text: formatRow(e.kind, e.row, ctx.sink.types) })),
    result: foldResult(ctx.sink, emitted),
    watermarks,
  };
}
