/**
 * Paths the tests use, all inside this checkout: a clone with nothing beside it must pass
 * `npm test` (test/conformance/outside-paths.test.ts keeps it so).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
/** The format spec's conformance examples, vendored (test/conformance/README.md). */
export const SPEC_EXAMPLES_DIR = `${REPO_ROOT}/test/conformance/examples`;

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
