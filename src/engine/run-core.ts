/**
 * A whole run without a timeline: what `joinstep run` and `joinstep test` print (spec §5).
 * The operator factory is a parameter so that the engine can be tested with a small fake.
 */
import type { Scenario } from '../scenario/types.js';
import { formatRow } from '../values/format.js';
import { clSlice, clToArray } from './changelog.js';
import type { Changelog } from './changelog.js';
import { newEdit } from './collections/edit.js';
import { createRunContext, type OperatorFactory } from './context.js';
import { emittedJson } from './describe.js';
import { foldResult } from './result.js';
import { tagRuntimeError } from './errors.js';
import { initialSnapshot, type EngineSnapshot } from './snapshot.js';
import { step } from './step.js';
import type { Emitted } from './types.js';

export interface RunOutput {
  readonly emitted: readonly Emitted[];
  /** The changelog in the print connector's format, in emission order. */
  readonly lines: readonly string[];
  /** The final materialized result, sorted by text (`--result`). */
  readonly result: readonly string[];
  /** One object per emitted row (`--format json`). */
  readonly json: readonly { op: string; row: Record<string, string | null>; step: number }[];
  readonly final: EngineSnapshot;
}

/** `onStep`: told the number of events applied so far, of how many (for progress on a long run). */
export function runScenarioWith(scenario: Scenario, queryIndex: number, factory: OperatorFactory, onStep?: (done: number, total: number) => void): RunOutput {
  const ctx = createRunContext(scenario, queryIndex, factory, false);
  let snap = initialSnapshot(ctx);
  // Only the newest snapshot is kept: one transient edit for the whole run.
  const edit = newEdit();
  const total = scenario.events.length;
  scenario.events.forEach((ev, i) => {
    try {
      snap = step(ctx, snap, ev, edit).snapshot;
    } catch (error) {
      throw tagRuntimeError(error, i);
    }
    onStep?.(i + 1, total);
  });
  // Each form is made when first read: `run --result` on a million rows needs none of the
  // others, and folds the changelog a chunk of rows at a time.
  let emitted: readonly Emitted[] | undefined;
  let lines: readonly string[] | undefined;
  let result: readonly string[] | undefined;
  let json: RunOutput['json'] | undefined;
  const changelog = snap.changelog;
  return {
    get emitted() {
      return (emitted ??= clToArray(changelog));
    },
    get lines() {
      return (lines ??= this.emitted.map((e) => formatRow(e.kind, e.row, ctx.sink.types)));
    },
    get result() {
      return (result ??= foldResult(ctx.sink, emitted ?? ((f) => eachRow(changelog, f))));
    },
    get json() {
      return (json ??= this.emitted.map((e) => emittedJson(ctx, e)));
    },
    final: snap,
  };
}

const CHUNK = 4096;

function eachRow(c: Changelog, f: (e: Emitted) => void): void {
  for (let from = 0; from < c.n; from += CHUNK) clSlice(c, from, from + CHUNK).forEach(f);
}
