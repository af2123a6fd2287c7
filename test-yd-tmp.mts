import { yamlTooDeep } from './src/scenario/yaml-depth.ts';
const big = Array.from({ length: 1_000_000 }, (_, i) => `  - { to: orders, row: { order_id: o${i}, currency: EUR, amount: 100, order_time: "09:30" }, note: "it's [x] {y} # z" }`).join('\n');
const text = Buffer.from('name: x\nsql: |\n  SELECT [[[[[ \'\nevents:\n' + big + '\n').toString();
for (let k = 0; k < 3; k++) { const t = performance.now(); const r = yamlTooDeep(text); console.log('1M events', (text.length / 1e6).toFixed(0), 'MB', r, (performance.now() - t).toFixed(0), 'ms'); }
