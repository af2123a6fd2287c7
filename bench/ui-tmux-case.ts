/**
 * Keys as a person sees them: the built CLI (`node bin/joinstep.mjs FILE`) in a private tmux
 * server, keys sent with `send-keys`, and a key's time runs until tmux's own copy of the screen
 * shows the step the key goes to. The floor is measured alongside: after every key on the big
 * file, the same key on a small file's app in a second session of the same server (what tmux,
 * Ink and a key's path cost whatever the file).
 *
 * One control-mode client per session (`tmux -C attach`, ignore-size) carries the commands
 * without a process per command; it is told of every write the app makes to its pane
 * (`%output`), and each such write is followed by a `capture-pane` of the screen: so the frame
 * is seen as soon as tmux has it, without polling on a timer (a poll every 20 ms would add up to
 * 20 ms, and a tight poll loop would take a core from the app on a 2-core machine).
 *
 * Keys go 100-140 ms after the previous key's frame: `→ n ← G g :N⏎ n p` over and over while the
 * file is read and while the run computes, then until `after` keys once it is complete (the
 * in-process bench/ui-keys-case.tsx does the same through a pipe).
 *
 *   tsx bench/ui-tmux-case.ts FILE FLOOR_FILE [COLUMNS ROWS AFTER [APP]]   → one JSON line
 *
 * APP: the CLI's entry to run (this checkout's bin/joinstep.mjs unless told): a copy of another
 * build's bin/ and dist/ compares two builds in alternating runs.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export type TmuxKind = 'step' | 'back' | 'seek';
export type TmuxPhase = 'reading' | 'computing' | 'after';

export interface TmuxKeySample {
  readonly phase: TmuxPhase;
  readonly key: string;
  readonly kind: TmuxKind;
  /** send-keys written to its frame seen in tmux, ms; undefined: none within 10 s. */
  readonly ms: number | undefined;
  /** The same key on the small file's app right after: the floor at that moment. */
  readonly floorMs: number | undefined;
  /** Bytes the app wrote to the terminal from the key to its frame (the floor's beside). */
  readonly bytes: number;
  readonly floorBytes: number;
}

export interface TmuxKeysResult {
  readonly file: string;
  readonly columns: number;
  readonly rows: number;
  /** Load averages (1 min) at the start and the end. */
  readonly load: readonly [number, number];
  /** From the app's start to its first frame with steps, and to its run complete, ms. */
  readonly firstFrameMs: number;
  readonly completeMs: number | undefined;
  readonly samples: readonly TmuxKeySample[];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const hasTmux = (): boolean => spawnSync('tmux', ['-V']).status === 0;

/** A control-mode client attached to one session: commands in order, and the pane's writes. */
class Control {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: ((lines: string[]) => void)[] = [];
  private block: string[] | undefined;
  /** Called on every `%output` of the session's pane. */
  onOutput: () => void = () => {};
  /** Bytes written to the pane so far (control mode writes a byte below 32, and a backslash, as a 4-character octal escape). */
  bytes = 0;

