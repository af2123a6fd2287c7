/**
 * Progress on stderr for long loads and runs (`run`, `test`): nothing for the first third of a
 * second (most scenarios are done by then), then one line redrawn at most ten times a second,
 * with what is done, the rate and an estimate of the time left; the line is erased when the
 * stage ends, so stdout and the final stderr read as without it. Only when stderr is a terminal.
 */
import { printable } from '../values/printable.js';

/** Called by a loop with how much is done (and of how much, when known). */
export type ProgressFn = (done: number, total?: number) => void;

export interface ProgressOptions {
  readonly write: (text: string) => void;
  readonly now?: () => number;
  /** Quiet for this long after a stage starts. */
  readonly delayMs?: number;
}

const DELAY_MS = 333;
const REDRAW_MS = 100;
/** Loops report every event; the clock is read only every this many. */
const CHECK_EVERY = 1024;

export class Progress {
  private readonly now: () => number;
  private shown = false;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** A progress function for one stage, e.g. `stage('loading', 'events read')`. */
  stage(label: string, unit: string): ProgressFn {
    const start = this.now();
    let last = -Infinity;
    return (done, total) => {
      if (done % CHECK_EVERY !== 0) return;
      const t = this.now();
      if (t - start < (this.options.delayMs ?? DELAY_MS) || t - last < REDRAW_MS) return;
      last = t;
      this.draw(progressLine(label, unit, done, total, t - start));
    };
  }

  /** Erases the line, if one was drawn (before printing anything else to stderr). */
  done(): void {
    if (!this.shown) return;
    this.options.write('\r\x1b[K');
    this.shown = false;
  }

  private draw(line: string): void {
    // The label may quote a file name: no control character reaches the terminal raw.
    this.options.write(`\r\x1b[K${printable(line)}`);
    this.shown = true;
  }
}

/** `joinstep: loading: 420,000 of 1,000,000 events read, 1,200,000/s, about 1 s left` */
export function progressLine(label: string, unit: string, done: number, total: number | undefined, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
  const count = total === undefined ? `${n(done)} ${unit}` : `${n(done)} of ${n(total)} ${unit}`;
  const left = total !== undefined && rate > 0 ? `, about ${Math.max(1, Math.ceil((total - done) / rate))} s left` : '';
  return `joinstep: ${label}: ${count}, ${n(Math.round(rate))}/s${left}`;
}

function n(x: number): string {
  return x.toLocaleString('en-US');
}

/** Progress on stderr when it is a terminal, else undefined. */
export function stderrProgress(): Progress | undefined {
  if (process.stderr.isTTY !== true) return undefined;
  return new Progress({ write: (text) => process.stderr.write(text) });
}
