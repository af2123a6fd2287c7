import { readFileSync } from 'node:fs';
import { loadScenarioText } from '../../src/scenario/load.js';
import { runScenario } from '../../src/engine/run.js';
const text = readFileSync(process.argv[2]!, 'utf8');
let t = Date.now();
const r = loadScenarioText('f', text);
console.log(process.argv[2], 'load', Date.now() - t, r.ok);
if (r.ok) { t = Date.now(); runScenario(r.scenario); console.log('run', Date.now() - t); }
