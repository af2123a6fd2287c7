/**
 * `startApp`: the full-screen app for `joinstep [FILE|DIR]`. Everything that can fail in words
 * (not a terminal, a missing path, scenario errors) is printed BEFORE the alternate screen is
 * entered; once in, every way out (q, Ctrl-C, an exception, SIGTERM) restores the terminal.
 * Resolves to the process exit code.
 */
import { existsSync, statSync, unwatchFile, watchFile } from 'node:fs';
import { render } from 'ink';
import type { ReactElement } from 'react';
import { findScenarioFiles } from '../cli/scenario-files.js';
import type { PickerEntry } from './Picker.js';
import { Root } from './Root.js';
import type { Session } from './session.js';
import { describeFile, loadSession } from './session-load.js';
import { enterAltScreen } from './terminal.js';
import { inkStdout, TerminalOutput, type FrameSink } from './terminal-output.js';
import { monoFromEnv } from './theme.js';

export interface StartOptions {
  /** Files or directories; none = ./scenarios when it exists, else the current directory. */
  readonly paths: readonly string[];
  /** Reload the scenario when its file is saved, keeping the step. */
  readonly watch?: boolean;
  /** Monochrome (also with NO_COLOR set). */
  readonly mono?: boolean;
}

export async function startApp(options: StartOptions): Promise<number> {
  const err = (text: string): void => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
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
  const single = files.length === 1 && paths.length === 1 && !statSync(paths[0]!).isDirectory() ? files[0] : undefined;
  let session: Session | undefined;
  let entries: PickerEntry[] = [];
  if (single !== undefined) {
    const r = await loadSession(single);
    if (!r.ok) {
      for (const e of r.errors) err(e);
      return 2;
    }
    session = r.session;
  } else {
    entries = await Promise.all(files.map(describeFile));
  }
  const mono = options.mono === true || monoFromEnv(process.env);
  const opened = session !== undefined && single !== undefined ? { session, file: single } : {};
  return runFullScreen((output) => (
    <Root entries={entries} {...opened} mono={mono} open={loadSession} output={output} {...(options.watch === true ? { watch: watchPath } : {})} />
  ));
}

/** Polling survives editors that save by renaming a new file over the old one (fs.watch does not). */
export function watchPath(file: string, onChange: () => void): () => void {
  const listener = (cur: { mtimeMs: number }, prev: { mtimeMs: number }): void => {
    if (cur.mtimeMs !== prev.mtimeMs) onChange();
  };
  watchFile(file, { interval: 250 }, listener);
  return () => unwatchFile(file, listener);
}

/**
 * Renders `element` on the alternate screen until it exits; the terminal is restored on every
 * path. Given a function, the element gets a sink to draw its frames on the terminal itself.
 */
export async function runFullScreen(element: ReactElement | ((output: FrameSink) => ReactElement)): Promise<number> {
  const screen = enterAltScreen();
  const direct = typeof element === 'function' ? new TerminalOutput(process.stdout) : undefined;
  let failure: unknown;
  try {
    // Ink writes through a stdout that tells the sink when Ink drew something (the picker it
    // erases, a resize): the app's frame is then drawn again, whole.
    const stdout = direct === undefined ? process.stdout : inkStdout(process.stdout, () => direct.invalidate());
    const tree = typeof element === 'function' ? element(direct!) : element;
    // incrementalRendering stays off: it is broken in Ink 6.8.0 (stack-spike §1).
    // Ctrl-C goes through the keymap (exitOnCtrlC off) so that unsaved what-if edits are not lost
    // without a question; raw mode delivers it as a key, SIGINT from elsewhere still ends the app.
    const instance = render(tree, { stdout, exitOnCtrlC: false, patchConsole: false, incrementalRendering: false });
    await instance.waitUntilExit();
  } catch (error) {
    failure = error;
  } finally {
    direct?.close();
    screen.leave();
  }
  if (failure !== undefined) {
    process.stderr.write(`joinstep: the app stopped on an internal error (a bug; please report it):\n${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}\n`);
    return 1;
  }
  return 0;
}
