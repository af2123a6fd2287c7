/** Finds scenario files: a file is itself, a directory is every .yaml/.yml below it, sorted. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SCENARIO_EXT = /\.ya?ml$/i;

export function findScenarioFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      missing.push(path);
      continue;
    }
    if (isDir) files.push(...walk(path));
    else files.push(path);
  }
  return { files, missing };
}

function walk(dir: string): string[] {
  const out: string[] = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (SCENARIO_EXT.test(entry.name)) out.push(path);
  }
  return out;
}
