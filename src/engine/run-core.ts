/**
 * A whole run without a timeline: what `joinstep run` and `joinstep test` print (spec §5).
 * The operator factory is a parameter so that the engine can be tested with a small fake.
 *
 * `RunFeed` takes the events one at a time, as a streaming load reads them (`run` from a big
 * file keeps no list of events), and `runScenarioWith` feeds it a loaded scenario's list: both
 * go through the same code, so their output cannot differ.
 */
import type { Scenario, ScenarioEvent } from '../scenario/types.js';
import { formatRow } from '../values/format.js';
import { clEachRow, clHasRetraction, clToArray } from './changelog.js';
import { newEdit, useEdit } from './collections/edit.js';
import type { Edit } from './collections/edit.js';
import { createRunContext, type OperatorFactory, type RunContext } from './context.js';
import { emittedJson } from './describe.js';
import { foldResult } from './result.js';
import { tagRuntimeError } from './errors.js';
import { initialSnapshot, type EngineSnapshot } from './snapshot.js';
import { applyEvent } from './step.js';
import type { Emitted } from './types.js';
import { Work } from './work.js';

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
  const feed = new RunFeed(scenario, queryIndex, factory);
  const total = scenario.events.length;
  const events = scenario.events;
  for (let i = 0; i < total; i++) {
    feed.push(events[i]!);
    onStep?.(i + 1, total);
  }
  return feed.finish();
}

/**
 * One query's run, fed an event at a time. The context is made at the first event (or at
 * `finish` when there is none), because the run's start time depends on the first event's `at`
 * (startTimeOf); the rest of `scenario.events` is never read. One Work goes from event to event
 * in one transient edit (only the newest state is ever kept), as the timeline's bulk run does
 * between checkpoints; the changelog stays in the state, and its printed forms are made when
 * first asked for.
 */
export class RunFeed {
  private ctx: RunContext | undefined;
  private work: Work | undefined;
  private readonly edit: Edit = newEdit();
  private count = 0;

  constructor(
    private readonly scenario: Scenario,
    private readonly queryIndex: number,
    private readonly factory: OperatorFactory,
  ) {}

  /** Events applied so far. */
  get applied(): number {
    return this.count;
  }

  /** Applies one event; a runtime error (SqlRuntimeError, EngineRuntimeError) names its index. */
  push(ev: ScenarioEvent): void {
    const outer = useEdit(this.edit);
    try {
      let w = this.work;
      if (w === undefined) w = this.work = this.start(ev);
      else w.continue();
      applyEvent(w, ev);
      this.count++;
    } catch (error) {
      throw tagRuntimeError(error, this.count);
    } finally {
      useEdit(outer);
    }
  }

  private start(first: ScenarioEvent | undefined): Work {
    const scenario = first === undefined ? { ...this.scenario, events: [] } : { ...this.scenario, events: [first] };
    const ctx = (this.ctx = createRunContext(scenario, this.queryIndex, this.factory, false));
    return new Work(ctx, initialSnapshot(ctx));
  }

  /** The run's output; push nothing after this. */
  finish(): RunOutput {
    let snap: EngineSnapshot;
    const outer = useEdit(this.edit);
    try {
      if (this.work === undefined) this.work = this.start(undefined);
      snap = this.count === 0 ? initialSnapshot(this.ctx!) : this.work.snapshot();
    } finally {
      useEdit(outer);
    }
    return outputOf(this.ctx!, snap);
  }
}

function outputOf(ctx: RunContext, snap: EngineSnapshot): RunOutput {
  // Each form is made when first read: `run --result` on a million rows needs none of the
  // others, and folds the changelog row by row.
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
      return (result ??= foldResult(ctx.sink, emitted ?? ((f) => clEachRow(changelog, f, true)), clHasRetraction(changelog)));
    },
    get json() {
      return (json ??= this.emitted.map((e) => emittedJson(ctx, e)));
    },
    final: snap,
  };
}
