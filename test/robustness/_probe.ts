import { readFileSync } from 'node:fs';
import { checkScenarioText, explainFailure } from './check.js';
const text = readFileSync(process.argv[2]!, 'utf8');
const o = checkScenarioText(text, true);
console.log(o.kind, '\n' + o.signature.slice(0, 1500), '\n', o.problems.join('\n'));
