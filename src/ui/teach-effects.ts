/**
 * The file writes of the teaching keys, run by App (the reducer only asks for them): the time
 * diagram of the run up to the cursor (`d`), and the practice score as JSON (`--score-out`),
 * written when the score is shown and again on quit.
 */
import { readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { sameFile, writeOutputFile } from '../cli/output-file.js';
import { diagramData } from '../teach/diagram-data.js';
import { diagramSvg } from '../teach/diagram-svg.js';
import { writeSvgFile } from '../teach/write-svg.js';
import { practiceScore } from './practice.js';
import type { UiState } from './state.js';

/** `NAME-stepN.svg` in `dir` (the current directory), from the scenario file's name. */
export function diagramPath(s: UiState, dir = '.'): string {
  const file = s.session.info.file;
  const name = `${basename(file, extname(file))}-step${s.step}.svg`;
  return dir === '.' ? name : join(dir, name);
}

export async function writeDiagram(s: UiState, dir = '.'): Promise<string> {
  const scenario = s.session.scenario;
  const query = scenario?.queries[s.session.follow ?? 0];
  if (query === undefined) return 'no scenario to draw';
  // Practice: nothing past the furthest shown step goes into the picture.
  const upTo = s.practice?.revealed;
  const data = diagramData(s.session.timeline, s.session.info, query.plan.tables, s.step, upTo);
  const path = diagramPath(s, dir);
  const r = await writeSvgFile(path, diagramSvg(data, { mono: s.mono }));
  return r.ok ? `diagram of step ${s.step} written to ${path}` : `diagram not written: ${r.message}`;
}

/**
 * Writes the score JSON (synchronously: it also runs on quit, as the app exits). A path that
 * holds something other than JSON, or the scenario itself, is never overwritten.
 */
export function writeScore(s: UiState): string | undefined {
  const out = s.practice?.scoreOut;
  const report = practiceScore(s);
  if (out === undefined || report === undefined) return undefined;
  if (sameFile(out, s.session.info.file)) return 'score not written: --score-out names the scenario file';
  try {
    const old = readFileSync(out, 'utf8');
    JSON.parse(old);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return code === undefined ? `score not written: ${out} exists and is not JSON` : `score not written: ${out} (${code})`;
  }
  try {
    // Atomic, and through a symbolic link into the file it points to (the link stays).
    writeOutputFile(out, `${JSON.stringify(report, null, 2)}\n`);
    return `score written to ${out}`;
  } catch (error) {
    return `score not written: ${error instanceof Error ? error.message : String(error)}`;
  }
}
