import { readFileSync } from 'node:fs';
import { loadScenarioText } from '../../src/scenario/load.js';
import { runScenario } from '../../src/engine/run.js';
const text = readFileSync(process.argv[2]!, 'utf8');
let t = Date.now();
const r = loadScenarioText('f', text);
console.log('load', Date.now() - t, r.ok);
if (r.ok) { t = Date.now(); for (let i = 0; i < r.scenario.events.length; i++) { const s = { ...r.scenario, events: r.scenario.events.slice(0, i + 1) }; runScenario(s); console.log('event', i, Date.now() - t); } }
