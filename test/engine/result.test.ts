/**
 * The timeline's materialized result is kept incrementally (a sorted array patched as the cursor
 * moves); at every position, in any visiting order, it must equal a fresh fold of the changelog.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTimeline } from '../../src/engine/timeline.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

const FILES = ['scenarios/regular-left-join-padding.yaml', 'scenarios/regular-full-join.yaml', 'scenarios/regular-upsert-sink.yaml', 'scenarios/side-by-side-rate-change.yaml'];

/** Retract semantics fold, written independently of src/engine/result.ts: +I/+U add, -U/-D remove one. */
function naiveResult(rows: readonly { kind: string; text: string }[]): string[] {
  const bag: string[] = [];
  for (const r of rows) {
    if (r.kind === '+I' || r.kind === '+U') bag.push(r.text);
    else {
      const at = bag.indexOf(r.text);
      if (at >= 0) bag.splice(at, 1);
    }
  }
  return bag.sort();
}

describe('timeline result', () => {
  for (const file of FILES) {
    it(`${file}: equals a fresh fold at every position, visited in random order`, async () => {
      const loaded = await loadScenarioFile(file);
      if (!loaded.ok) throw new Error(loaded.diagnostics[0]!.message);
      const tl = createTimeline(loaded.scenario);
      const fresh = (i: number) => createTimeline(loaded.scenario).result(i);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: tl.length }), { minLength: 1, maxLength: 30 }), (walk) => {
          for (const i of walk) expect(tl.result(i)).toEqual(fresh(i));
        }),
        { numRuns: 25, seed: 7 },
      );
    });
  }

  it('a retract-semantics result matches an independent fold of the printed changelog', async () => {
    const loaded = await loadScenarioFile('scenarios/regular-left-join-padding.yaml');
    if (!loaded.ok) throw new Error('load');
    const tl = createTimeline(loaded.scenario);
    for (let i = 0; i <= tl.length; i++) {
      const rows = tl.changelogRange(i, 0, tl.changelogSize(i)).map((e) => ({ kind: e.kind, text: `[${e.row.map((v) => (v === null ? 'null' : String(v))).join(', ')}]` }));
      expect(tl.result(i).length).toBe(naiveResult(rows).length);
    }
  });
});
