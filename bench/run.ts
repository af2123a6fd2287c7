/**
 * `npm run bench`: per join family, on generated events (1M by default; BENCH_EVENTS=n to
 * change; case names as arguments to run only those): events/s of a full run (timeline
 * creation; wall clock, and CPU time for a loaded machine), peak memory (max RSS of a fresh
 * process per case), and the median time to seek to a random step (50 seeks) and to step back.
 * Each case runs BENCH_RUNS times (default 3) and the table shows per-column medians.
 * Targets: >= 500k events/s, seek and back <= 20 ms median, peak memory < 1 GB.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { CaseResult } from './case.js';
import { FAMILIES } from './scenarios.js';

const N = Number(process.env.BENCH_EVENTS ?? 1_000_000);
/** Runs per case (BENCH_RUNS=n): the table shows each column's median over the runs. */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

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

const dir = mkdtempSync(join(tmpdir(), 'joinstep-bench-'));
try {
  const bundle = join(dir, 'case.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./case.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'warning',
  });
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const results: CaseResult[] = [];
  for (const family of FAMILIES.filter((f) => only.length === 0 || only.includes(f))) {
    const runs: CaseResult[] = [];
    for (let r = 0; r < RUNS; r++) {
      const child = spawnSync(process.execPath, [bundle, family, String(N)], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (child.status !== 0) {
        process.stderr.write(`${family}: failed\n${child.stderr}\n`);
        break;
      }
      runs.push(JSON.parse(child.stdout.trim().split('\n').pop()!) as CaseResult);
      process.stderr.write(`${family}: run ${r + 1}/${RUNS} done\n`);
    }
    if (runs.length > 0) results.push(medianOf(runs));
  }
  process.stdout.write(table(results) + '\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
