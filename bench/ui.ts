/**
 * UI benchmark: key-press-to-frame time for step, back and jump on a 100k-event scenario
 * (median; target < 16 ms), and cold start of the built CLI to its first frame on a real pty.
 * `benchUi()` is the entry for bench/run.ts; `tsx bench/ui.ts` prints the table on its own, and
 * then `benchKeys()`: keys sent through a pipe while a scenario file is read, while its run
 * computes and after (bench/ui-keys-case.tsx), on each family's file (BENCH_UI_FILES, or files
 * of BENCH_UI_FILE_EVENTS events written for it; 0 skips it). Where tmux is installed, the same
 * files once more in the built CLI inside tmux, with the floor beside (bench/ui-tmux-case.ts;
 * BENCH_UI_TMUX=0 skips it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeBenchFiles } from './files.js';
import { FAMILIES } from './scenarios.js';
import type { KeySample } from './ui-keys-case.js';
import { formatTmuxKeys, hasTmux, tmuxKeys, type TmuxKeysResult } from './ui-tmux-case.js';

export interface UiBenchResult {
  readonly columns: number;
  readonly rows: number;
  readonly events: number;
  readonly timelineMs: number;
  /** Render of the first frame in-process (App mounted on an already computed timeline). */
  readonly firstFrameMs: number;
  readonly stepMs: number;
  readonly backMs: number;
  readonly jumpMs: number;
  /** Seeks to random steps: 95th percentile and worst, key to frame; and their CPU time. */
  readonly jumpP95Ms: number;
  readonly jumpMaxMs: number;
  readonly jumpCpuP95Ms: number;
  readonly jumpCpuMaxMs: number;
  /** After a key and the 150 ms settle pause: the time to draw the panes that need slow engine queries. */
  readonly settleMs: number;
  /** `G` then `g` from the middle: key to frame, that key's CPU, key to the result pane's rows. */
  readonly lastMs: number;
  readonly lastCpuMs: number;
  readonly lastFilledMs: number;
  readonly firstMs: number;
  readonly firstCpuMs: number;
  readonly firstFilledMs: number;
  /** CPU time of the app process per step / back key (median): robust to a loaded machine. */
  readonly cpuMs: number;
  readonly bytesPerFrame: number;
  /** Spawn of `node bin/joinstep.mjs FILE` to its first frame on a pty (median), if `script` exists. */
  readonly coldStartMs?: number;
  /** The same measurement of a bare `node -e` printing the marker (the pty, shell and node start-up). */
  readonly coldBaseMs?: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const quantile = (xs: readonly number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(q * xs.length) - 1)] ?? NaN;

