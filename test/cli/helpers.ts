import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SPEC_EXAMPLES = fileURLToPath(new URL('../conformance/examples/', import.meta.url));

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI (dist/, built by `pretest`) as a user would, with no TTY. */
export function cli(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}): CliResult {
  const result = spawnSync(process.execPath, [`${ROOT}/bin/joinstep.mjs`, ...args], {
    cwd: options.cwd ?? ROOT,
    // FORCE_COLOR (set by some CI services) would win over NO_COLOR: tests set it themselves.
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env },
    encoding: 'utf8',
    timeout: options.timeout ?? 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
