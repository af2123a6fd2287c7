/**
 * Every shipped scenario (scenarios/ and the spec's examples), through the real loader, planner
 * and operators: the timeline agrees with the plain run step by step (changelog, result, flags),
 * snapshots are unchanged by stepping back and forth, and every step's trace is well-formed.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run.js';
import { createTimeline } from '../../src/engine/timeline.js';
import { STEP_EMIT, STEP_RETRACT, type Emitted } from '../../src/engine/types.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { REPO_ROOT, SPEC_EXAMPLES_DIR, yamlFiles } from '../paths.js';

const dirs = [`${REPO_ROOT}/scenarios`, SPEC_EXAMPLES_DIR];
const files = yamlFiles(dirs);

/** An emitted row without its reason text (what a bulk run keeps). */
const ruleOnly = (e: Emitted) => ({ kind: e.kind, row: e.row, step: e.step, rule: e.why.rule });

describe('shipped scenarios through the engine', () => {
  it('finds scenarios to check', () => {
    expect(files.length).toBeGreaterThan(3);
  });

  for (const file of files) {
    it(file, async () => {
      const loaded = await loadScenarioFile(file);
      if (!loaded.ok) return; // an expected planning error: nothing to run
      const sc = loaded.scenario;
      const run = runScenario(sc);
      const tl = createTimeline(sc);
      expect(tl.length).toBe(sc.events.length);
      // A bulk run keeps each row's rule only; the timeline rebuilds the full reason by replay.
      const all = tl.changelogRange(tl.length, 0, Infinity);
      expect(all.map(ruleOnly)).toEqual(run.emitted.map(ruleOnly));
      for (const e of run.emitted) expect(e.why.text).toBe('');
      const stepped = Array.from({ length: tl.length }, (_, i) => tl.at(i + 1).emitted).flat();
      expect(all).toEqual(stepped);
      for (const e of stepped) expect(e.why.text).not.toBe('');
      stepped.forEach((e, i) => expect(tl.whyOf?.(i)).toEqual(e.why));
      expect(tl.result(tl.length)).toEqual(run.result);
      let size = 0;
      for (let i = 1; i <= tl.length; i++) {
        const rec = tl.at(i);
        expect(rec.index).toBe(i);
        expect(rec.flags).toBe(tl.flagsAt(i));
        size += rec.emitted.length;
        expect(tl.changelogSize(i)).toBe(size);
        const kinds = new Set(rec.emitted.map((e) => e.kind));
        expect((rec.flags & STEP_EMIT) !== 0).toBe(kinds.has('+I') || kinds.has('+U'));
        expect((rec.flags & STEP_RETRACT) !== 0).toBe(kinds.has('-U') || kinds.has('-D'));
        for (const t of rec.trace) expect(typeof t.t).toBe('string');
        // the result folds forward and back to the same rows
        expect(tl.result(i)).toEqual(tl.result(i));
      }
      // step back to the start and forward again: identical records
      const last = tl.at(tl.length);
      for (let i = tl.length; i >= 0; i--) tl.at(i);
      expect(tl.at(tl.length)).toEqual(last);
      // the watermark view is consistent with the snapshot
      const wv = tl.describeWatermarks(tl.length);
      expect(wv.join).toBe(last.snapshot.joinWm);
      expect(wv.tables.length).toBeGreaterThan(0);
      for (const side of [0, 1] as const) expect(tl.describeState(tl.length, side).layout).toBeTypeOf('string');
    });
  }
});
