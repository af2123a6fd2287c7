/**
 * The vendored conformance examples still match the spec's own copy, when the spec's folder
 * (`../shared/spec/examples`) is beside the repository. The one test allowed to look outside
 * (test/conformance/outside-paths.test.ts knows it by name).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, SPEC_EXAMPLES_DIR } from '../paths.js';

const UPSTREAM = join(REPO_ROOT, '..', 'shared', 'spec', 'examples');
const present = existsSync(UPSTREAM);

if (!present) {
  // Visible in the test output: the check did not run, and why.
  console.warn(`note: ${UPSTREAM} is not beside the repository; the vendored conformance examples were not compared with the spec's copy`);
}

const yamls = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();

describe('vendored conformance examples', () => {
  it('the vendored copy has the examples', () => {
    expect(yamls(SPEC_EXAMPLES_DIR).length).toBeGreaterThanOrEqual(4);
  });

  it.skipIf(!present)('match ../shared/spec/examples file for file, byte for byte', () => {
    expect(yamls(SPEC_EXAMPLES_DIR)).toEqual(yamls(UPSTREAM));
    for (const name of yamls(UPSTREAM)) {
      expect(readFileSync(join(SPEC_EXAMPLES_DIR, name), 'utf8'), name).toBe(readFileSync(join(UPSTREAM, name), 'utf8'));
    }
  });
});
