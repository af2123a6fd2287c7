import { readFileSync } from 'node:fs';
import { loadScenarioFile } from '../../src/scenario/load.js';
for (const f of process.argv.slice(2)) {
  const r = await loadScenarioFile(f);
  if (r.ok) { console.log(f, 'LOADED'); continue; }
  const d = r.diagnostics[0]!;
  const lines = readFileSync(f, 'utf8').split('\n');
  console.log(`${f.split('/').pop()} ${d.line}:${d.col}: ${d.message.split('\n')[0]}\n   hint: ${d.hint}\n   at: ${(lines[d.line - 1] ?? '').slice(d.col - 1, d.col + 30)}`);
}
