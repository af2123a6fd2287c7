import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseSql } from '../../src/sql/parser.js';
import { planSql } from '../../src/planner/planner.js';
import { formatExplain } from '../../src/planner/explain.js';
const config = { stateTtlMs: 0, idleTimeoutMs: 0, localTimeZone: 'UTC', minCleanupIntervalMs: 0, sinkUpsertMaterialize: 'AUTO' as const, cdcEventsDuplicate: false, nonDeterministicUpdateStrategy: 'IGNORE' as const, autoWatermarkIntervalMs: 200 };
for (const f of process.argv.slice(2)) {
  const y = parse(readFileSync(f, 'utf8'));
  const p = parseSql(y.sql);
  if (!p.ok) { console.log(f, 'PARSE', p.error); continue; }
  const r = planSql(p.script, { config, flinkVersion: '2.3', partitions: {} });
  if (!r.ok) { const t = y.sql as string; console.log(f, 'ERROR', r.error, JSON.stringify(t.slice(r.error.span.start, r.error.span.end))); continue; }
  console.log(formatExplain(r.queries[0]!.plan, y.name));
}
