/**
 * `joinstep practice FILE [--score-out FILE]`: the app in practice mode on one scenario. Unlike
 * the plain app there is no pre-painted first frame: it would show the notes of steps ahead.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeErr } from './output.js';
import type { TeachCommand } from './teach-args.js';

export async function practiceCommand(cmd: Extract<TeachCommand, { name: 'practice' }>): Promise<number> {
  if (isDirectory(cmd.file)) {
    writeErr(`joinstep: \`practice\` takes one scenario file, and ${cmd.file} is a directory\nhint: joinstep practice scenarios/temporal-eur-rate.yaml\n`);
    return 2;
  }
  if (cmd.scoreOut !== undefined && resolve(cmd.scoreOut) === resolve(cmd.file)) {
    writeErr('joinstep: --score-out names the scenario file itself\nhint: write the score to a .json file of its own, e.g. --score-out score.json\n');
    return 2;
  }
  const { prepareApp } = await import('../ui/start-prep.js');
  const prepared = await prepareApp({ paths: [cmd.file], mono: cmd.mono, practice: cmd.scoreOut !== undefined ? { scoreOut: cmd.scoreOut } : {} });
  if (typeof prepared === 'number') return prepared;
  const { runApp } = await import('../ui/start.js');
  return runApp(prepared);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
