/**
 * Saves an edited scenario file atomically: the new text goes to a temporary file in the same
 * directory (same file system, so the rename is atomic), is flushed to disk, then renamed over
 * the original. A crash at any point leaves either the old file or the new one, never half of
 * one. The previous content is kept beside it as `FILE.bak`. A scenario opened through a
 * symbolic link is saved into the file the link points to, and the link stays a link. A file
 * without any write permission is not saved.
 */
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The file operations a save uses; tests replace one to simulate a crash. */
export interface SaveFs {
  readonly readFile: (path: string) => Promise<Buffer>;
  readonly writeFile: (path: string, data: string | Buffer) => Promise<void>;
  readonly writeSynced: (path: string, data: string, mode: number | undefined) => Promise<void>;
  readonly rename: (from: string, to: string) => Promise<void>;
  readonly unlink: (path: string) => Promise<void>;
  readonly mode: (path: string) => Promise<number | undefined>;
  readonly syncDir: (dir: string) => Promise<void>;
  /** The path with its symbolic links resolved; the path itself when it does not exist. */
  readonly realPath: (path: string) => Promise<string>;
}

export const nodeSaveFs: SaveFs = {
  readFile: (path) => fsp.readFile(path),
  writeFile: (path, data) => fsp.writeFile(path, data),
  async writeSynced(path, data, mode) {
    // 'wx': never reuse a stray file of the same name.
    const handle = await fsp.open(path, 'wx', mode ?? 0o644);
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => fsp.rename(from, to),
  unlink: (path) => fsp.unlink(path),
  async mode(path) {
    try {
      return (await fsp.stat(path)).mode & 0o777;
    } catch {
      return undefined;
    }
  },
  async syncDir(dir) {
    // Makes the rename itself durable; not every platform can open a directory, which is fine.
    try {
      const handle = await fsp.open(dir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // best effort
    }
  },
  realPath: (path) => fsp.realpath(path).catch(() => path),
};

let counter = 0;

/** A scenario file nobody may write, which a save leaves as it is. */
export class ReadOnlyScenario extends Error {
  readonly code = 'EACCES';

  constructor(path: string) {
    super(`${path} is read-only: not saved (make it writable to save, or save the edit by hand)`);
  }
}

/** The reasons of the failures a save meets, by Node's error code, in the message bar's words. */
const SAVE_REASONS: Readonly<Record<string, (dir: string) => string>> = {
  EACCES: (dir) => `permission denied in ${dir}`,
  EPERM: (dir) => `permission denied in ${dir}`,
  EROFS: () => 'the file system is read-only',
  ENOSPC: () => 'the disk is full',
  EDQUOT: () => 'the disk quota is used up',
  ENOENT: (dir) => `${dir} no longer exists`,
  EIO: () => 'the disk reported an error',
};

/**
 * Why a save of `path` failed, for the message bar. Every failure comes before the rename, so the
 * scenario file is as it was. Node's own message names the temporary file (a name the user never
 * chose) and the system call; this names the scenario and its folder instead.
 */
export function saveFailureText(path: string, error: unknown): string {
  if (error instanceof ReadOnlyScenario) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = code !== undefined ? SAVE_REASONS[code] : undefined;
  const why = reason !== undefined ? reason(dirname(path)) : code !== undefined ? `the file system refused it (${code})` : error instanceof Error ? error.message : String(error);
  return `${path} not saved: ${why}; the file is unchanged`;
}

export async function saveScenarioFile(path: string, text: string, fs: SaveFs = nodeSaveFs): Promise<void> {
  // A rename over the link would replace the link by a file and leave its target unsaved.
  const target = await fs.realPath(path);
  const dir = dirname(target);
  const mode = await fs.mode(target);
  // A file nobody may write (chmod a-w) is kept as it is, as an editor keeps a read-only file:
  // the rename below would replace it all the same, since that needs only the folder's permission.
  if (mode !== undefined && (mode & 0o222) === 0) throw new ReadOnlyScenario(path);
  const previous = await readIfExists(fs, target);
  if (previous !== undefined) await fs.writeFile(`${path}.bak`, previous);
  const temp = join(dir, `.${basename(target)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  try {
    await fs.writeSynced(temp, text, mode);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await fs.syncDir(dir);
}

async function readIfExists(fs: SaveFs, path: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(path);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}
