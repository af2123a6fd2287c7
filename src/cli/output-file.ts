/**
 * Files the user names on the command line for a command's output (`record --out`, `--frames`,
 * `--svg`), written without risking another file: the scenario itself, or a file that holds
 * something else than this output (a typo such as `--out scenario.yaml`), is refused before
 * anything is written; a regular file is replaced atomically (a temporary file beside it, then a
 * rename), so a failed write (a full disk) leaves the old file whole; a symbolic link keeps
 * pointing where it did (its target is what gets replaced). A device or a pipe (`/dev/stdout`,
 * `/dev/full`) is written in place, as a shell redirection would.
 */
import { closeSync, fstatSync, openSync, readSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** What one output file holds, to tell an earlier one of the same kind (safe to replace) from a user's file. */
export interface OutputKind {
  /** The option that names it, for messages: `--out`. */
  readonly option: string;
  /** What it holds, for messages: `an asciicast`. */
  readonly what: string;
  /** Whether a file starting with `head` (up to 4 KiB of it) is one of these. */
  readonly looksLike: (head: string) => boolean;
}

/** One output the command line names. */
export interface OutputFile {
  readonly path: string;
  readonly kind: OutputKind;
}

export type OutputRefusal = { readonly message: string; readonly hint: string };

const HEAD_BYTES = 4096;

/** The path with every symbolic link resolved, or the absolute path when it does not exist (yet). */
function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether two paths name one file, symbolic links followed (a path that does not exist names itself). */
export function sameFile(a: string, b: string): boolean {
  return realOrResolved(a) === realOrResolved(b);
}

/** Whether `path` is this process's standard output (`/dev/stdout`, or the file or pipe it goes to). */
export function isStandardOutput(path: string): boolean {
  try {
    const a = statSync(path);
    const b = fstatSync(1);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

function head(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Why the outputs must not be written, checked for all of them before any is: one names a
 * protected file (the scenario), two name the same file, or one names an existing regular file
 * that is not empty and not a file of its kind. Undefined when all may be written.
 */
export function refuseOutputs(files: readonly OutputFile[], protectedPaths: readonly string[]): OutputRefusal | undefined {
  const guarded = new Set(protectedPaths.map(realOrResolved));
  const seen = new Map<string, OutputFile>();
  for (const f of files) {
    const real = realOrResolved(f.path);
    if (guarded.has(real)) {
      return { message: `${f.kind.option} ${f.path} names the scenario file itself: not overwriting it`, hint: `write ${f.kind.what} to a file of its own` };
    }
    const twin = seen.get(real);
    if (twin !== undefined) {
      return { message: `${twin.kind.option} and ${f.kind.option} both name ${f.path}`, hint: 'give each output a file of its own' };
    }
    seen.set(real, f);
    let stat;
    try {
      stat = statSync(f.path);
    } catch {
      continue; // missing (written new) or unreachable (the write says why)
    }
    if (!stat.isFile() || stat.size === 0) continue;
    let text: string;
    try {
      text = head(f.path);
    } catch {
      continue; // unreadable: the write says why
    }
    if (!f.kind.looksLike(text)) {
      return { message: `${f.path} exists and is not ${f.kind.what}: not overwriting it`, hint: `choose another ${f.kind.option} path, or remove the file first` };
    }
  }
  return undefined;
}

/**
 * Writes `data` to `path`: a regular file (or a new one) through a temporary file and a rename,
 * anything else (a device, a pipe) in place. Throws Node's error, naming no temporary path.
 */
export function writeOutputFile(path: string, data: string): void {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    stat = undefined;
  }
  if (stat !== undefined && !stat.isFile()) {
    writeFileSync(path, data);
    return;
  }
  const target = realOrResolved(path);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, data, { flag: 'wx', mode: stat === undefined ? 0o666 : stat.mode & 0o777 });
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
