/**
 * Persistence on real scenarios (every shipped scenario, the spec's examples and the Flink
 * cases): snapshots share structure (persistent maps and vectors, append-only logs written in
 * place at their tip), so no step, replay, seek or edit may ever change a snapshot someone holds.
 *  - stepping again from any older snapshot (a branch off a log that has grown since) gives what
 *    a fresh run gives, and leaves every snapshot of the first run as it was;
 *  - the timeline's snapshots, visited in a scrambled order, equal the direct run's;
 *  - a what-if edit of the timeline leaves the original timeline's snapshots as they were.
 */
import { describe, expect, it } from 'vitest';
import { createRunContext } from '../../src/engine/context.js';
import { createOperator } from '../../src/engine/joins/registry.js';
import { initialSnapshot, type EngineSnapshot } from '../../src/engine/snapshot.js';
import { step } from '../../src/engine/step.js';
import { createTimeline } from '../../src/engine/timeline.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';
import { REPO_ROOT, SPEC_EXAMPLES_DIR, yamlFiles } from '../paths.js';

const dirs = [`${REPO_ROOT}/scenarios`, SPEC_EXAMPLES_DIR, `${REPO_ROOT}/test/flink-cases`];
const files = yamlFiles(dirs);

function directRun(sc: Scenario): EngineSnapshot[] {
  const ctx = createRunContext(sc, 0, createOperator, false);
  const snaps = [initialSnapshot(ctx)];
  for (const e of sc.events) snaps.push(step(ctx, snaps[snaps.length - 1]!, e).snapshot);
  return snaps;
}

/** A fixed permutation of 0..n (the same every run). */
function scrambled(n: number): number[] {
  const out = Array.from({ length: n + 1 }, (_, i) => i);
  let s = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('persistence on shipped scenarios and Flink cases', () => {
  it('finds the files', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  for (const file of files) {
    it(file.slice(REPO_ROOT.length - 4), async () => {
      const loaded = await loadScenarioFile(file);
      if (!loaded.ok) return; // an expected planning error: nothing to run
      const sc = loaded.scenario;
      const first = directRun(sc);
      const again = directRun(sc);
      const ctx = createRunContext(sc, 0, createOperator, false);
      // Branch off every older snapshot, newest first, so that each one is behind a grown log,
      // with a different event than the run took there (a replay would write the same rows, which
      // would hide a write landing in the shared log): the result must equal a fresh run of that
      // prefix plus the event.
      const n = sc.events.length;
      for (let i = n - 1; i >= 0; i--) {
        const other = sc.events[(i + 1) % n]!;
        const fresh = directRun({ ...sc, events: [...sc.events.slice(0, i), other] });
        expect(step(ctx, first[i]!, other).snapshot).toEqual(fresh[i + 1]);
      }
      expect(first).toEqual(again);
      const tl = createTimeline(sc);
      for (const i of scrambled(sc.events.length)) expect(tl.at(i).snapshot).toEqual(first[i]);
      if (sc.events.length > 1) {
        const edited = tl.remove(Math.floor(sc.events.length / 2));
        for (let i = 0; i <= edited.length; i++) edited.at(i);
      }
      for (const i of scrambled(sc.events.length)) expect(tl.at(i).snapshot).toEqual(again[i]);
      expect(first).toEqual(again);
    });
  }
});