  constructor(socket: string, session: string) {
    this.child = spawn('tmux', ['-L', socket, '-C', 'attach-session', '-f', 'ignore-size', '-t', session]);
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      if (this.block !== undefined) {
        if (line.startsWith('%end ') || line.startsWith('%error ')) {
          const lines = this.block;
          this.block = undefined;
          // The attach's own block comes first, unasked for: only answers to commands resolve.
          if (line.split(' ')[3] === '1') this.pending.shift()?.(lines);
        } else this.block.push(line);
      } else if (line.startsWith('%begin ')) this.block = [];
      else if (line.startsWith('%output ')) {
        const data = line.slice(line.indexOf(' ', 8) + 1);
        this.bytes += Buffer.byteLength(data) - 3 * (data.match(/\\[0-7]{3}/g)?.length ?? 0);
        this.onOutput();
      }
    });
  }

  command(text: string): Promise<string[]> {
    return new Promise((resolve) => {
      this.pending.push(resolve);
      this.child.stdin.write(`${text}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

/** One app in a session: its screen as tmux holds it, and a wait for a screen that passes a test. */
class Pane {
  screen: string[] = [];
  private capturing = false;
  private again = false;
  private waiter: { test: (screen: readonly string[]) => boolean; resolve: (at: number | undefined) => void } | undefined;

  constructor(readonly control: Control, readonly target: string) {
    control.onOutput = () => void this.capture();
  }

  /** Captures the screen after a write; a write during a capture is followed by one more. */
  async capture(): Promise<void> {
    if (this.capturing) {
      this.again = true;
      return;
    }
    this.capturing = true;
    do {
      this.again = false;
      this.screen = await this.control.command(`capture-pane -p -t ${this.target}`);
      const at = performance.now();
      if (this.waiter?.test(this.screen) === true) {
        const w = this.waiter;
        this.waiter = undefined;
        w.resolve(at);
      }
    } while (this.again);
    this.capturing = false;
  }

  /** Resolves with the time the screen passed `test` (now, if it does), undefined after `timeoutMs`. */
  until(test: (screen: readonly string[]) => boolean, timeoutMs = 10_000): Promise<number | undefined> {
    if (test(this.screen)) return Promise.resolve(performance.now());
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve(undefined);
      }, timeoutMs);
      this.waiter = { test, resolve: (at) => (clearTimeout(timer), resolve(at)) };
      // A frame written before the waiter was set was captured already; one more look costs little.
      void this.capture();
    });
  }

  /** Sends tmux key names; resolves with the time just before the command was written. */
  keys(...names: string[]): number {
    const at = performance.now();
    void this.control.command(`send-keys -t ${this.target} ${names.join(' ')}`);
    return at;
  }
}

/** The step in the status line (first row), the steps ready (the timeline pane's `step N/M`), the phase. */
const stepOf = (screen: readonly string[]): number => Number(/step (\d+)\//.exec(screen[0] ?? '')?.[1] ?? -1);
const readyOf = (screen: readonly string[]): number => {
  for (const row of screen.slice(1)) {
    const m = /step \d+\/(\d+)/.exec(row);
    if (m !== null) return Number(m[1]);
  }
  return 0;
};
const phaseOf = (screen: readonly string[]): TmuxPhase => {
  const head = screen[0] ?? '';
  return head.includes('reading') ? 'reading' : /step \d+\/\d+\+/.test(head) ? 'computing' : 'after';
};

export async function tmuxKeys(file: string, floorFile: string, options: { columns?: number; rows?: number; after?: number; app?: string } = {}): Promise<TmuxKeysResult> {
  const columns = options.columns ?? 80;
  const rows = options.rows ?? 24;
  const socket = `joinstep-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]): void => void spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { stdio: 'ignore' });
  const app = (f: string): string => `node ${options.app ?? join(ROOT, 'bin', 'joinstep.mjs')} ${f}`;
  const env = ['-e', 'CI=false', '-e', 'NO_COLOR='];
  const load0 = loadavg()[0] ?? 0;
  let socketPath = '';
  try {
    tmux('new-session', '-d', '-s', 'floor', '-x', String(columns), '-y', String(rows), ...env, app(floorFile));
    socketPath = spawnSync('tmux', ['-L', socket, 'display-message', '-p', '#{socket_path}'], { encoding: 'utf8' }).stdout.trim();
    const floor = new Pane(new Control(socket, 'floor'), 'floor');
    await floor.until((s) => stepOf(s) >= 0 && phaseOf(s) === 'after', 30_000);
    const start = performance.now();
    tmux('new-session', '-d', '-s', 'big', '-x', String(columns), '-y', String(rows), ...env, app(file));
    const big = new Pane(new Control(socket, 'big'), 'big');
    const first = await big.until((s) => stepOf(s) >= 0 && readyOf(s) > 2, 60_000);
    if (first === undefined) throw new Error(`${file}: no frame with steps within 60 s`);
    let complete: number | undefined;
    const samples: TmuxKeySample[] = [];
    const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 40));
    /** Sends `names` to `pane` and waits for a screen whose step passes `test`. */
    let written = 0;
    const timed = async (pane: Pane, names: readonly string[], test: (step: number, ready: number) => boolean): Promise<number | undefined> => {
      const from = pane.control.bytes;
      const sent = pane.keys(...names);
      const at = await pane.until((s) => test(stepOf(s), readyOf(s)));
      written = pane.control.bytes - from;
      return at === undefined ? undefined : at - sent;
    };
    /** A key on the big file, then the same kind of key on the floor's app from where it is. */
    const key = async (names: readonly string[], kind: TmuxKind, test: (step: number, ready: number) => boolean, floorTest: (step: number, ready: number) => boolean): Promise<void> => {
      await pause();
      const phase = phaseOf(big.screen);
      const ms = await timed(big, names, test);
      const bytes = written;
      if (complete === undefined && phaseOf(big.screen) === 'after') complete = performance.now() - start;
      await pause();
      const floorMs = await timed(floor, names, floorTest);
      samples.push({ phase, key: names.join(' '), kind, ms, floorMs, bytes, floorBytes: written });
    };
    /** Types `:N` (no key timed: the prompt), then times Enter. */
    const seekTo = async (pane: Pane, target: number): Promise<number | undefined> => {
      pane.keys(':', ...String(target).split(''));
      await pane.until((s) => s.some((row) => row.includes('go to step') && row.includes(String(target))));
      await new Promise((resolve) => setTimeout(resolve, 40));
      return timed(pane, ['Enter'], (step) => step === target);
    };
    const script = async (): Promise<void> => {
      const from = stepOf(big.screen);
      const f = stepOf(floor.screen);
      const fReady = readyOf(floor.screen);
      if (from + 2 < readyOf(big.screen)) {
        await key(['Right'], 'step', (s) => s === from + 1, (s) => s === f + 1);
        const f2 = stepOf(floor.screen);
        await key(['n'], 'step', (s) => s === from + 2, (s) => s === f2 + 1);
      }
      const at = stepOf(big.screen);
      const fAt = stepOf(floor.screen);
      if (at > 0 && fAt > 0) await key(['Left'], 'back', (s) => s === at - 1, (s) => s === fAt - 1);
      const before = stepOf(big.screen);
      await key(['G'], 'seek', (s) => s > before, (s, ready) => s === ready);
      await key(['g'], 'seek', (s) => s === 0, (s) => s === 0);
      const target = 1 + Math.floor(Math.random() * (readyOf(big.screen) - 2));
      const fTarget = 1 + Math.floor(Math.random() * (fReady - 2));
      await pause();
      const phase = phaseOf(big.screen);
      const ms = await seekTo(big, target);
      const bytes = written;
      await pause();
      const floorMs = await seekTo(floor, fTarget);
      samples.push({ phase, key: ':N⏎', kind: 'seek', ms, floorMs, bytes, floorBytes: written });
      await key(['n'], 'step', (s) => s === target + 1, (s) => s === fTarget + 1);
      await key(['p'], 'back', (s) => s === target, (s) => s === fTarget);
    };
    while (phaseOf(big.screen) !== 'after') await script();
    complete ??= performance.now() - start;
    while (samples.filter((s) => s.phase === 'after').length < (options.after ?? 24)) await script();
    big.keys('q');
    floor.keys('q');
    big.control.close();
    floor.control.close();
    return { file, columns, rows, load: [load0, loadavg()[0] ?? 0], firstFrameMs: first - start, completeMs: complete, samples };
  } finally {
    tmux('kill-server');
    // The server leaves its socket behind when its control clients are killed with it.
    if (socketPath !== '') rmSync(socketPath, { force: true });
  }
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const quantile = (xs: readonly number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(q * xs.length) - 1)] ?? NaN;

