/**
 * The interval / temporal / idle scenarios end to end (loader, planner, engine): each file's
 * hand-written `expect.changelog` must equal the run's changelog.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../../src/engine/run.js';
import { loadScenarioFile } from '../../../src/scenario/load.js';

const dir = join(import.meta.dirname, '../../../scenarios');
const files = readdirSync(dir)
  .filter((f) => /^(interval|temporal|idle)-.*\.ya?ml$/.test(f))
  .sort();

describe('interval, temporal and idle scenarios', () => {
  it('finds the scenario files', () => {
    expect(files.length).toBeGreaterThanOrEqual(13);
  });

  for (const f of files) {
    it(f, async () => {
      const loaded = await loadScenarioFile(join(dir, f));
      if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
      const expected = loaded.scenario.expect?.changelog;
      expect(expected).toBeDefined();
      expect(runScenario(loaded.scenario).lines).toEqual(expected);
    });
  }
});
