/** Driving the built app in a private tmux server: start, read the screen, wait for a frame. */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const FIXTURE = join(import.meta.dirname, 'fixtures', 'temporal-two-partitions.yaml');
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  const bundle = join(ROOT, 'dist', 'cli.mjs');
  return !existsSync(bundle) || statSync(bundle).mtimeMs < newestMtime(join(ROOT, 'src'));
}

/**
 * Builds the bundle when it is missing or older than the sources (`npm test` builds first
 * anyway). Test files run in parallel: a lock file keeps two builds from writing dist at once.
 */
export async function ensureBuilt(): Promise<void> {
  const lock = join(tmpdir(), 'joinstep-e2e-build.lock');
  const end = Date.now() + 120_000;
  while (stale()) {
    let fd: number | undefined;
    try {
      fd = openSync(lock, 'wx');
    } catch {
      // Another test file is building: wait for its lock to go, then look again.
      if (Date.now() > end) throw new Error(`build lock ${lock} held for 2 minutes; remove it if no test is running`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      if (stale()) execFileSync('node', ['build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    } finally {
      closeSync(fd);
      rmSync(lock, { force: true });
    }
  }
}

export class Tmux {
  private readonly socket = `joinstep-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  readonly session = 'app';

  run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Starts `shellCommand` in a detached session of the given size, in the repository root. */
  start(shellCommand: string, columns = 100, rows = 30): void {
    // CI=false: with CI set, Ink writes only the last frame and ignores resizes.
    this.run('new-session', '-d', '-s', this.session, '-x', String(columns), '-y', String(rows), '-c', ROOT, '-e', 'CI=false', '-e', 'NO_COLOR=', shellCommand);
  }

  keys(...keys: string[]): void {
    for (const k of keys) this.run('send-keys', '-t', this.session, k);
  }

  screen(): string {
    return this.run('capture-pane', '-p', '-t', this.session);
  }

  display(format: string): string {
    return this.run('display-message', '-p', '-t', this.session, format).trim();
  }

  /** Polls the pane until `ok(screen)` holds; the timeout only bounds a failure. */
  async waitFor(ok: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < end) {
      last = this.screen();
      if (ok(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
  }

  kill(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
  }
}

/** The shell command that runs the app between two markers and prints its exit status. */
export function appCommand(args: string): string {
  return `echo BEFORE-APP; node bin/joinstep.mjs ${args}; echo "EXIT=$?"; sleep 600`;
}

export const lines = (text: string): string[] => text.split('\n');