/** Per phase and kind: median / p90 (count), the floor's beside it (targets: step < 16 ms, back and seek < 20 ms). */
export function formatTmuxKeys(r: TmuxKeysResult): string {
  const f = (xs: readonly number[]): string => (xs.length === 0 ? '–' : `${median(xs).toFixed(1)} / ${quantile(xs, 0.9).toFixed(1)} (${xs.length})`);
  const lines = [
    `  ${r.file.split('/').pop()} in tmux ${r.columns}x${r.rows}, load ${r.load[0].toFixed(1)}-${r.load[1].toFixed(1)}: first frame ${(r.firstFrameMs / 1000).toFixed(2)} s, run complete ${r.completeMs === undefined ? '?' : (r.completeMs / 1000).toFixed(1)} s`,
  ];
  for (const phase of ['reading', 'computing', 'after'] as const) {
    const cells = (['step', 'back', 'seek'] as const).map((kind) => {
      const of = r.samples.filter((s) => s.phase === phase && s.kind === kind);
      const ms = of.flatMap((s) => (s.ms === undefined ? [] : [s.ms]));
      const fl = of.flatMap((s) => (s.floorMs === undefined ? [] : [s.floorMs]));
      const missed = of.length - ms.length;
      return `${kind} ${f(ms)}${missed > 0 ? ` ${missed} without a frame` : ''} floor ${f(fl)}`;
    });
    lines.push(`    ${phase.padEnd(9)} ${cells.join('   ')}`);
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, floorFile, columns = '80', rows = '24', after = '24', appEntry] = process.argv.slice(2);
  if (file === undefined || floorFile === undefined) throw new Error('usage: tsx bench/ui-tmux-case.ts FILE FLOOR_FILE [COLUMNS ROWS AFTER]');
  const r = await tmuxKeys(file, floorFile, { columns: Number(columns), rows: Number(rows), after: Number(after), ...(appEntry !== undefined ? { app: appEntry } : {}) });
  process.stderr.write(`${formatTmuxKeys(r)}\n`);
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
