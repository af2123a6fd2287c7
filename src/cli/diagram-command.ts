/**
 * `joinstep diagram FILE --svg OUT [--step N]`: the run as a time diagram (src/teach/diagram-svg.ts),
 * drawn at step N (default: the last step).
 */
import { createTimeline } from '../engine/timeline.js';
import { loadScenarioFile } from '../scenario/load.js';
import { diagramData } from '../teach/diagram-data.js';
import { diagramSvg } from '../teach/diagram-svg.js';
import { writeSvgFile } from '../teach/write-svg.js';
import { sessionInfo } from '../ui/session.js';
import { reportDiagnostics, writeErr, writeOut } from './output.js';
import { runtimeFailure } from './runtime-error.js';
import { selectQuery } from './select-query.js';
import type { TeachCommand } from './teach-args.js';

export async function diagramCommand(cmd: Extract<TeachCommand, { name: 'diagram' }>): Promise<number> {
  const loaded = await loadScenarioFile(cmd.file);
  if (!loaded.ok) {
    reportDiagnostics(loaded.diagnostics);
    return 2;
  }
  const scenario = loaded.scenario;
  const chosen = selectQuery(scenario, cmd.query);
  if (!chosen.ok) {
    writeErr(`joinstep: ${chosen.message}\nhint: ${chosen.hint}\n`);
    return 2;
  }
  let svg: string;
  try {
    const timeline = createTimeline(scenario, chosen.index);
    if (cmd.step !== undefined && cmd.step > timeline.length) {
      writeErr(`joinstep: --step ${cmd.step} is past the last step (${timeline.length})\nhint: steps run from 0 (before the first event) to ${timeline.length}\n`);
      return 2;
    }
    const info = sessionInfo(scenario, chosen.index);
    svg = diagramSvg(diagramData(timeline, info, chosen.query.plan.tables, cmd.step ?? timeline.length), { mono: cmd.mono });
  } catch (error) {
    const d = runtimeFailure(scenario, error);
    if (d === undefined) throw error;
    reportDiagnostics([d]);
    return 2;
  }
  const written = await writeSvgFile(cmd.svg, svg);
  if (!written.ok) {
    writeErr(`joinstep: ${written.message}\n${written.hint !== undefined ? `hint: ${written.hint}\n` : ''}`);
    return 2;
  }
  writeOut(`wrote ${cmd.svg}\n`);
  return 0;
}
