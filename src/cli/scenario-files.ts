/** Finds scenario files: a file is itself, a directory is every .yaml/.yml below it, sorted. */
import { readdirSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';

const SCENARIO_EXT = /\.ya?ml$/i;

/** A folder below a given directory that could not be listed (EACCES, ENAMETOOLONG, ...). */
export interface UnreadableFolder {
  readonly path: string;
  readonly code: string;
}

export function findScenarioFiles(paths: readonly string[]): { files: string[]; missing: string[]; unreadable: UnreadableFolder[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const unreadable: UnreadableFolder[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      missing.push(path);
      continue;
    }
    if (isDir) files.push(...walk(path, unreadable));
    else files.push(path);
  }
  return { files, missing, unreadable };
}

function walk(dir: string, unreadable: UnreadableFolder[]): string[] {
  const out: string[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    // One folder that cannot be listed does not hide the scenarios of the others.
    unreadable.push({ path: dir, code: (error as NodeJS.ErrnoException).code ?? 'unknown reason' });
    return out;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path, unreadable));
    else if (SCENARIO_EXT.test(entry.name)) out.push(path);
  }
  return out;
}
