import { checkScenarioText } from './check.js';
const exprs = process.argv.slice(2);
for (const e of exprs) {
  const text = `name: p
sql: |
  CREATE TABLE a (k STRING, n INT, d DECIMAL(10, 2), b BOOLEAN, ts TIMESTAMP(3), lts TIMESTAMP_LTZ(3), big BIGINT, dbl DOUBLE) WITH ('connector' = 'kafka');
  CREATE TABLE b (k STRING) WITH ('connector' = 'kafka');
  SELECT ${e} AS x FROM a JOIN b ON a.k = b.k;
events:
  - { to: b, row: { k: x } }
  - { to: a, row: { k: x, n: 7, d: 1.5, b: true, ts: "2026-10-01 09:30", lts: "09:30", big: 5, dbl: 2.5 } }
`;
  const o = checkScenarioText(text, true);
  console.log(`${e.padEnd(40)} ${o.kind.padEnd(14)} ${(o.problems[0] ?? o.signature.split('\n').filter(l=>/^\+I|error/.test(l)).join(' | ')).split('\n')[0]!.slice(0, 150)}`);
}
