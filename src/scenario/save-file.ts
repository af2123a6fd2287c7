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

export async function saveScenarioFile(path: string, text: string, fs: SaveFs = nodeSaveFs): Promise<void> {
  // A rename over the link would replace the link by a file and leave its target unsaved.
  const target = await fs.realPath(path);
  const dir = dirname(target);
  const mode = await fs.mode(target);
  // A file nobody may write (chmod a-w) is kept as it is, as an editor keeps a read-only file:
  // the rename below would replace it all the same, since that needs only the folder's permission.
  if (mode !== undefined && (mode & 0o222) === 0) {
    throw Object.assign(new Error(`${path} is read-only: not saved (make it writable to save, or save the edit by hand)`), { code: 'EACCES' });
  }
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
