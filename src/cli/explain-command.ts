/** `joinstep explain FILE`: the plan Flink's planner would choose, for a person to read (spec §7). */
import { formatExplain } from '../planner/explain.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { Command } from './args.js';
import { reportDiagnostics, writeErr, writeOut } from './output.js';
import { selectQuery } from './select-query.js';

export async function explainCommand(cmd: Extract<Command, { name: 'explain' }>): Promise<number> {
  const loaded = await loadScenarioFile(cmd.file);
  if (!loaded.ok) {
    reportDiagnostics(loaded.diagnostics);
    return 2;
  }
  const selected = selectQuery(loaded.scenario, cmd.query);
  if (!selected.ok) {
    writeErr(`joinstep: ${selected.message}\nhint: ${selected.hint}\n`);
    return 2;
  }
  writeOut(formatExplain(selected.query.plan, loaded.scenario.name));
  return 0;
}
