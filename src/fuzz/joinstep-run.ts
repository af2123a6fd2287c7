/**
 * Runs one generated scenario through joinstep as the CLI would (load, plan, explain, a bulk run and
 * a traced run) and sorts the outcome: it ran, the planner rejected it with a diagnostic, it failed
 * at run time with a clean error, the file itself was invalid (a generator bug), or joinstep crashed.
 */
import { createOperator } from '../engine/joins/registry.js';
import { createRunContext } from '../engine/context.js';
import { initialSnapshot } from '../engine/snapshot.js';
import { step } from '../engine/step.js';
import { foldResult } from '../engine/result.js';
import { clToArray } from '../engine/changelog.js';
import { formatExplain } from '../planner/explain.js';
import { loadScenarioText } from '../scenario/load.js';
import type { RejectedSql, Scenario } from '../scenario/types.js';
import { formatRow } from '../values/format.js';

export interface StepRow {
  readonly step: number;
  readonly op: string;
  readonly text: string;
}

export type JoinstepOutcome =
  | {
      readonly kind: 'ran';
      readonly scenario: Scenario;
      readonly changelog: readonly StepRow[];
      readonly result: readonly string[];
      /** Each step at which the join's output watermark advanced, with its new value. */
      readonly watermarks: readonly { readonly step: number; readonly value: number }[];
    }
  /** `rejected` is what the loader kept of the file (SQL, and events when the DDL planned), to send to Flink all the same. */
  | { readonly kind: 'rejected'; readonly message: string; readonly rejected?: RejectedSql }
  | { readonly kind: 'runtime-error'; readonly scenario: Scenario; readonly message: string }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'crash'; readonly message: string };

/** The 1-based line range of the `sql: |` block in a rendered scenario (render.ts writes it as one block). */
function sqlLines(text: string): [number, number] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('sql:')) + 1;
  const end = lines.findIndex((l, i) => i >= start && /^\S/.test(l));
  return [start + 1, end < 0 ? lines.length : end];
}

export function runJoinstep(file: string, text: string): JoinstepOutcome {
  let loaded;
  try {
    loaded = loadScenarioText(file, text);
  } catch (error) {
    return crash('load', error);
  }
  if (!loaded.ok) {
    const d = loaded.diagnostics[0];
    const message = d === undefined ? 'no diagnostic' : `${d.line}:${d.col}: ${d.message}`;
    if (d !== undefined && /internal error/i.test(d.message)) return { kind: 'crash', message };
    const [from, to] = sqlLines(text);
    if (d === undefined || d.line < from || d.line > to) return { kind: 'invalid', message };
    return loaded.rejectedSql !== undefined ? { kind: 'rejected', message, rejected: loaded.rejectedSql } : { kind: 'rejected', message };
  }
  const scenario = loaded.scenario;
  try {
    formatExplain(scenario.queries[0]!.plan, scenario.name);
  } catch (error) {
    return crash('explain', error);
  }
  let out: JoinstepOutcome;
  try {
    out = bulkRun(scenario);
  } catch (error) {
    return runtime(scenario, error) ?? crash('run', error);
  }
  try {
    tracedRun(scenario);
  } catch (error) {
    return runtime(scenario, error) ?? crash('traced run', error);
  }
  return out;
}

function bulkRun(scenario: Scenario): JoinstepOutcome {
  const ctx = createRunContext(scenario, 0, createOperator, false);
  let snap = initialSnapshot(ctx);
  const watermarks: { step: number; value: number }[] = [];
  scenario.events.forEach((ev, i) => {
    const before = snap.outputWm;
    snap = step(ctx, snap, ev).snapshot;
    if (snap.outputWm > before) watermarks.push({ step: i + 1, value: snap.outputWm });
  });
  const emitted = clToArray(snap.changelog);
  return {
    kind: 'ran',
    scenario,
    changelog: emitted.map((e) => ({ step: e.step, op: e.kind, text: formatRow(e.kind, e.row, ctx.sink.types) })),
    result: foldResult(ctx.sink, emitted),
    watermarks,
  };
}

/** The app steps with traces on: the trace text is built from the same state, so it can fail on its own. */
function tracedRun(scenario: Scenario): void {
  const ctx = createRunContext(scenario, 0, createOperator, true);
  let snap = initialSnapshot(ctx);
  for (const ev of scenario.events) snap = step(ctx, snap, ev).snapshot;
}

function runtime(scenario: Scenario, error: unknown): JoinstepOutcome | undefined {
  if (error instanceof Error && (error.name === 'SqlRuntimeError' || error.name === 'EngineRuntimeError')) {
    return { kind: 'runtime-error', scenario, message: error.message };
  }
  return undefined;
}

function crash(stage: string, error: unknown): JoinstepOutcome {
  const e = error instanceof Error ? error : new Error(String(error));
  const where = (e.stack ?? '').split('\n').slice(1, 4).map((l) => l.trim()).join(' | ');
  return { kind: 'crash', message: `${stage}: ${e.name}: ${e.message} (${where})` };
}
