/**
 * One benchmark case, run in its own process (so that its peak memory is its own): prints one
 * JSON line. `bench/run.ts` bundles this file with esbuild first, so that the code measured is
 * the code the CLI ships (a bundle), not tsx's on-the-fly transform.
 */
import { createOperator } from '../src/engine/joins/registry.js';
import { createTimelineWith } from '../src/engine/timeline-core.js';
import { benchScenario, type Family } from './scenarios.js';

export interface CaseResult {
  family: string;
  events: number;
  emitted: number;
  runMs: number;
  cpuMs: number;
  seekMs: number;
  backMs: number;
  peakMb: number;
}

/** Seeks measured after the run; `SEEKS=0` measures the run alone (for an instruction count). */
const SEEKS = Number(process.env.SEEKS ?? 50);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A fixed-seed generator (mulberry32): the same seeks every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function runCase(family: Family, n: number): CaseResult {
  const sc = benchScenario(family, n);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const tl = createTimelineWith(sc, 0, createOperator);
  const runMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const rand = rng(42);
  const seeks: number[] = [];
  const backs: number[] = [];
  for (let s = 0; s < SEEKS; s++) {
    const i = 2 + Math.floor(rand() * (tl.length - 2));
    const a = performance.now();
    tl.at(i);
    const b = performance.now();
    tl.at(i - 1);
    const c = performance.now();
    seeks.push(b - a);
    backs.push(c - b);
  }
  return {
    family,
    events: tl.length,
    emitted: tl.changelogSize(tl.length),
    runMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    seekMs: median(seeks),
    backMs: median(backs),
    peakMb: process.resourceUsage().maxRSS / 1024,
  };
}

const family = process.argv[2] as Family | undefined;
if (family !== undefined) {
  process.stdout.write(JSON.stringify(runCase(family, Number(process.argv[3] ?? 1_000_000))) + '\n');
}
