/**
 * The part of starting the app that needs neither Ink nor React: checks (a terminal, the paths)
 * and loading the scenario, with every failure printed in words before the screen is touched.
 * main.tsx runs it first, draws the first frame (prepaint.ts), and only then loads Ink.
 */
import { existsSync, statSync } from 'node:fs';
import { stderrProgress } from '../cli/progress.js';
import { findScenarioFiles } from '../cli/scenario-files.js';
import type { PickerEntry } from './Picker.js';
import type { Session } from './session.js';
import { describeFile, loadSession } from './session-load.js';
import { monoFromEnv } from './theme.js';
import { printableLines } from '../values/printable.js';

export interface StartOptions {
  /** Files or directories; none = ./scenarios when it exists, else the current directory. */
  readonly paths: readonly string[];
  /** Reload the scenario when its file is saved, keeping the step. */
  readonly watch?: boolean;
  /** Monochrome (also with NO_COLOR set). */
  readonly mono?: boolean;
  /** Open in practice mode (`joinstep practice`). */
  readonly practice?: { readonly scoreOut?: string };
}

/** Ready to run: one opened scenario, or the picker's entries. */
export interface Prepared {
  readonly opened?: { readonly session: Session; readonly file: string };
  readonly entries: readonly PickerEntry[];
  readonly mono: boolean;
  readonly watch: boolean;
  readonly practice?: { readonly scoreOut?: string };
}

/** The prepared app, or the exit code after the failure was printed. */
export async function prepareApp(options: StartOptions): Promise<Prepared | number> {
  // Messages quote paths and scenario text: escaped as every command's stderr is (values/printable.ts).
  const err = (text: string): void => void process.stderr.write(printableLines(text.endsWith('\n') ? text : `${text}\n`));
  if (process.stdout.isTTY !== true) {
    err('joinstep: the interactive debugger needs a terminal, and stdout is not one.');
    err('hint: to print the changelog in a script or a pipe, use `joinstep run FILE` (or `joinstep test`, `joinstep explain`).');
    return 2;
  }
  const paths = options.paths.length > 0 ? [...options.paths] : [existsSync('scenarios') ? 'scenarios' : '.'];
  const { files, missing } = findScenarioFiles(paths);
  if (missing.length > 0) {
    for (const m of missing) err(`${m}:1:1: error: no such file or directory`);
    return 2;
  }
  if (files.length === 0) {
    err(`joinstep: no scenario files (.yaml, .yml) in ${paths.join(', ')}`);
    return 2;
  }
  const mono = options.mono === true || monoFromEnv(process.env);
  const watch = options.watch === true;
  const single = files.length === 1 && paths.length === 1 && !statSync(paths[0]!).isDirectory() ? files[0] : undefined;
  if (single === undefined) return { entries: await Promise.all(files.map(describeFile)), mono, watch };
  const r = await loadSession(single, stderrProgress());
  if (!r.ok) {
    for (const e of r.errors) err(e);
    return 2;
  }
  return { opened: { session: r.session, file: single }, entries: [], mono, watch, ...(options.practice !== undefined ? { practice: options.practice } : {}) };
}
