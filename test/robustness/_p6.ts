import { checkScenarioText } from './check.js';
import { KNOWN_ISSUES } from './known-issues.js';
for (const k of KNOWN_ISSUES) { const o = checkScenarioText(k.repro, true); console.log(k.id, o.problems.map((p) => p.split('\n')[0]), o.problems.some((p) => k.pattern.test(p))); }
