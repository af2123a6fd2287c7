/**
 * `joinstep diff FILE --flink-version A B`: the scenario planned and run under two releases, the
 * outputs aligned by step, with the version rules that differ named (src/teach/version-diff.ts).
 * One version compares the file's own `flink-version` with it.
 */
import { createTimeline } from '../engine/timeline.js';
import type { FlinkVersion } from '../planner/plan.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { Scenario } from '../scenario/types.js';
import { formatVersionDiff } from '../teach/diff-text.js';
import { versionDiff, type DiffInput } from '../teach/version-diff.js';
import { sessionInfo } from '../ui/session.js';
import { eventText } from '../ui/text.js';
import { reportDiagnostics, writeErr, writeOut } from './output.js';
import { runtimeFailure } from './runtime-error.js';
import { selectQuery } from './select-query.js';
import type { TeachCommand } from './teach-args.js';

export async function diffCommand(cmd: Extract<TeachCommand, { name: 'diff' }>): Promise<number> {
  const first = await loadScenarioFile(cmd.file);
  if (!first.ok) {
    reportDiagnostics(first.diagnostics);
    return 2;
  }
  const [va, vb] = cmd.versions.length === 1 ? [first.scenario.flinkVersion, cmd.versions[0]!] : [cmd.versions[0]!, cmd.versions[1]!];
  const inputs: DiffInput[] = [];
  let name = first.scenario.name;
  let label: (ev: Scenario['events'][number]) => string = () => '';
  for (const version of [va, vb] as FlinkVersion[]) {
    const loaded = await loadScenarioFile(cmd.file, { flinkVersion: version });
    if (!loaded.ok) {
      writeErr(`joinstep: under flink-version ${version}:\n`);
      reportDiagnostics(loaded.diagnostics);
      return 2;
    }
    const scenario = loaded.scenario;
    const chosen = selectQuery(scenario, cmd.query);
    if (!chosen.ok) {
      writeErr(`joinstep: ${chosen.message}\nhint: ${chosen.hint}\n`);
      return 2;
    }
    try {
      const info = sessionInfo(scenario, chosen.index);
      inputs.push({ version, plan: chosen.query.plan, timeline: createTimeline(scenario, chosen.index), outputTypes: info.outputTypes });
      name = scenario.namedQueries === true ? `${scenario.name} -- ${chosen.query.name}` : scenario.name;
      label = (ev) => eventText(ev, info);
    } catch (error) {
      const d = runtimeFailure(scenario, error);
      if (d === undefined) throw error;
      reportDiagnostics([d]);
      return 2;
    }
  }
  const diff = versionDiff(inputs[0]!, inputs[1]!);
  writeOut(formatVersionDiff(diff, name, label));
  return 0;
}
