/**
 * `joinstep run FILE`: the emitted changelog in the print connector's format (spec §5), or the
 * final materialized result with --result, or one JSON object per line with --format json.
 */
import { runScenario } from '../engine/run.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { Command } from './args.js';
import { reportDiagnostics, writeErr, writeOut } from './output.js';
import { selectQuery } from './select-query.js';
import { runtimeFailure } from './runtime-error.js';

export async function runCommand(cmd: Extract<Command, { name: 'run' }>): Promise<number> {
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
  let output: ReturnType<typeof runScenario>;
  try {
    output = runScenario(loaded.scenario, selected.index);
  } catch (error) {
    const diagnostic = runtimeFailure(loaded.scenario, error);
    if (diagnostic === undefined) throw error;
    reportDiagnostics([diagnostic]);
    return 2;
  }
  const lines = cmd.result ? output.result : cmd.format === 'json' ? output.json.map((o) => JSON.stringify(o)) : output.lines;
  if (lines.length > 0) writeOut(lines.join('\n') + '\n');
  return 0;
}
