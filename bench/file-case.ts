/**
 * One user-path case (`npm run bench`), in its own process so that its peak memory is its own:
 * loads a scenario file as `joinstep run` does, runs it, folds the result as `run --result`
 * does, and separately measures the app's path to its first frame (load, first run of the
 * timeline, the first frame's text). Prints one JSON line. Bundled by bench/run.ts.
 */
import { runScenario } from '../src/engine/run.js';
import { loadScenarioFile } from '../src/scenario/load.js';
import { frameText } from '../src/ui/ansi.js';
import { screenLayout } from '../src/ui/screen.js';
import { loadSession } from '../src/ui/session-load.js';
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
  /** Load, the timeline's first run, and the first frame's text: the app's time to its first frame. */
  readonly firstFrameMs: number;
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

async function frameCase(file: string): Promise<FrameCaseResult> {
  const t0 = performance.now();
  const r = await loadSession(file);
  if (!r.ok) throw new Error(`${file}: ${r.errors[0]}`);
  const state = { ...initialState(r.session, { columns: 120, rows: 40 }), settled: false };
  frameText(screenLayout(state, 120, 40), makeTheme(true));
  return { firstFrameMs: performance.now() - t0, peakMb: process.resourceUsage().maxRSS / 1024 };
}

const [mode, file] = process.argv.slice(2);
if (mode !== undefined && file !== undefined) {
  const result = mode === 'frame' ? await frameCase(file) : await runCase(file);
  process.stdout.write(JSON.stringify(result) + '\n');
}
