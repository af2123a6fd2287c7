/**
 * The app's version compare (`V`): the scenario's file text loaded again under another
 * flink-version, run, and diffed step by step against the shown run (src/teach/version-diff.ts).
 * Each `V` moves to the next version (newer ones first: the upgrade question comes first), and
 * after the last one turns the compare off.
 */
import { createTimeline } from '../engine/timeline.js';
import type { Timeline } from '../engine/types.js';
import type { FlinkVersion } from '../planner/plan.js';
import { loadScenarioText } from '../scenario/load.js';
import { FLINK_VERSIONS } from '../cli/teach-args.js';
import { startVersionDiff, versionDiff, type VersionDiff, type VersionDiffBuild } from '../teach/version-diff.js';
import { cutEventsBlock } from '../scenario/fast-events.js';
import type { Scenario } from '../scenario/types.js';
import { sessionInfo, sessionViews } from './session.js';
import { startSession, type BuildProgress } from './session-load.js';
import type { UiState } from './state.js';

/** Runs up to this many steps are compared at once; longer ones in pieces, between keys. */
export const SYNC_COMPARE_STEPS = 20_000;

/**
 * `V` on a long run: the run under the other version is computed in pieces, then diffed in
 * pieces, by the app's driver (compute-in-pieces.ts), while keys go on working. `ready` of
 * `total` counts both halves (each run step computed, then each step compared).
 */
export interface ComparePending {
  readonly version: FlinkVersion;
  readonly job: CompareJob;
  readonly note: string;
  readonly ready: number;
  readonly total: number;
}

export interface CompareJob {
  advance(budgetMs: number): BuildProgress;
  progress(): BuildProgress;
  /** The diff, once `advance` said done. */
  diff(): VersionDiff;
}

export interface CompareState {
  readonly version: FlinkVersion;
  readonly diff: VersionDiff;
  /** The run it was compared with: after an edit, a reload or `v` the compare is stale. */
  readonly base: Timeline;
}

/** The versions to compare a `own` scenario with, in the order `V` visits them. */
export function compareOrder(own: FlinkVersion): FlinkVersion[] {
  const newer = FLINK_VERSIONS.filter((v) => v > own);
  const older = FLINK_VERSIONS.filter((v) => v < own).reverse();
  return [...newer, ...older];
}

export function toggleCompare(s: UiState): UiState {
  const scenario = s.session.scenario;
  const text = s.session.text;
  if (scenario === undefined || text === undefined) return { ...s, message: 'no file text to run under another version' };
  if (s.manual > 0) return { ...s, message: 'manual steps (w i t) are not in the file: reload (r) before comparing versions' };
  if (s.comparing !== undefined) return { ...s, message: `still computing the run under flink-version ${s.comparing.version}: V goes on once it is shown` };
  const order = compareOrder(scenario.flinkVersion);
  const index = s.session.follow ?? 0;
  // A release that rejects the query has no run to compare: V passes over it and says so.
  const skipped: string[] = [];
  let at = s.compare === undefined ? -1 : order.indexOf(s.compare.version);
  let version: FlinkVersion | undefined;
  let loaded: ReturnType<typeof loadScenarioText> | undefined;
  for (at++; at < order.length; at++) {
    const attempt = loadUnder(s, text, order[at]!);
    if (attempt.ok) {
      version = order[at]!;
      loaded = attempt;
      break;
    }
    skipped.push(`${order[at]} rejects it (${attempt.diagnostics[0]?.message ?? 'the scenario does not load'})`);
  }
  const note = skipped.length === 0 ? '' : `; skipped: ${skipped.join('; ')}`;
  if (version === undefined || loaded === undefined || !loaded.ok) return { ...s, compare: undefined, message: `version compare off${note}` };
  const query = loaded.scenario.queries[index];
  const own = scenario.queries[index];
  if (query === undefined || own === undefined) return { ...s, message: 'the query is not there under the other version' };
  if (s.session.timeline.length > SYNC_COMPARE_STEPS) {
    const job = compareJob(s, loaded.scenario, index);
    if (typeof job === 'string') return { ...s, message: `under flink-version ${version}: ${job}` };
    const p = job.progress();
    return { ...s, comparing: { version, job, note, ready: p.ready, total: p.total }, message: `computing the run under flink-version ${version} (keys work meanwhile)` };
  }
  let diff: VersionDiff;
  try {
    const other = createTimeline(loaded.scenario, index);
    diff = versionDiff(
      { version: scenario.flinkVersion, plan: own.plan, timeline: s.session.timeline, outputTypes: s.session.info.outputTypes },
      { version, plan: query.plan, timeline: other, outputTypes: sessionInfo(loaded.scenario, index).outputTypes },
    );
  } catch (error) {
    return { ...s, message: `under flink-version ${version}: ${error instanceof Error ? error.message : String(error)}` };
  }
  return compared(s, version, diff, note);
}

