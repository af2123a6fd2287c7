/** Paths the tests use, relative to this checkout: CI runs a fresh clone with shared/ beside it. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
/** The steering repo's shared/ folder, beside the checkout. */
export const SHARED = fileURLToPath(new URL('../../shared', import.meta.url)).replace(/\/$/, '');
export const SPEC_EXAMPLES_DIR = `${SHARED}/spec/examples`;

/** The .yaml files directly in each folder (a folder that is missing gives none). */
export function yamlFiles(dirs: readonly string[]): string[] {
  return dirs.flatMap((d) => {
    try {
      return readdirSync(d)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join(d, f));
    } catch {
      return [];
    }
  });
}