/** Bundles a bench case with the CLI's build settings: one ESM bundle, production React, devtools stubbed. */
async function bundleCase(entry: string, bundle: string): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'bench', entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    jsx: 'automatic',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: { 'react-devtools-core': join(ROOT, 'build-stubs', 'react-devtools-core.mjs') },
    banner: { js: "import {createRequire as __cr} from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

async function keyCase(events: number, keys: number, jumps: number, columns: number, rows: number): Promise<Omit<UiBenchResult, 'coldStartMs'>> {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-bench-ui-'));
  try {
    const bundle = join(dir, 'ui-case.mjs');
    await bundleCase('ui-case.tsx', bundle);
    const child = spawnSync(process.execPath, [bundle, 'temporal', String(events), String(keys), String(columns), String(rows), String(jumps)], {
      encoding: 'utf8',
      env: { ...process.env, CI: 'false' },
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error(`ui bench case failed:\n${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as Omit<UiBenchResult, 'coldStartMs'>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One cold start: `script` gives the app a 120x40 pty; time until the key bar is drawn. */
function coldStart(command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn('script', ['-qfec', `stty rows 40 cols 120; ${command}`, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, CI: 'false' },
    });
    let out = '';
    let done = false;
    const timer = setTimeout(() => reject(new Error('no first frame within 30 s')), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      // Colours (when the pty gets them) split the key bar's words with SGR codes.
      // eslint-disable-next-line no-control-regex
      if (!done && out.replace(/\x1b\[[0-9;]*m/g, '').includes('n next')) {
        done = true;
        resolve(performance.now() - start);
        child.stdin.write('q');
      }
    });
    child.on('exit', () => clearTimeout(timer));
  });
}

/** Key-to-frame at each terminal size (default 120x40 and 200x60); cold start once, on the first result. */
export async function benchUi(
  options: { events?: number; keys?: number; jumps?: number; coldRuns?: number; sizes?: readonly (readonly [number, number])[] } = {},
): Promise<UiBenchResult[]> {
  const events = options.events ?? 100_000;
  const results: UiBenchResult[] = [];
  for (const [columns, rows] of options.sizes ?? [[120, 40], [200, 60]]) results.push(await keyCase(events, options.keys ?? 40, options.jumps ?? 10, columns, rows));
  const first = results[0];
  if (first === undefined || spawnSync('script', ['--version']).status !== 0) return results;
  const fixture = join(ROOT, 'test', 'e2e', 'fixtures', 'temporal-two-partitions.yaml');
  const runs: number[] = [];
  const app = `node bin/joinstep.mjs ${fixture}`;
  // The same pty, shell and stty with a bare node that prints the marker: what the method costs.
  const bare = `node -e "process.stdout.write('n next')"`;
  await coldStart(app); // warm the file cache
  const base: number[] = [];
  for (let i = 0; i < (options.coldRuns ?? 7); i++) {
    runs.push(await coldStart(app));
    base.push(await coldStart(bare));
  }
  results[0] = { ...first, coldStartMs: median(runs), coldBaseMs: median(base) };
  return results;
}

export interface KeysResult {
  readonly file: string;
  readonly samples: readonly KeySample[];
}

/**
 * Keys through a pipe on each scenario file (bench/ui-keys-case.tsx): while it is read, while its
 * run computes, and after. Without files, each family's JSON Lines file of `events` is written first.
 */
export async function benchKeys(options: { files?: readonly string[]; events?: number; afterKeys?: number; gapMs?: number } = {}): Promise<KeysResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-bench-keys-'));
  try {
    const bundle = join(dir, 'ui-keys-case.mjs');
    await bundleCase('ui-keys-case.tsx', bundle);
    const files = options.files ?? FAMILIES.map((family) => writeBenchFiles(family, options.events ?? 100_000, 'jsonl', (mkdirSync(join(dir, family)), join(dir, family))));
    const results: KeysResult[] = [];
    for (const file of files) {
      const child = spawnSync(process.execPath, [bundle, file, '120', '40', String(options.gapMs ?? 100), String(options.afterKeys ?? 40)], {
        encoding: 'utf8',
        env: { ...process.env, CI: 'false' },
        maxBuffer: 16 << 20,
      });
      if (child.status !== 0) throw new Error(`ui keys case failed on ${file}:\n${child.stderr}`);
      results.push(JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as KeysResult);
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Keys in the built CLI inside tmux (bench/ui-tmux-case.ts) on each file, the floor measured on a
 * 1,000-event temporal file beside it. Without files, each family's JSON Lines file of `events`.
 */
export async function benchTmuxKeys(options: { files?: readonly string[]; events?: number; afterKeys?: number } = {}): Promise<TmuxKeysResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-bench-tmux-'));
  try {
    const floor = writeBenchFiles('temporal', 1000, 'jsonl', (mkdirSync(join(dir, 'floor')), join(dir, 'floor')));
    const files = options.files ?? FAMILIES.map((family) => writeBenchFiles(family, options.events ?? 100_000, 'jsonl', (mkdirSync(join(dir, family)), join(dir, family))));
    const results: TmuxKeysResult[] = [];
    for (const file of files) results.push(await tmuxKeys(file, floor, { ...(options.afterKeys !== undefined ? { after: options.afterKeys } : {}) }));
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per file and phase: median and 90th percentile of each kind of key (targets: step < 16 ms, back and seek < 20 ms). */
export function formatKeys(results: readonly KeysResult[]): string {
  const f = (xs: readonly number[]): string => (xs.length === 0 ? '–' : `${median([...xs]).toFixed(1)} / ${quantile(xs, 0.9).toFixed(1)}`);
  const lines = ['keys through a pipe, key in the pipe to its frame written (ms, median / p90, count; targets: step < 16, back and seek < 20)'];
  for (const r of results) {
    lines.push(`  ${r.file.split('/').pop()}`);
    for (const phase of ['reading', 'computing', 'after'] as const) {
      const cells = (['step', 'back', 'seek'] as const).map((kind) => {
        const of = r.samples.filter((s) => s.phase === phase && s.kind === kind);
        const ms = of.flatMap((s) => (s.ms === undefined ? [] : [s.ms]));
        const missed = of.length - ms.length;
        return `${kind} ${f(ms)} (${ms.length}${missed > 0 ? `, ${missed} without a frame` : ''})`;
      });
      lines.push(`    ${phase.padEnd(9)} ${cells.join('   ')}`);
    }
  }
  return lines.join('\n');
}

export function formatUiBench(results: readonly UiBenchResult[]): string {
  return results.map(formatOne).join('\n');
}

function formatOne(r: UiBenchResult): string {
  const f = (ms: number | undefined): string => (ms === undefined ? 'n/a' : `${ms.toFixed(1)} ms`);
  const cold = r.coldStartMs === undefined ? [] : [`  cold start to first frame (node bin/joinstep.mjs, pty 120x40) ${f(r.coldStartMs)}; bare node through the same pty ${f(r.coldBaseMs)}`];
  return [
    `ui (${r.events.toLocaleString('en-US')} events, ${r.columns}x${r.rows}; medians; target < 16 ms per key)`,
    `  step ${f(r.stepMs)}   back ${f(r.backMs)}   jump ${f(r.jumpMs)}   (${Math.round(r.bytesPerFrame)} bytes/frame)`,
    `  jump p95 ${f(r.jumpP95Ms)}, worst ${f(r.jumpMaxMs)}; CPU p95 ${f(r.jumpCpuP95Ms)}, worst ${f(r.jumpCpuMaxMs)} (target < 20 ms)`,
    `  CPU per step / back key ${f(r.cpuMs)}`,
    `  G (last step) ${f(r.lastMs)} (CPU ${f(r.lastCpuMs)}), its result's rows after ${f(r.lastFilledMs)}; g (step 0) ${f(r.firstMs)} (CPU ${f(r.firstCpuMs)}), rows after ${f(r.firstFilledMs)}`,
    `  settled frame after a pause (result and state panes, beyond the 150 ms settle delay) ${f(r.settleMs)}`,
    `  first frame in-process ${f(r.firstFrameMs)} (timeline built in ${f(r.timelineMs)})`,
    ...cold,
  ].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const events = Number(process.env['BENCH_UI_EVENTS'] ?? 100_000);
  const jumps = Number(process.env['BENCH_UI_JUMPS'] ?? 10);
  const keys = Number(process.env['BENCH_UI_KEYS'] ?? 40);
  process.stdout.write(`${formatUiBench(await benchUi({ events, jumps, keys }))}\n`);
  const files = process.env['BENCH_UI_FILES']?.split(',').filter((f) => f !== '');
  const fileEvents = Number(process.env['BENCH_UI_FILE_EVENTS'] ?? 100_000);
  if (files !== undefined || fileEvents > 0) process.stdout.write(`${formatKeys(await benchKeys(files !== undefined ? { files } : { events: fileEvents }))}\n`);
  if ((files !== undefined || fileEvents > 0) && process.env['BENCH_UI_TMUX'] !== '0' && hasTmux()) {
    const results = await benchTmuxKeys(files !== undefined ? { files } : { events: fileEvents });
    process.stdout.write(`keys in tmux 80x24, send-keys to the frame in tmux's screen (ms, median / p90 (count); floor: the same key on a 1,000-event file)\n${results.map(formatTmuxKeys).join('\n')}\n`);
  }
}
