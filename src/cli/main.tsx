/**
 * joinstep's command line. Each command's module is a dynamic import, so that a command loads
 * only its own code: `run` and `test` never load Ink or React (the app), nor the Flink harness
 * client, which keeps their cold start small. The same file is the entry of the thread
 * that reads a big file's events for `run` and `test` (read-thread.ts).
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { suggestionHint } from '../scenario/did-you-mean.js';
import { printable } from '../values/printable.js';
import { parseCli } from './args.js';
import { COMMANDS, helpTopic } from './command-registry.js';
import { commandHelp, mainHelp } from './help-text.js';
import { readThreadMain, type ReadThreadData } from './read-thread.js';
import { runCommand } from './run-command.js';
import { exitOnceWritten, writeErr, writeErrDiagnostic, writeOut } from './output.js';
import { VERSION } from './version.js';

/** The command ends the process as soon as its output is written (exitOnceWritten): `run`. */
let exitAtOnce = false;

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseCli(argv);
  if (!parsed.ok) {
    // The message quotes what was typed (a command, an option): control characters shown, not sent.
    writeErrDiagnostic(`joinstep: ${printable(parsed.message)}\nhint: ${printable(parsed.hint ?? 'see `joinstep --help`')}\n`);
    return 2;
  }
  const cmd = parsed.command;
  switch (cmd.name) {
    case 'help':
      return help(cmd.topic);
    case 'completion': {
      const { bashCompletion, zshCompletion } = await import('./completion.js');
      writeOut(cmd.shell === 'bash' ? bashCompletion() : zshCompletion());
      return 0;
    }
    case 'version':
      writeOut(`joinstep ${VERSION}\n`);
      return 0;
    case 'run':
      exitAtOnce = true;
      return runCommand(cmd, import.meta.url);
    case 'test':
      return (await import('./test-command.js')).testCommand(cmd, import.meta.url);
    case 'explain':
      return (await import('./explain-command.js')).explainCommand(cmd);
    case 'record':
      return (await import('./record-command.js')).recordCommand(cmd);
    // The teaching commands (docs/teaching.md).
    case 'practice':
      return (await import('./practice-command.js')).practiceCommand(cmd);
    case 'diff':
      return (await import('./diff-command.js')).diffCommand(cmd);
    case 'diagram':
      return (await import('./diagram-command.js')).diagramCommand(cmd);
    case 'flink':
      return (await import('./flink-command.js')).flinkCommand(cmd);
    case 'app': {
      // Checks and the scenario first, then the first frame, and only then Ink and React (the
      // slowest part of a cold start): the screen shows the scenario while they load.
      const { prepareApp } = await import('../ui/start-prep.js');
      // A big file loads them while it is read (prepareApp's `preload`); the import is shared.
      let module: Promise<typeof import('../ui/start.js')> | undefined;
      const app = (): Promise<typeof import('../ui/start.js')> => (module ??= withoutFetch(() => import('../ui/start.js')));
      const prepared = await prepareApp({ paths: cmd.paths, watch: cmd.watch, mono: cmd.mono, preload: app });
      if (typeof prepared === 'number') return prepared;
      const opened = prepared.opened;
      const painted = opened === undefined ? undefined : (await import('../ui/prepaint.js')).prepaint(opened.session, prepared.mono, prepared.painted, opened.build?.progress());
      const { runApp } = await app();
      return runApp(prepared, painted);
    }
  }
}

/** `joinstep help [TOPIC]`; the app's help is the whole CLI's. */
function help(topic: string | undefined): number {
  const entry = topic === undefined ? undefined : helpTopic(topic);
  if (topic !== undefined && entry === undefined) {
    writeErrDiagnostic(`joinstep: no help for '${printable(topic)}': not a command\nhint: ${printable(suggestionHint(topic, COMMANDS.map((c) => c.name), 'commands', 'joinstep has no commands'))}\n`);
    return 2;
  }
  writeOut(entry === undefined || entry.bare === true ? mainHelp(VERSION) : commandHelp(entry));
  return 0;
}

/**
 * Runs `load` with no global `fetch`. Ink's layout engine (yoga-layout) carries its WebAssembly
 * as a data: URL and loads it with fetch() when fetch exists; in Node 20 merely reading the
 * global `fetch` loads undici, and the data: URL is decoded the slow way (together about 50 ms
 * of the app's cold start). Without fetch, yoga decodes the bytes itself. The property is put
 * back as it was (still lazy, never read here) once the import is done; nothing that reads it runs
 * meanwhile (at most a big scenario file being read, see prepareApp's `preload`).
 */
async function withoutFetch<T>(load: () => Promise<T>): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (descriptor === undefined || descriptor.configurable !== true) return load();
  Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, 'fetch', descriptor);
  }
}

const readThread = isMainThread ? undefined : (workerData as Partial<ReadThreadData> | undefined);
if (readThread?.readThread === true) readThreadMain(readThread as ReadThreadData);
else {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      if (exitAtOnce) exitOnceWritten(code);
    },
    (error: unknown) => {
      // A bug, not a user mistake: say so plainly, keep the stack for the bug report.
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      writeErr(`joinstep: internal error (this is a bug in joinstep, please report it)\n${detail}\n`);
      process.exitCode = 70;
    },
  );
}
