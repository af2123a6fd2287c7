/**
 * `npm run bench`: per join family, on generated events (1M by default; BENCH_EVENTS=n to
 * change; case names as arguments to run only those). Two tables.
 *
 * In memory (the engine alone): events/s of a full run (timeline
 * creation; wall clock, and CPU time for a loaded machine), peak memory (max RSS of a fresh
 * process per case), and the median time to seek to a random step (50 seeks) and to step back.
 * Each case runs BENCH_RUNS times (default 3) and the table shows per-column medians.
 * Targets: >= 500k events/s, seek and back <= 20 ms median, peak memory < 1 GB.
 *
 * From files (the user's path): the same families written as scenario files, one-line YAML
 * events and JSON Lines replays, at 100k and 1M events: the full load's time (as the app loads
 * a file), `run --result` in process (events streamed into the run; wall, CPU and peak memory),
 * the whole `joinstep run --result FILE > /dev/null` process (wall, node's start-up included),
 * and the app's times to its first frame (the loading frame of a long load), to the scenario's
 * frame with the first steps, and to the whole run computed in pieces. Targets: 1M from JSON
 * Lines < 3 s, from YAML < 5 s, < 1 GB; 100k < 0.6 s (the whole process); first frame < 1 s.
 *
 * `--quick`: one run per case, 100k events only, regular-inner and temporal only (about a
 * minute); `--no-files` / `--files-only` pick one table.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { CaseResult } from './case.js';
import type { FileCaseResult, FrameCaseResult, LoadCaseResult } from './file-case.js';
import { writeBenchFiles } from './files.js';
import { FAMILIES, type Family } from './scenarios.js';

const QUICK = process.argv.includes('--quick');
const N = Number(process.env.BENCH_EVENTS ?? (QUICK ? 100_000 : 1_000_000));
/** Runs per case (BENCH_RUNS=n): the table shows each column's median over the runs. */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? (QUICK ? 1 : 3)));
const FILE_SIZES = QUICK ? [100_000] : [100_000, 1_000_000];

