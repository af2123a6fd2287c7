/**
 * `joinstep explain FILE`: the plan Flink's planner would choose, for a person to read (spec §7).
 * With --flink, real Flink's own plan follows (its explainSql text with changelog modes), or
 * Flink's rejection, so the two can be read side by side (docs/flink-harness.md).
 */
import { loadScenarioFile } from '../scenario/load.js';
import type { LoadResult } from '../scenario/types.js';
import { flinkAvailable } from '../flink/harness-client.js';
import { printable } from '../values/printable.js';
import type { Command } from './args.js';
import { flinkError, withFlinkHarness } from './flink-compare.js';
import { reportDiagnostics, writeErr, writeOut } from './output.js';
import { explainText, selectQueries } from './select-query.js';

type ExplainCmd = Extract<Command, { name: 'explain' }>;

export async function explainCommand(cmd: ExplainCmd): Promise<number> {
  const version = cmd.flink?.flinkVersion;
  const loaded = await loadScenarioFile(cmd.file, version !== undefined ? { flinkVersion: version } : {});
  if (!loaded.ok) {
    reportDiagnostics(loaded.diagnostics);
    // joinstep rejects the SQL: with --flink, still show what Flink says about it.
    if (cmd.flink !== undefined && loaded.rejectedSql !== undefined) await explainOnFlink(cmd, loaded);
    return 2;
  }
  // Every query of a multi-query file, each under `-- NAME`, unless --query picks one.
  const explained = explainText(loaded.scenario, cmd.query);
  if (!explained.ok) {
    writeErr(`joinstep: ${explained.message}\nhint: ${explained.hint}\n`);
    return 2;
  }
  if (cmd.flink === undefined) {
    writeOut(explained.text);
    return 0;
  }
  writeOut(`== joinstep's plan\n${explained.text}\n`);
  return explainOnFlink(cmd, loaded);
}

/** Real Flink's plan of each selected query, under `== Flink X's plan`. */
async function explainOnFlink(cmd: ExplainCmd, loaded: LoadResult): Promise<number> {
  const available = flinkAvailable();
  if (!available.ok) {
    writeErr(`joinstep: ${available.message}\nhint: ${available.hint}\n`);
    return 2;
  }
  const source = loaded.ok ? loaded.scenario : loaded.rejectedSql!;
  const queryNames = loaded.ok ? loaded.scenario.queries.map((q) => q.name) : (loaded.rejectedSql!.queries ?? [{ name: 'main' }]).map((q) => q.name);
  let indexes = queryNames.map((_, i) => i);
  if (cmd.query !== undefined) indexes = indexes.filter((i) => queryNames[i] === cmd.query);
  else if (loaded.ok) indexes = (selectQueries(loaded.scenario, undefined) as { ok: true; selected: { index: number }[] }).selected.map((s) => s.index);
  return withFlinkHarness(source.flinkVersion, async (harness) => {
    for (const index of indexes) {
      const r = await harness.run(source, 'plan', index);
      const named = queryNames.length > 1 ? ` (query ${queryNames[index]})` : '';
      if (r.ok) writeOut(`== Flink ${r.flinkVersion}'s plan${named}, from its own planner (explainSql with CHANGELOG_MODE)\n${r.plan.split('\n').map(printable).join('\n').replace(/\n*$/, '\n')}`);
      else writeOut(`== Flink ${harness.build.mavenVersion}${named} rejects the query\n${flinkError('Flink', r).join('\n')}\n`);
    }
    return 0;
  });
}
