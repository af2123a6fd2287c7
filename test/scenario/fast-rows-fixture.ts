/**
 * A FastRows (the loader's light row reader) over the tables of one query, for the property
 * tests that compare the direct row readers (flow-row.ts, json-row.ts) with the general one.
 */
import { FastRows } from '../../src/scenario/fast-row.js';
import type { EventEnv } from '../../src/scenario/event-env.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { parseYaml } from '../../src/scenario/yaml-doc.js';

/** `sql`: the CREATE TABLEs and one query; `inputs`: the two tables it reads. */
export function fastRowsFor(sql: string, inputs: readonly [string, string]): FastRows {
  const loaded = loadScenarioText('x.yaml', `name: x\ndate: 2026-10-01\nsql: |\n  ${sql}\nevents: []\n`);
  if (!loaded.ok) throw new Error(loaded.diagnostics[0]!.message);
  const parsed = parseYaml('x.yaml', 'a: 1\n');
  if (!parsed.ok) throw new Error('yaml');
  const env: EventEnv = {
    tables: loaded.scenario.queries[0]!.plan.tables,
    inputTables: new Set(inputs),
    sinkTables: new Set(),
    queryCount: 1,
    viewNames: [],
    viewSources: {},
    partitions: { [inputs[0]]: 1, [inputs[1]]: 1 },
    valueCtx: { dateMs: loaded.scenario.date, timeZone: 'UTC' },
    sql,
    dateMs: loaded.scenario.date,
  };
  return new FastRows(parsed.ctx, env);
}
