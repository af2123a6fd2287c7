/** `joinstep explain FILE`: the plan Flink's planner would choose, for a person to read (spec §7). */
import { loadScenarioFile } from '../scenario/load.js';
import type { Command } from './args.js';
import { reportDiagnostics, writeErr, writeOut } from './output.js';
import { explainText } from './select-query.js';

export async function explainCommand(cmd: Extract<Command, { name: 'explain' }>): Promise<number> {
  const loaded = await loadScenarioFile(cmd.file);
  if (!loaded.ok) {
    reportDiagnostics(loaded.diagnostics);
    return 2;
  }
  // Every query of a multi-query file, each under `-- NAME`, unless --query picks one.
  const explained = explainText(loaded.scenario, cmd.query);
  if (!explained.ok) {
    writeErr(`joinstep: ${explained.message}\nhint: ${explained.hint}\n`);
    return 2;
  }
  writeOut(explained.text);
  return 0;
}
