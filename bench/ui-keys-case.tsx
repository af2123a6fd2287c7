/**
 * Key to frame in the app's own process, apart from the terminal: the app opened on a scenario
 * file as the CLI opens it (its run computed as the file is read, load-and-run.ts; App with the
 * build, Ink, production React), its stdin a real pipe written by a second process, and each
 * frame timed as the app writes it. A key's latency runs from the moment its bytes are in the
 * pipe (the sender's clock, CLOCK_MONOTONIC like ours) to the write of the first frame whose
 * status line shows the step the key goes to; so it includes the wait for whatever the app's
 * loop was doing when the key came (a slice, a collection, a settled frame's queries), which a
 * key pressed from inside the loop would not see.
 *
 * Keys go `GAP_MS` (plus a random 0-40 ms, so that they land anywhere in a slice) after the
 * previous key's frame: `n n p G g :N⏎ n p` over and over while the file is read and while the
 * run computes, then the same for `AFTER` keys once it is complete. Bundle it as bench/ui.ts
 * bundles ui-case.tsx, then `node BUNDLE FILE [COLUMNS ROWS GAP_MS AFTER]`; prints one JSON line.
 */
import { spawn } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { render } from 'ink';
import { App } from '../src/ui/App.js';
import { loadAndRun } from '../src/ui/load-and-run.js';
import { inkStdout, TerminalOutput, type FrameSink } from '../src/ui/terminal-output.js';

class FakeStdout {
  readonly isTTY = true;
  constructor(readonly columns: number, readonly rows: number) {}
  write(): boolean {
    return true;
  }
  on(): this {
    return this;
  }
  off(): this {
    return this;
  }
  removeListener(): this {
    return this;
  }
}

/** What a key is, for the report: steps, steps back, and seeks (`G`, `g`, `:N⏎`). */
type Kind = 'step' | 'back' | 'seek';
type Phase = 'reading' | 'computing' | 'after';

export interface KeySample {
  readonly phase: Phase;
  readonly key: string;
  readonly kind: Kind;
  /** Key in the pipe to its frame written, ms; undefined: no such frame within 5 s. */
  readonly ms: number | undefined;
  /** Collections and run slices inside that span, ms. */
  readonly gcMs: number;
  readonly sliceMs: number;
  /** When the key was sent and its frame written, ms of CLOCK_MONOTONIC (a CPU profile's clock). */
  readonly sent: number;
  readonly drawn: number | undefined;
}

const [file = '/tmp/bf/temporal-1000000-jsonl.yaml', columns = '120', rows = '40', gap = '100', afterKeys = '40'] = process.argv.slice(2);
// The sender: a line `DUE KEYS` from us; at DUE (ms of CLOCK_MONOTONIC) it writes KEYS to its
// stdout (our stdin; pipes are written synchronously) and tells on stderr the time just before.
const sender = spawn(process.execPath, ['-e', `
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const [due, keys] = JSON.parse(line);
    setTimeout(function send() {
      if (now() < due) return void setTimeout(send, 0);
      const at = now();
      process.stdout.write(keys);
      process.stderr.write(at + '\\n');
    }, Math.max(0, due - now() - 1));
  });
`], { stdio: ['pipe', 'pipe', 'pipe'] });
// performance.now() and the monotonic clock differ by a constant.
const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
const sentAt: number[] = [];
const sentWaiters: ((at: number) => void)[] = [];
createInterface({ input: sender.stderr }).on('line', (line) => {
  const at = Number(line) - offset;
  const w = sentWaiters.shift();
  if (w !== undefined) w(at);
  else sentAt.push(at);
});
const nextSent = (): Promise<number> => new Promise((resolve) => {
  const at = sentAt.shift();
  if (at !== undefined) resolve(at);
  else sentWaiters.push(resolve);
});
const send = (keys: string, inMs: number): void => void sender.stdin.write(`${JSON.stringify([performance.now() + offset + inMs, keys])}\n`);

