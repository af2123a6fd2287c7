/**
 * `startApp`: the full-screen app for `joinstep [FILE|DIR]`. Everything that can fail in words
 * (not a terminal, a missing path, scenario errors) is printed BEFORE the alternate screen is
 * entered; once in, every way out (q, Ctrl-C, an exception, SIGTERM) restores the terminal.
 * Resolves to the process exit code.
 */
import { unwatchFile, watchFile } from 'node:fs';
import { render } from 'ink';
import type { ReactElement } from 'react';
import type { AltScreen } from './alt-screen.js';
import { printableLines } from '../values/printable.js';
import { FileProblemExit } from './file-problem.js';
import type { Prepainted } from './prepaint.js';
import { Root } from './Root.js';
import { openSession } from './session-load.js';
import { prepareApp, type Prepared, type StartOptions } from './start-prep.js';
import { enterAltScreen } from './terminal.js';
import { inkStdout, TerminalOutput, type FrameSink } from './terminal-output.js';

export type { StartOptions } from './start-prep.js';

export async function startApp(options: StartOptions): Promise<number> {
  const prepared = await prepareApp(options);
  return typeof prepared === 'number' ? prepared : runApp(prepared);
}

/** Runs a prepared app; `painted`: the alternate screen and first frame are already there. */
export function runApp(p: Prepared, painted?: Prepainted): Promise<number> {
  const opened = p.opened ?? {};
  painted ??= p.painted;
  return runFullScreen(
    (output) => <Root entries={[...p.entries]} {...opened} mono={p.mono} open={openSession} output={output} {...(p.practice ? { practice: p.practice } : {})} {...(p.watch ? { watch: watchPath } : {})} />,
    painted,
  );
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
export async function runFullScreen(element: ReactElement | ((output: FrameSink) => ReactElement), painted?: Prepainted): Promise<number> {
  const screen: AltScreen = painted?.screen ?? enterAltScreen();
  const direct = typeof element === 'function' ? (painted?.output ?? new TerminalOutput(process.stdout)) : undefined;
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
  if (failure instanceof FileProblemExit) {
    for (const d of failure.diagnostics) process.stderr.write(printableLines(d.endsWith('\n') ? d : `${d}\n`));
    return 2;
  }
  if (failure !== undefined) {
    process.stderr.write(`joinstep: the app stopped on an internal error (a bug; please report it):\n${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}\n`);
    return 1;
  }
  return 0;
}
