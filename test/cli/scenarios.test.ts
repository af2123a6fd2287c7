/** Every bundled scenario is a self-checking spec: `joinstep test scenarios` must pass them all. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/cli/scenario-files.js';
import { cli, ROOT } from './helpers.js';

describe('bundled scenarios', () => {
  it('all pass joinstep test, and every one of them has an expect: block', () => {
    const files = findScenarioFiles([`${ROOT}/scenarios`]).files;
    const withExpect = files.filter((f) => /^expect:/m.test(readFileSync(f, 'utf8')));
    expect(withExpect).toEqual(files);
    const r = cli(['test', 'scenarios']);
    const failures = r.stdout.split('\n').filter((l) => !l.startsWith('PASS '));
    expect(failures.join('\n')).toBe(`${files.length} passed, 0 failed\n`);
    expect(r.status).toBe(0);
  });
});