const gcs: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
}).observe({ entryTypes: ['gc'] });
const r = await loadAndRun(file, { firstMs: 30 });
if (r === undefined || !r.ok) throw new Error(`${file}: not loaded as the app loads a big file`);
const build = r.build;
build.advance(30);
const slices: { start: number; end: number }[] = [];
const timed = { session: build.session, progress: build.progress, advance: (ms: number) => {
  const start = performance.now();
  const p = build.advance(ms);
  slices.push({ start, end: performance.now() });
  return p;
} };
const overlap = (xs: readonly { start: number; end: number }[], from: number, to: number): number =>
  xs.reduce((sum, x) => sum + Math.max(0, Math.min(to, x.end) - Math.max(from, x.start)), 0);

// The frames: the step in the status line (first row) and whether a prompt shows `text`.
// eslint-disable-next-line no-control-regex
const plain = (row: string): string => row.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
let shown = -1;
let frameWaiter: { test: (step: number, rows: readonly string[]) => boolean; resolve: (at: number) => void } | undefined;
const output = new TerminalOutput(new FakeStdout(Number(columns), Number(rows)));
const sink: FrameSink = {
  draw(rowsDrawn, widths, cols) {
    output.draw(rowsDrawn, widths, cols);
    const at = performance.now();
    const m = /step (\d+)\//.exec(plain(rowsDrawn[0] ?? ''));
    if (m !== null) shown = Number(m[1]);
    if (frameWaiter?.test(shown, rowsDrawn) === true) {
      const w = frameWaiter;
      frameWaiter = undefined;
      w.resolve(at);
    }
  },
};
const frame = (test: (step: number, rows: readonly string[]) => boolean): Promise<number | undefined> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => {
      frameWaiter = undefined;
      resolve(undefined);
    }, 5000);
    frameWaiter = { test, resolve: (at) => (clearTimeout(timer), resolve(at)) };
  });

const stdin = Object.assign(sender.stdout, { isTTY: true, setRawMode: () => stdin });
const first = frame(() => true);
const app = render(<App session={build.session} build={timed} output={sink} />, {
  stdout: inkStdout(new FakeStdout(Number(columns), Number(rows)) as unknown as NodeJS.WriteStream, () => output.invalidate()),
  stdin: stdin as unknown as NodeJS.ReadStream,
  exitOnCtrlC: false,
  patchConsole: false,
});
await first;

const samples: KeySample[] = [];
const phase = (): Phase => {
  const p = build.progress();
  return p.reading !== undefined ? 'reading' : p.done ? 'after' : 'computing';
};
const wait = (): number => Number(gap) + Math.random() * 40;
/** One key: sent after the pause, timed to the frame that passes `test`. */
const key = async (keys: string, kind: Kind, test: (step: number) => boolean, pauseMs = wait()): Promise<void> => {
  const ph = phase();
  const done = frame((step) => test(step));
  send(keys, pauseMs);
  const sent = await nextSent();
  const at = await done;
  samples.push({ phase: ph, key: keys.replace('\r', '⏎'), kind, ms: at === undefined ? undefined : at - sent, gcMs: at === undefined ? 0 : overlap(gcs, sent, at), sliceMs: at === undefined ? 0 : overlap(slices, sent, at), sent: sent + offset, drawn: at === undefined ? undefined : at + offset });
};
const script = async (): Promise<void> => {
  const ready = build.progress().ready;
  const from = shown;
  if (from + 2 < ready) {
    await key('n', 'step', (s) => s === from + 1);
    await key('n', 'step', (s) => s === from + 2);
  }
  const at = shown;
  if (at > 0) await key('p', 'back', (s) => s === at - 1);
  const before = shown;
  await key('G', 'seek', (s) => s > before || (s === before && before === build.progress().ready - 1));
  await key('g', 'seek', (s) => s === 0);
  const target = 1 + Math.floor(Math.random() * (build.progress().ready - 2));
  const typed = frame((_s, rowsDrawn) => rowsDrawn.some((row) => plain(row).includes(`go to step`) && plain(row).includes(String(target))));
  send(`:${target}`, wait());
  await nextSent();
  await typed;
  await key('\r', 'seek', (s) => s === target, 40);
  await key('n', 'step', (s) => s === target + 1);
  await key('p', 'back', (s) => s === target);
};
while (phase() !== 'after') await script();
while (samples.filter((s) => s.phase === 'after').length < Number(afterKeys)) await script();
app.unmount();
sender.kill();
process.stdout.write(`${JSON.stringify({ file, columns: Number(columns), rows: Number(rows), samples })}\n`);
process.exit(0);
