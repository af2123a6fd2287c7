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
import { versionDiff, type VersionDiff } from '../teach/version-diff.js';
import { sessionInfo } from './session.js';
import type { UiState } from './state.js';

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
  const order = compareOrder(scenario.flinkVersion);
  const index = s.session.follow ?? 0;
  // A release that rejects the query has no run to compare: V passes over it and says so.
  const skipped: string[] = [];
  let at = s.compare === undefined ? -1 : order.indexOf(s.compare.version);
  let version: FlinkVersion | undefined;
  let loaded: ReturnType<typeof loadScenarioText> | undefined;
  for (at++; at < order.length; at++) {
    const attempt = loadScenarioText(s.session.info.file, text, { flinkVersion: order[at]! });
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
  const rules = diff.rules.map((r) => r.id).join(', ');
  return { ...s, compare: { version, diff, base: s.session.timeline }, message: `Flink ${scenario.flinkVersion} ↔ ${version}: ${diff.differing} step${diff.differing === 1 ? ' differs' : 's differ'}${rules === '' ? '' : ` (${rules})`}${note}` };
}
