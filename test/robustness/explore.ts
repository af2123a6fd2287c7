/**
 * A long fuzzing session outside the test suite: `npx tsx test/robustness/explore.ts MODE [N] [SEED]`
 * with MODE one of yaml (line / character / value / key mutations), bad (the same on
 * test/fixtures/bad), rows (edge values in events), sql (broken SQL), risky (risky SELECT
 * expressions). Prints how the mutants ended and one example per distinct violation (known
 * issues in known-issues.ts are left out).
 */
import fc from 'fast-check';
import { BAD_SEEDS, SEEDS } from './seeds.js';
import { applyAll, mutationsArb, rowMutationsArb } from './yaml-mutators.js';
import { mutateSqlBlockInFile, riskyMutationsArb, sqlMutationsArb } from './sql-mutators.js';
import { checkScenarioText, explainFailure } from './check.js';

const mode = process.argv[2] ?? 'yaml';
const n = Number(process.argv[3] ?? 2000);
const seedArb = fc.constantFrom(...(mode === 'bad' ? BAD_SEEDS : SEEDS));
const arb =
  mode === 'yaml' || mode === 'bad'
    ? fc.tuple(seedArb, mutationsArb).map(([s, ms]) => applyAll(s.text, ms))
    : mode === 'rows'
      ? fc.tuple(seedArb, rowMutationsArb).map(([s, ms]) => applyAll(s.text, ms))
      : mode === 'risky'
        ? fc.tuple(seedArb, riskyMutationsArb).map(([s, ms]) => mutateSqlBlockInFile(s.text, ms))
        : fc.tuple(seedArb, sqlMutationsArb).map(([s, ms]) => mutateSqlBlockInFile(s.text, ms));
const samples = fc.sample(arb, { numRuns: n, seed: Number(process.argv[4] ?? 1) });
const buckets = new Map<string, { count: number; text: string; ex: string }>();
const kinds: Record<string, number> = {};
const t0 = Date.now();
for (const text of samples) {
  const o = checkScenarioText(text);
  kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
  for (const p of o.problems) {
    const key = p.split('\n')[0]!.replace(/mutant\.yaml:\d+:\d+/, 'F').replace(/`[^`]*`/g, '`_`').replace(/\d+/g, 'N').slice(0, 140);
    const b = buckets.get(key);
    if (b) b.count++;
    else buckets.set(key, { count: 1, text, ex: explainFailure(text, o) });
  }
}
console.log(kinds, (Date.now() - t0) + 'ms');
for (const [k, b] of buckets) console.log(`\n#### ${b.count}x ${k}\n${b.ex.slice(0, 3000)}`);
