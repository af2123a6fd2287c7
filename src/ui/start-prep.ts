/**
 * The part of starting the app that needs neither Ink nor React: checks (a terminal, the paths)
 * and loading the scenario, with every failure printed in words before the screen is touched.
 * main.tsx runs it first, draws the first frame (prepaint.ts), and only then loads Ink.
 */
import { existsSync, statSync } from 'node:fs';
import { findScenarioFiles } from '../cli/scenario-files.js';
import type { PickerEntry } from './Picker.js';
import type { Session } from './session.js';
import { describeFile, loadBuild, type SessionBuild } from './session-load.js';
import { loadAndRun } from './load-and-run.js';
import { BIG_FILE_BYTES, LoadingScreen } from './loading-screen.js';
import type { Prepainted } from './prepaint.js';
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
  /**
   * Loads the app's own modules (Ink and React). A big file loads them while it is read, so
   * that the app answers keys from its first frame with steps instead of loading them then.
   */
  readonly preload?: () => Promise<unknown>;
}

/** Ready to run: one opened scenario, or the picker's entries. */
export interface Prepared {
  /** `build`: the opened session's run, when it is still to be computed in the app. */
  readonly opened?: { readonly session: Session; readonly file: string; readonly build?: SessionBuild };
  /** The screen a long load entered to show its progress (the app goes on there). */
  readonly painted?: Prepainted;
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
  const { files, missing, unreadable } = findScenarioFiles(paths);
  if (missing.length > 0) {
    for (const m of missing) err(`${m}:1:1: error: no such file or directory`);
    return 2;
  }
  // The picker lists the scenarios it can find; with none, a folder it could not list is why.
  if (files.length === 0 && unreadable.length > 0) {
    for (const u of unreadable) err(`joinstep: cannot list the folder ${u.path} (${u.code})`);
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
  const start = performance.now();
  const bytes = statSync(single).size;
  const loading = new LoadingScreen({ file: single, mono, bytes });
  loading.begin();
  const opened = (session: Session, build: SessionBuild | undefined, painted: Prepainted | undefined): Prepared => ({
    opened: { session, file: single, ...(build !== undefined ? { build } : {}) },
    ...(painted !== undefined ? { painted } : {}),
    entries: [],
    mono,
    watch,
    ...(options.practice !== undefined ? { practice: options.practice } : {}),
  });
  // The run is computed as the file is read (load-and-run.ts): a long one shows its first steps at
  // once and goes on in the app. Practice asks about every step, so it waits for the whole run.
  // A big file loads the app's modules while it is read; a run found long only once read loads
  // them before its first frame, so that the app answers keys from that frame on.
  const app = bytes >= BIG_FILE_BYTES && options.practice === undefined ? options.preload?.() : undefined;
  const streamed = options.practice === undefined ? await loadAndRun(single, { firstMs: FIRST_PIECE_MS }) : undefined;
  if (streamed !== undefined && !streamed.ok) {
    loading.leave();
    for (const e of streamed.errors) err(e);
    return 2;
  }
  if (streamed !== undefined) {
    const build = streamed.build;
    let p = build.progress();
    // A small run (read whole in the first piece) is computed whole before the first frame, as
    // it always was (its errors print on the normal screen).
    if (!loading.entered && !p.done && p.error === undefined && p.restart === undefined && p.reading === undefined) p = build.advance(Math.max(0, WHOLE_RUN_MS - (performance.now() - start)));
    if (p.error !== undefined) {
      loading.leave();
      err(p.error);
      return 2;
    }
    // A file the reader gave up on half-way is loaded the usual way below.
    if (p.restart === undefined) {
      if (!p.done) await (app ?? options.preload?.());
      return opened(build.session, p.done ? undefined : build, loading.finish());
    }
  }
  await app;
  // Read in slices: the loading frame is drawn, and q read, between them.
  const r = (await loadBuild(single, { report: loading.report, blocking: loading.progress }))!;
  // As above: a small run whole before the first frame, a long one's first steps; practice all.
  const painted = loading.finish();
  const budget = options.practice !== undefined ? Infinity : painted === undefined ? Math.max(FIRST_PIECE_MS, WHOLE_RUN_MS - (performance.now() - start)) : FIRST_PIECE_MS;
  const p = r.ok ? r.build.advance(budget) : undefined;
  if (!r.ok || p?.error !== undefined) {
    loading.leave();
    for (const e of r.ok ? [p!.error!] : r.errors) err(e);
    return 2;
  }
  return opened(r.build.session, p?.done === true ? undefined : r.build, painted);
}

/** Before the first frame, a run is computed whole if that takes (with the load) at most this long. */
const WHOLE_RUN_MS = 300;
/** Else the first steps, for this long, so that the first frame has some to show. */
const FIRST_PIECE_MS = 30;
