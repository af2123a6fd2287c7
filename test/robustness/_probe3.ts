import fc from 'fast-check';
import { SEEDS } from './seeds.js';
import { mutateSqlBlockInFile, riskyMutationsArb } from './sql-mutators.js';
import { checkScenarioText } from './check.js';
const samples = fc.sample(fc.tuple(fc.constantFrom(...SEEDS), riskyMutationsArb), { numRuns: 1500, seed: 5 });
const counts = new Map<string, number>();
for (const [s, ms] of samples) {
  const text = mutateSqlBlockInFile(s.text, ms);
  const o = checkScenarioText(text);
  if (o.kind !== 'runtime-error' && o.kind !== 'ran') continue;
  const key = o.kind === 'ran' ? `ran: ${ms.map((m) => m.text).join(' ; ')}` : o.signature.split('\n')[0]!.replace(/mutant.yaml:\d+:\d+/, (m) => (m.endsWith(':1:1') ? 'AT-1:1' : 'AT-EVENT')).replace(/'[^']*'/g, "'_'");
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(String(n).padStart(4), k.slice(0, 200));
