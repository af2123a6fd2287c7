/**
 * The UI benchmark's measuring process (bundled by bench/ui.ts with production React, like the
 * shipped CLI): the real App wired as startApp wires it (Ink runs React and the keys, the app
 * draws its frames itself) into a fake TTY (200x60 unless told), timing each key press until the
 * next frame is written. Prints one JSON line.
 */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { createTimeline } from '../src/engine/timeline.js';
import { App } from '../src/ui/App.js';
import { sessionInfo } from '../src/ui/session.js';
import { inkStdout, TerminalOutput } from '../src/ui/terminal-output.js';
import { benchScenario, type Family } from './scenarios.js';

/** Ink reads input through 'readable' + read(), and needs raw-mode calls to exist. */
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
  bytes = 0;
  private waiters: (() => void)[] = [];
  constructor(readonly columns: number, readonly rows: number) {
    super();
  }
  /** Resolved by the first write whose text passes the test (after the next write). */
  private watchers: { test: (text: string) => boolean; resolve: () => void }[] = [];
  write(text: string): boolean {
    this.bytes += text.length;
    this.watchers = this.watchers.filter((w) => !(w.test(text) && (w.resolve(), true)));
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
    return true;
  }
  writeWith(test: (text: string) => boolean): Promise<void> {
    return new Promise((resolve) => this.watchers.push({ test, resolve }));
  }
  nextWrite(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
// Keys 40 ms apart, as a fast typist: each key is its own frame (and Ink, which still runs React,
// throttles its own renders to 30 frames/s).
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 40));

export interface UiCaseResult {
  columns: number;
  rows: number;
  events: number;
  timelineMs: number;
  firstFrameMs: number;
  stepMs: number;
  backMs: number;
  jumpMs: number;
  /** Seeks (`:N Enter` to a random step): 95th percentile and worst, key to frame, and CPU. */
  jumpP95Ms: number;
  jumpMaxMs: number;
  jumpCpuP95Ms: number;
  jumpCpuMaxMs: number;
  settleMs: number;
  /**
   * `G` (the last step) and then `g` (step 0), from the middle of the run: key to its frame (and
   * that key's CPU), and key to the frame where the result pane has its rows (folded in slices).
   */
  lastMs: number;
  lastCpuMs: number;
  lastFilledMs: number;
  firstMs: number;
  firstCpuMs: number;
  firstFilledMs: number;
  cpuMs: number;
  bytesPerFrame: number;
}

async function main(family: Family, n: number, keys: number, columns: number, rows: number, jumps: number): Promise<UiCaseResult> {
  const scenario = benchScenario(family, n);
  const t0 = performance.now();
  const timeline = createTimeline(scenario);
  const timelineMs = performance.now() - t0;
  const stdin = new FakeStdin();
  const stdout = new FakeStdout(columns, rows);
  const first = stdout.nextWrite();
  const t1 = performance.now();
  const output = new TerminalOutput(stdout);
  const app = render(<App session={{ info: sessionInfo(scenario), timeline }} output={output} />, {
    stdout: inkStdout(stdout as unknown as NodeJS.WriteStream, () => output.invalidate()),
    stdin: stdin as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await first;
  const firstFrameMs = performance.now() - t1;
  await pause();
  // CPU time too: on a loaded machine wall time mostly measures the other processes.
  const cpu: number[] = [];
  const time = async (key: string): Promise<number> => {
    const frame = stdout.nextWrite();
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    stdin.press(key);
    await frame;
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu0);
    cpu.push((used.user + used.system) / 1000);
    await pause();
    return ms;
  };
  // Start in the middle of the run so that stepping sees a realistic state and changelog.
  for (const k of [':', ...String(n >> 1), '\r']) await time(k);
  const step: number[] = [];
  const back: number[] = [];
  const jump: number[] = [];
  const bytes0 = stdout.bytes;
  cpu.length = 0;
  for (let i = 0; i < keys; i++) step.push(await time('n'));
  for (let i = 0; i < keys; i++) back.push(await time('p'));
  const bytesPerFrame = (stdout.bytes - bytes0) / (2 * keys);
  const cpuMs = median(cpu);
  const jumpCpu: number[] = [];
  // Spread over the run (a prime stride), so that targets fall at every distance from a checkpoint.
  for (let i = 0; i < Math.max(5, jumps); i++) {
    const target = 1 + Math.floor((((i * 7919) % 997) / 997) * (n - 1));
    for (const k of [':', ...String(target)]) await time(k);
    jump.push(await time('\r'));
    jumpCpu.push(cpu[cpu.length - 1]!);
  }
  // The far ends: the result is folded in slices after the key's own frame; its rows come with
  // the frame whose result title counts them again.
  const ends: number[] = [];
  const plainText = (text: string): string => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  for (const key of ['G', 'g']) {
    // Step 0's result is empty: its pane says so instead of counting rows.
    const filled = stdout.writeWith((text) => (key === 'G' ? /result\s+[\d,]+ rows?/.test(plainText(text)) : plainText(text).includes('(empty)')));
    const start = performance.now();
    ends.push(await time(key), cpu[cpu.length - 1]!);
    await filled;
    ends.push(performance.now() - start);
  }
  const [lastMs, lastCpuMs, lastFilledMs, firstMs, firstCpuMs, firstFilledMs] = ends as [number, number, number, number, number, number];
  // Until the screen is quiet (the last fold's progress frames done), so that the next write after
  // a key's own frame is the settled one.
  while (await Promise.race([stdout.nextWrite().then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 300))]));
  // A pause after a step: the settled frame (with the slow result/state queries) follows the
  // 150 ms settle delay; report the time beyond that delay. Only changed rows are written, so
  // the settled frame is simply the next write after the key's own frame.
  const settle: number[] = [];
  for (let i = 0; i < 5; i++) {
    const frame = stdout.nextWrite();
    const start = performance.now();
    stdin.press('n');
    await frame;
    const settled = await Promise.race([stdout.nextWrite().then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 2000))]);
    // Nothing deferred (every query fast): there is no settled frame.
    settle.push(settled ? performance.now() - start - 150 : 0);
    await pause();
  }
  app.unmount();
  return { columns, rows, events: n, timelineMs, firstFrameMs, stepMs: median(step), backMs: median(back), jumpMs: median(jump), jumpP95Ms: quantile(jump, 0.95), jumpMaxMs: Math.max(...jump), jumpCpuP95Ms: quantile(jumpCpu, 0.95), jumpCpuMaxMs: Math.max(...jumpCpu), lastMs, lastCpuMs, lastFilledMs, firstMs, firstCpuMs, firstFilledMs, cpuMs, settleMs: median(settle), bytesPerFrame };
}

const [family = 'temporal', n = '100000', keys = '40', columns = '200', rows = '60', jumps = String(Number(keys) >> 2)] = process.argv.slice(2);
const result = await main(family as Family, Number(n), Number(keys), Number(columns), Number(rows), Number(jumps));
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
