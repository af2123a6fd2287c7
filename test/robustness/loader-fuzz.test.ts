/**
 * Bad input never crashes: mutants of every bundled scenario and spec example go through the
 * loader and, when they load, the engine (see check.ts for the invariant). Bounded for CI: each
 * property runs ≤ 200 cases under a fixed seed; set FUZZ_SEED (a number, or `random`) and
 * FUZZ_RUNS to explore further, or run `npx tsx test/robustness/explore.ts` for a long session.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkScenarioText, explainFailure } from './check.js';
import { BAD_SEEDS, SEEDS } from './seeds.js';
import { mutateSqlBlockInFile, riskyMutationsArb, sqlMutationsArb } from './sql-mutators.js';
import { applyAll, mutationsArb, rowMutationsArb } from './yaml-mutators.js';

const SEED = process.env.FUZZ_SEED === 'random' ? undefined : Number(process.env.FUZZ_SEED ?? 20261129);
const RUNS = Math.min(Number(process.env.FUZZ_RUNS ?? 120), 2000);
const params = { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) };

const seedArb = fc.constantFrom(...SEEDS);

/** The property: no invariant of check.ts is violated; the mutant is printed when one is. */
function holds(text: string): boolean {
  const outcome = checkScenarioText(text);
  if (outcome.problems.length > 0) throw new Error(explainFailure(text, outcome));
  return true;
}

describe('mutated scenario files', () => {
  it('has seeds: every bundled scenario and spec example', () => {
    expect(SEEDS.length).toBeGreaterThanOrEqual(20);
  });

  it('every seed itself loads and runs cleanly (the mutations start from valid files)', () => {
    for (const seed of SEEDS) {
      const outcome = checkScenarioText(seed.text);
      expect(outcome.problems, seed.name).toEqual([]);
      // a seed whose expect block names an error is a planner rejection on purpose
      const rejects = /^expect:\s*\n\s+error:/m.test(seed.text);
      expect(outcome.kind, seed.name).toBe(rejects ? 'rejected' : 'ran');
    }
  });

  it('line / character mutations, wrong-typed values and renamed keys', () => {
    fc.assert(
      fc.property(seedArb, mutationsArb, (seed, ms) => holds(applyAll(seed.text, ms))),
      params,
    );
  });

  it('mutations of the files that already fail (test/fixtures/bad)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BAD_SEEDS), mutationsArb, (seed, ms) => holds(applyAll(seed.text, ms))),
      params,
    );
  });

  it('edge values in rows and events (most still load and reach the engine)', () => {
    fc.assert(
      fc.property(seedArb, rowMutationsArb, (seed, ms) => holds(applyAll(seed.text, ms))),
      params,
    );
  });

  it('broken SQL inside the sql block', () => {
    fc.assert(
      fc.property(seedArb, sqlMutationsArb, (seed, ms) => holds(mutateSqlBlockInFile(seed.text, ms))),
      params,
    );
  });

  it('risky expressions in SELECT lists (casts, division by zero, overflow, wrong argument types)', () => {
    fc.assert(
      fc.property(seedArb, riskyMutationsArb, (seed, ms) => holds(mutateSqlBlockInFile(seed.text, ms))),
      params,
    );
  });

  it('the mutators do change files and reach every outcome (the properties are not vacuous)', () => {
    const kinds = new Set<string>();
    const texts = fc.sample(fc.tuple(seedArb, rowMutationsArb), { numRuns: 60, seed: 7 });
    for (const [seed, ms] of texts) kinds.add(checkScenarioText(applyAll(seed.text, ms)).kind);
    const risky = fc.sample(fc.tuple(seedArb, riskyMutationsArb), { numRuns: 60, seed: 7 });
    for (const [seed, ms] of risky) kinds.add(checkScenarioText(mutateSqlBlockInFile(seed.text, ms)).kind);
    const broken = fc.sample(fc.tuple(seedArb, sqlMutationsArb), { numRuns: 40, seed: 7 });
    const changed = broken.filter(([seed, ms]) => mutateSqlBlockInFile(seed.text, ms) !== seed.text).length;
    expect(changed).toBeGreaterThanOrEqual(36);
    expect([...kinds].sort()).toEqual(['ran', 'rejected', 'runtime-error']);
  });
});
