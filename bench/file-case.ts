/**
 * One user-path case (`npm run bench`), in its own process so that its peak memory is its own:
 * `run`: what `joinstep run --result` does (the events streamed into the run, read in a second
 * thread for a big input, or the full load and run where the file needs it; the sorted result);
 * `load`: the full load alone, as the app and the other commands load a file; `frame`: the app's
 * path to its first frames (the loading frame of a long load, then the scenario's frame with the
 * first steps of the run computed in pieces, then the whole run). Prints one JSON line. Bundled
 * by bench/run.ts.
 */
import { statSync } from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import { readThreadMain, type ReadThreadData } from '../src/cli/read-thread.js';
import { runStreamedThreaded } from '../src/cli/run-streamed.js';
import { runScenario } from '../src/engine/run.js';
import { loadScenarioFile, loadScenarioText, readScenarioFile } from '../src/scenario/load.js';
import { frameText } from '../src/ui/ansi.js';
import { screenLayout } from '../src/ui/screen.js';
import { LoadingScreen } from '../src/ui/loading-screen.js';
import type { Prepainted } from '../src/ui/prepaint.js';
import { loadBuild } from '../src/ui/session-load.js';
import { initialState } from '../src/ui/state.js';
import { makeTheme } from '../src/ui/theme.js';

export interface FileCaseResult {
  /** Load, run and the sorted result: what `joinstep run --result` spends, minus process start. */
  readonly totalMs: number;
  /** The same in CPU time (user + system, the collector's helper threads included). */
  readonly cpuMs: number;
  readonly peakMb: number;
  /** Whether the events were streamed (false: the file took the full load). */
  readonly streamed: boolean;
}

export interface LoadCaseResult {
  readonly events: number;
  /** The full load (every event in memory), as the app and `explain` load a file. */
  readonly loadMs: number;
  readonly peakMb: number;
}

export interface FrameCaseResult {
  /** The app's first frame: the loading frame when the load is long, else the scenario's. */
  readonly firstFrameMs: number;
  /** The scenario's first frame, with its first steps (the run goes on in pieces after it). */
  readonly stepsFrameMs: number;
  /** The whole run computed, piece after piece as the app does. */
  readonly completeMs: number;
  readonly peakMb: number;
  /** The longest the event loop was held (keys and frames waiting) from the start to the steps frame: a 1 ms timer's worst lateness. */
  readonly loadLagMs?: number;
}

async function runCase(file: string): Promise<FileCaseResult> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const read = await readScenarioFile(file);
  if (!read.ok) throw new Error(`${file}: ${read.diagnostics[0]?.message}`);
  // This bundle is its own read thread's entry, as the CLI's is (read-thread.ts).
  const streamed = await runStreamedThreaded(file, read.text, () => [0], {}, import.meta.url);
  let rows: number;
  if (streamed !== undefined) rows = streamed.outputs.get(0)!.result.length;
  else {
    const loaded = loadScenarioText(file, read.text);
    if (!loaded.ok) throw new Error(`${file}: ${loaded.diagnostics[0]?.message}`);
    rows = runScenario(loaded.scenario, 0).result.length;
  }
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (rows < 0) throw new Error('unreachable');
  return { totalMs, cpuMs: (cpu.user + cpu.system) / 1000, peakMb: process.resourceUsage().maxRSS / 1024, streamed: streamed !== undefined };
}

async function loadCase(file: string): Promise<LoadCaseResult> {
  const t0 = performance.now();
  const loaded = await loadScenarioFile(file);
  if (!loaded.ok) throw new Error(`${file}: ${loaded.diagnostics[0]?.message}`);
  return { events: loaded.scenario.events.length, loadMs: performance.now() - t0, peakMb: process.resourceUsage().maxRSS / 1024 };
}

/** The app's path (start-prep.ts): the loading screen watching the load, the first piece, the frame. */
async function frameCase(file: string): Promise<FrameCaseResult> {
  const t0 = performance.now();
  let loadingFrame: number | undefined;
  const screen = { screen: { leave: () => {} }, output: { draw: () => void (loadingFrame ??= performance.now()) } } as unknown as Prepainted;
  const loading = new LoadingScreen({ file, mono: true, bytes: statSync(file).size, enter: () => screen, keys: () => undefined, listen: () => () => {}, size: () => ({ columns: 120, rows: 40 }) });
  loading.begin();
  let lag = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const t = performance.now();
    lag = Math.max(lag, t - last - 1);
    last = t;
  }, 1);
  const r = (await loadBuild(file, { report: loading.report, blocking: loading.progress }))!;
  clearInterval(timer);
  if (!r.ok) throw new Error(`${file}: ${r.errors[0]}`);
  r.build.advance(30);
  const state = { ...initialState(r.build.session, { columns: 120, rows: 40 }), settled: false };
  frameText(screenLayout(state, 120, 40), makeTheme(true));
  const steps = performance.now();
  while (!r.build.advance(8).done);
  const complete = performance.now();
  return { firstFrameMs: (loadingFrame ?? steps) - t0, stepsFrameMs: steps - t0, completeMs: complete - t0, peakMb: process.resourceUsage().maxRSS / 1024, loadLagMs: lag };
}

const [mode, file] = process.argv.slice(2);
if (!isMainThread) readThreadMain(workerData as ReadThreadData);
else if (mode !== undefined && file !== undefined) {
  const result = mode === 'frame' ? await frameCase(file) : mode === 'load' ? await loadCase(file) : await runCase(file);
  process.stdout.write(JSON.stringify(result) + '\n');
}
