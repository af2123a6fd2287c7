/**
 * The app on a big scenario file as the CLI opens it (its run computed as the file is read,
 * load-and-run.ts; with UI_LOAD=old, the file read whole first and the run computed after), in
 * process through Ink into a fake TTY, production React: key to frame and its CPU for keys sent
 * while the file is read and the run computes, the run slices started between a key and its
 * frame (`between`), the longest slices, the collections over 10 ms, CPU and wall to completion.
 * Bundle it as bench/ui.ts bundles ui-case.tsx, then `node BUNDLE FILE [COLUMNS ROWS KEYS GAP_MS]`;
 * prints one JSON line.
 */
import { EventEmitter } from 'node:events';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { render } from 'ink';
import { App } from '../src/ui/App.js';
import { loadAndRun } from '../src/ui/load-and-run.js';
import { loadBuild } from '../src/ui/session-load.js';
import { inkStdout, TerminalOutput } from '../src/ui/terminal-output.js';

class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  setRawMode(): void {}
  setEncoding(): void {}
  ref(): void {}
  unref(): void {}
  resume(): void {}
  pause(): void {}
  read(): string | null {
    const d = this.data;
    this.data = null;
    return d;
  }
  press(key: string): void {
    this.data = key;
    this.emit('readable');
  }
}

class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  text = '';
  writes = 0;
  private waiters: (() => void)[] = [];
  constructor(readonly columns: number, readonly rows: number) {
    super();
  }
  write(text: string): boolean {
    this.text = text;
    this.writes++;
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
    return true;
  }
  nextWrite(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

const [file = '/tmp/bf/temporal-1000000-jsonl.yaml', columns = '120', rows = '40', keyCount = '20', gap = '150'] = process.argv.slice(2);
const t0 = performance.now();
const gcs: { at: number; ms: number; kind: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ at: Math.round(e.startTime - t0), ms: Math.round(e.duration * 10) / 10, kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0 });
}).observe({ entryTypes: ['gc'] });
// `old`: read the whole file, then compute (before the run went with the read).
const r = process.env['UI_LOAD'] === 'old' ? await loadBuild(file) : await loadAndRun(file, { firstMs: 30 });
if (r === undefined || !r.ok) throw new Error('load failed');
const loadMs = performance.now() - t0;
const build = r.build;
if (process.env['UI_LOAD'] === 'old') build.advance(30);
const slices: { at: number; ms: number }[] = [];
const timed = { session: build.session, progress: build.progress, advance: (ms: number) => {
  const s = performance.now();
  const p = build.advance(ms);
  slices.push({ at: s - t0, ms: Math.round((performance.now() - s) * 10) / 10 });
  return p;
} };
const stdin = new FakeStdin();
const stdout = new FakeStdout(Number(columns), Number(rows));
const first = stdout.nextWrite();
const output = new TerminalOutput(stdout);
const app = render(<App session={build.session} build={timed} output={output} />, {
  stdout: inkStdout(stdout as unknown as NodeJS.WriteStream, () => output.invalidate()),
  stdin: stdin as unknown as NodeJS.ReadStream,
  exitOnCtrlC: false,
  patchConsole: false,
});
await first;
const firstFrameMs = performance.now() - t0;
const lag = monitorEventLoopDelay({ resolution: 5 });
lag.enable();
const keys: { reading: boolean; between: number[]; key: string; at: number; ms: number; cpu: number }[] = [];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const seq = ['n', 'n', 'n', 'p', 'n', 'G', 'g', 'n', 'n', 'p'];
for (let i = 0; i < Number(keyCount) && !build.progress().done; i++) {
  await sleep(Number(gap));
  const key = seq[i % seq.length]!;
  const frame = stdout.nextWrite();
  const s = performance.now();
  const c0 = process.cpuUsage();
  stdin.press(key);
  await frame;
  const c = process.cpuUsage(c0);
  const between = slices.filter((x) => x.at >= s - t0 - 0.5).map((x) => x.ms);
  keys.push({ reading: build.progress().reading !== undefined, between, key, at: Math.round(s - t0), ms: Math.round((performance.now() - s) * 10) / 10, cpu: Math.round((c.user + c.system) / 100) / 10 });
}
while (!build.progress().done) await sleep(50);
const doneMs = performance.now() - t0;
const cpuAll = process.cpuUsage();
lag.disable();
app.unmount();
const sorted = [...slices].sort((a, b) => b.ms - a.ms);
const bigGcs = gcs.filter((g) => g.ms >= 10);
process.stdout.write(`${JSON.stringify({ loadMs: Math.round(loadMs), firstFrameMs: Math.round(firstFrameMs), doneMs: Math.round(doneMs), cpuMs: Math.round((cpuAll.user + cpuAll.system) / 1000), keys, slicesLongest: sorted.slice(0, 8), sliceCount: slices.length, gcOver10: bigGcs, lagMaxMs: lag.max / 1e6, peakMb: Math.round(process.memoryUsage().rss / 1048576) })}\n`);
process.exit(0);
