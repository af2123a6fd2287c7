/**
 * `joinstep explain` for every bundled scenario is a golden file (test/golden/explain/NAME.txt),
 * reviewed by a person when it changes. In CI a missing or different file fails.
 */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/cli/scenario-files.js';
import { formatExplain } from '../../src/planner/explain.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { ROOT } from './helpers.js';

const files = findScenarioFiles([`${ROOT}/scenarios`]).files;

describe('explain golden files', () => {
  it('has bundled scenarios to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(basename(file), async () => {
      const loaded = await loadScenarioFile(file);
      if (!loaded.ok) {
        // Scenarios that expect a planning error have no plan to explain; any other failure is a bug.
        expect(loaded.expect?.error, loaded.diagnostics.map((d) => d.message).join('\n')).toBeDefined();
        return;
      }
      const text = formatExplain(loaded.scenario.queries[0]!.plan, loaded.scenario.name);
      await expect(text).toMatchFileSnapshot(`../golden/explain/${basename(file, '.yaml')}.txt`);
    });
  }
});
