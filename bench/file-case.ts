/**
 * One user-path case (`npm run bench`), in its own process so that its peak memory is its own:
 * loads a scenario file as `joinstep run` does, runs it, folds the result as `run --result`
 * does, and separately measures the app's path to its first frames (the loading frame of a long
 * load, then the scenario's frame with the first steps of the run computed in pieces). Prints one JSON line. Bundled by bench/run.ts.
 */
import { statSync } from 'node:fs';
import { runScenario } from '../src/engine/run.js';
import { loadScenarioFile } from '../src/scenario/load.js';
import { frameText } from '../src/ui/ansi.js';
import { screenLayout } from '../src/ui/screen.js';
import { LoadingScreen } from '../src/ui/loading-screen.js';
import type { Prepainted } from '../src/ui/prepaint.js';
import { loadBuild } from '../src/ui/session-load.js';
import { initialState } from '../src/ui/state.js';
import { makeTheme } from '../src/ui/theme.js';

export interface FileCaseResult {
  readonly events: number;
  readonly loadMs: number;
  readonly runMs: number;
  /** Load, run and the sorted result: what `joinstep run --result` spends, minus process start. */
  readonly totalMs: number;
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
}

async function runCase(file: string): Promise<FileCaseResult> {
  const t0 = performance.now();
  const loaded = await loadScenarioFile(file);
  if (!loaded.ok) throw new Error(`${file}: ${loaded.diagnostics[0]?.message}`);
  const t1 = performance.now();
  const out = runScenario(loaded.scenario, 0);
  const rows = out.result.length;
  const t2 = performance.now();
  if (rows < 0) throw new Error('unreachable');
  return { events: loaded.scenario.events.length, loadMs: t1 - t0, runMs: t2 - t1, totalMs: t2 - t0, peakMb: process.resourceUsage().maxRSS / 1024 };
}

/** The app's path (start-prep.ts): the loading screen watching the load, the first piece, the frame. */
async function frameCase(file: string): Promise<FrameCaseResult> {
  const t0 = performance.now();
  let loadingFrame: number | undefined;
  const screen = { screen: { leave: () => {} }, output: { draw: () => void (loadingFrame ??= performance.now()) } } as unknown as Prepainted;
  const loading = new LoadingScreen({ file, mono: true, bytes: statSync(file).size, enter: () => screen, keys: () => undefined, size: () => ({ columns: 120, rows: 40 }) });
  loading.begin();
  const r = await loadBuild(file, loading.progress);
  if (!r.ok) throw new Error(`${file}: ${r.errors[0]}`);
  r.build.advance(30);
  const state = { ...initialState(r.build.session, { columns: 120, rows: 40 }), settled: false };
  frameText(screenLayout(state, 120, 40), makeTheme(true));
  const steps = performance.now();
  while (!r.build.advance(8).done);
  const complete = performance.now();
  return { firstFrameMs: (loadingFrame ?? steps) - t0, stepsFrameMs: steps - t0, completeMs: complete - t0, peakMb: process.resourceUsage().maxRSS / 1024 };
}

const [mode, file] = process.argv.slice(2);
if (mode !== undefined && file !== undefined) {
  const result = mode === 'frame' ? await frameCase(file) : await runCase(file);
  process.stdout.write(JSON.stringify(result) + '\n');
}