function compared(s: UiState, version: FlinkVersion, diff: VersionDiff, note: string): UiState {
  const own = s.session.scenario?.flinkVersion ?? '';
  const rules = diff.rules.map((r) => r.id).join(', ');
  return { ...s, compare: { version, diff, base: s.session.timeline }, comparing: undefined, message: `Flink ${own} ↔ ${version}: ${diff.differing} step${diff.differing === 1 ? ' differs' : 's differ'}${rules === '' ? '' : ` (${rules})`}${note}` };
}

/** The pending compare got further: done, it becomes the compare; failed, it says why. */
export function compareProgress(s: UiState, p: BuildProgress): UiState {
  const c = s.comparing;
  if (c === undefined) return s;
  if (p.error !== undefined) return { ...s, comparing: undefined, message: `under flink-version ${c.version}: ${p.error.split('\n')[0] ?? ''}` };
  if (!p.done) return { ...s, comparing: { ...c, ready: p.ready, total: p.total } };
  return compared(s, c.version, c.job.diff(), c.note);
}

/** The run under the other version in pieces, then the diff in pieces. */
function compareJob(s: UiState, other: Scenario, index: number): CompareJob | string {
  const started = startSession(other);
  if (!started.ok) return started.errors[0]?.split('\n')[0] ?? 'the run failed';
  const run = started.build;
  const timeline = sessionViews(run.session)[index]?.timeline;
  const scenario = s.session.scenario;
  const own = scenario?.queries[index];
  const query = other.queries[index];
  if (timeline === undefined || scenario === undefined || own === undefined || query === undefined) return 'the query is not there under the other version';
  const base = s.session.timeline;
  const n = base.length;
  let diff: VersionDiffBuild | undefined;
  let failed: string | undefined;
  const progress = (): BuildProgress => {
    const r = run.progress();
    const ready = Math.min(r.ready, n) + (diff?.done ?? 0);
    return { ready, total: 2 * n, done: diff !== undefined && diff.done >= diff.total, ...(failed !== undefined ? { error: failed } : r.error !== undefined ? { error: r.error } : {}) };
  };
  return {
    progress,
    advance(budgetMs: number): BuildProgress {
      const start = performance.now();
      if (diff === undefined) {
        const r = run.advance(budgetMs);
        if (r.error !== undefined || !r.done) return progress();
        diff = startVersionDiff(
          { version: scenario.flinkVersion, plan: own.plan, timeline: base, outputTypes: s.session.info.outputTypes },
          { version: other.flinkVersion, plan: query.plan, timeline, outputTypes: sessionInfo(other, index).outputTypes },
        );
      }
      try {
        while (!diff.advance(256) && performance.now() - start < budgetMs);
      } catch (error) {
        failed = error instanceof Error ? error.message : String(error);
      }
      return progress();
    },
    diff: () => diff!.result(),
  };
}

/**
 * The scenario under another version for a long run: the SQL and settings are planned again
 * from the file's text without its events block, and the events already loaded are reused
 * (they are read against the tables, which the version does not change); reading a million
 * events again would hold up the app for seconds. A file whose events take the general path
 * is loaded whole.
 */
function loadUnder(s: UiState, text: string, flinkVersion: FlinkVersion): ReturnType<typeof loadScenarioText> {
  const own = s.session.scenario;
  const block = s.session.timeline.length > SYNC_COMPARE_STEPS ? cutEventsBlock(text) : undefined;
  if (block === undefined || own === undefined) return loadScenarioText(s.session.info.file, text, { flinkVersion });
  const head = loadScenarioText(s.session.info.file, block.reduced, { flinkVersion });
  return head.ok ? { ok: true, scenario: { ...head.scenario, events: own.events } } : head;
}