function med(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Per-column medians of several runs of one case (the machine is shared: single runs are noisy). */
function medianOf(runs: CaseResult[]): CaseResult {
  const col = (f: (r: CaseResult) => number) => med(runs.map(f));
  const first = runs[0]!;
  return {
    family: first.family,
    events: first.events,
    emitted: first.emitted,
    runMs: col((r) => r.runMs),
    cpuMs: col((r) => r.cpuMs),
    seekMs: col((r) => r.seekMs),
    backMs: col((r) => r.backMs),
    peakMb: col((r) => r.peakMb),
  };
}

function table(rows: CaseResult[]): string {
  const head = ['case', 'events', 'emitted', 'run ms', 'events/s', 'events/s (cpu)', 'seek ms', 'back ms', 'peak MB'];
  const rate = (ms: number, n: number) => Math.round(n / (ms / 1000)).toLocaleString('en-US');
  const body = rows.map((r) => [
    r.family,
    String(r.events),
    String(r.emitted),
    r.runMs.toFixed(0),
    rate(r.runMs, r.events),
    rate(r.cpuMs, r.events),
    r.seekMs.toFixed(2),
    r.backMs.toFixed(3),
    r.peakMb.toFixed(0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(head), ...body.map(line), `(medians of ${RUNS} runs; seek / back: medians over 50 random steps; targets: 500k events/s, 20 ms, 1 GB)`].join('\n');
}

interface FileRow {
  readonly family: string;
  readonly form: string;
  readonly run: FileCaseResult;
  readonly load: LoadCaseResult;
  readonly frame: FrameCaseResult;
  readonly processMs: number;
}

function fileTable(rows: FileRow[]): string {
  const head = ['case', 'form', 'events', 'load ms', 'load MB', 'run --result ms', 'cpu ms', 'peak MB', 'process ms', 'first frame ms', 'steps frame ms', 'app complete ms', 'app peak MB'];
  const body = rows.map((r) => [
    r.family,
    r.form,
    String(r.load.events),
    r.load.loadMs.toFixed(0),
    r.load.peakMb.toFixed(0),
    r.run.totalMs.toFixed(0) + (r.run.streamed ? '' : ' (full)'),
    r.run.cpuMs.toFixed(0),
    r.run.peakMb.toFixed(0),
    r.processMs.toFixed(0),
    r.frame.firstFrameMs.toFixed(0),
    r.frame.stepsFrameMs.toFixed(0),
    r.frame.completeMs.toFixed(0),
    r.frame.peakMb.toFixed(0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [
    line(head),
    ...body.map(line),
    `(medians of ${RUNS} runs; "run --result" in process, "process" the whole command with node's start-up; "(full)": not streamed)`,
    '(targets, whole process: 1M jsonl < 3 s, 1M yaml < 5 s, 100k < 0.6 s, peak < 1 GB)',
  ].join('\n');
}

/** The whole `joinstep run --result FILE` process, stdout discarded: wall ms (the built CLI in dist/). */
function processMs(file: string): number | undefined {
  const cli = fileURLToPath(new URL('../bin/joinstep.mjs', import.meta.url));
  const t0 = performance.now();
  const child = spawnSync(process.execPath, [cli, 'run', '--result', file], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (child.status !== 0) {
    process.stderr.write(`joinstep run --result ${file}: failed\n${child.stderr}\n`);
    return undefined;
  }
  return ms;
}

function spawnCase<T>(bundle: string, args: string[]): T | undefined {
  const child = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) {
    process.stderr.write(`${args.join(' ')}: failed\n${child.stderr}\n`);
    return undefined;
  }
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as T;
}

function medianBy<T>(runs: T[], keys: (keyof T)[]): T {
  const out = { ...runs[0]! };
  for (const k of keys) (out as Record<keyof T, unknown>)[k] = med(runs.map((r) => r[k] as number));
  return out;
}

async function bundleOf(dir: string, entry: string): Promise<string> {
  const outfile = join(dir, entry.replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [fileURLToPath(new URL(`./${entry}`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    banner: { js: "import {createRequire as __cr} from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return outfile;
}

const dir = mkdtempSync(join(tmpdir(), 'joinstep-bench-'));
try {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const families = FAMILIES.filter((f) => (only.length === 0 ? !QUICK || f === 'regular-inner' || f === 'temporal' : only.includes(f)));
  if (!process.argv.includes('--files-only')) {
    const bundle = await bundleOf(dir, 'case.ts');
    const results: CaseResult[] = [];
    for (const family of families) {
      const runs: CaseResult[] = [];
      for (let r = 0; r < RUNS; r++) {
        const one = spawnCase<CaseResult>(bundle, [family, String(N)]);
        if (one === undefined) break;
        runs.push(one);
        process.stderr.write(`${family}: run ${r + 1}/${RUNS} done\n`);
      }
      if (runs.length > 0) results.push(medianOf(runs));
    }
    process.stdout.write('In memory (the engine on generated events):\n' + table(results) + '\n\n');
  }
  if (!process.argv.includes('--no-files')) {
    const bundle = await bundleOf(dir, 'file-case.ts');
    const rows: FileRow[] = [];
    for (const n of FILE_SIZES) {
      for (const family of families) {
        for (const form of ['yaml', 'jsonl'] as const) {
          const file = writeBenchFiles(family as Family, n, form, join(dir, 'files'));
          const runs: FileCaseResult[] = [];
          const loads: LoadCaseResult[] = [];
          const frames: FrameCaseResult[] = [];
          const processes: number[] = [];
          for (let r = 0; r < RUNS; r++) {
            const one = spawnCase<FileCaseResult>(bundle, ['run', file]);
            const load = spawnCase<LoadCaseResult>(bundle, ['load', file]);
            const frame = spawnCase<FrameCaseResult>(bundle, ['frame', file]);
            const whole = processMs(file);
            if (one === undefined || load === undefined || frame === undefined || whole === undefined) break;
            runs.push(one);
            loads.push(load);
            frames.push(frame);
            processes.push(whole);
          }
          process.stderr.write(`${family} ${form} ${n}: done\n`);
          if (runs.length > 0) {
            rows.push({
              family,
              form,
              run: medianBy(runs, ['totalMs', 'cpuMs', 'peakMb']),
              load: medianBy(loads, ['loadMs', 'peakMb']),
              frame: medianBy(frames, ['firstFrameMs', 'stepsFrameMs', 'completeMs', 'peakMb']),
              processMs: med(processes),
            });
          }
        }
      }
      rmSync(join(dir, 'files'), { recursive: true, force: true });
    }
    process.stdout.write('From files (the user\'s path):\n' + fileTable(rows) + '\n');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
