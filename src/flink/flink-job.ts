/**
 * `joinstep flink FILE --job DIR`: the scenario as a Flink SQL job for a real cluster — a script
 * for Flink's SQL client (`sql-client.sh -f job.sql`) whose source tables read JSON-lines files
 * written beside it, and the result joinstep expects that job to end with.
 *
 * Files replay rows, not an arrival script: a cluster reads each file in order at its own pace,
 * generates watermarks from the data, and ends every input with the maximum watermark. So only
 * a scenario whose final result cannot depend on the script's timing is expressible: insert-only
 * rows, no processing time (no lookup join, no PROCTIME), and rows that are on time against
 * their own table's WATERMARK declaration. The last condition and the whole claim are checked by
 * running joinstep twice — the scenario as written, ended with the maximum watermark, and the
 * files' replay — and requiring the same result.
 */
import type { TableDef } from '../planner/plan.js';
import type { Scenario, ScenarioEvent } from '../scenario/types.js';
import { parseSql } from '../sql/parser.js';
import type { CreateTable, Statement } from '../sql/ast.js';
import { formatValue } from '../values/format.js';
import { joinstepRun } from './joinstep-side.js';
import { STEP_LATE_DROP } from '../engine/types.js';
import { createRunContext } from '../engine/context.js';
import { createOperator } from '../engine/operators/index.js';
import { initialSnapshot } from '../engine/snapshot.js';
import { step } from '../engine/step.js';

export interface JobFile {
  /** Relative to the job folder. */
  readonly path: string;
  readonly content: string;
}

export type FlinkJob =
  | { readonly ok: true; readonly files: readonly JobFile[]; readonly expected: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/** Configuration that only makes sense for the arrival script, not for a replay of files. */
const SCRIPT_ONLY_CONFIG = new Set(['table.exec.state.ttl', 'table.exec.source.idle-timeout', 'pipeline.auto-watermark-interval']);

/**
 * The job for query `queryIndex` with its data under `dataDir` (an absolute path: the script
 * names it, and a cluster's task managers read it from there).
 */
export function planFlinkJob(scenario: Scenario, queryIndex: number, dataDir: string): FlinkJob {
  const query = scenario.queries[queryIndex];
  if (query === undefined) return { ok: false, reason: `there is no query #${queryIndex}` };
  const plan = query.plan;
  if (plan.family === 'lookup') return notExpressible('a lookup join asks an external store at the moment each row arrives; a replay of files has no such store and no controlled processing time');
  const sinkTable = plan.sink?.table;
  const sources = plan.tables.filter((t) => t.name !== sinkTable);
  for (const t of sources) {
    const proc = t.columns.find((c) => c.timeAttr === 'proctime');
    if (proc !== undefined) return notExpressible(`\`${t.name}.${proc.name}\` is a processing-time attribute: on a cluster its values come from the wall clock, not from the scenario`);
  }
  const rows = scenario.events.filter((e): e is Extract<ScenarioEvent, { kind: 'row' }> => e.kind === 'row');
  const changing = rows.find((e) => e.op !== '+I');
  if (changing !== undefined) return notExpressible(`the row at line ${changing.pos.line} is ${changing.op}: the job's files hold inserts only (insert-only data)`);
  const updated = firstUpdatedKey(sources, rows, plan.family === 'temporal' ? plan.inputs[1].table : undefined);
  if (updated !== undefined) return notExpressible(updated);
  const original = endOfInput(scenario);
  const replay = replayScenario(scenario);
  const late = firstLateRow(replay, queryIndex);
  if (late !== undefined) return notExpressible(`the row at line ${late} would be late on a cluster: it is behind the watermark that its table's earlier rows generate (the job needs on-time data)`);
  let expected: readonly string[];
  try {
    const a = joinstepRun(original, queryIndex).result;
    const b = joinstepRun(replay, queryIndex).result;
    if (!sameRows(a, b)) return notExpressible('its final result depends on the arrival script (when watermarks, idleness or processing time arrive), which a replay of files cannot reproduce');
    expected = b;
  } catch (error) {
    if (error instanceof Error && (error.name === 'SqlRuntimeError' || error.name === 'EngineRuntimeError')) return notExpressible(`running it fails: ${error.message}`);
    throw error;
  }
  const script = jobScript(scenario, queryIndex, sources, sinkTable, dataDir);
  if (!script.ok) return script;
  const files: JobFile[] = [{ path: 'job.sql', content: script.text }];
  for (const t of sources) files.push({ path: `data/${t.name}/rows.json`, content: dataFile(t, rows) });
  files.push({ path: 'expected-result.txt', content: expected.length > 0 ? `${expected.join('\n')}\n` : '' });
  files.push({ path: 'README.md', content: readme(scenario, sinkTable !== undefined) });
  return { ok: true, files, expected };
}

function notExpressible(reason: string): FlinkJob {
  return { ok: false, reason };
}

/**
 * Inserts of the same key into an upsert or changelog table update it; inserts into a file
 * table with the same primary key do not. The versioned side of a temporal join is the
 * exception: there every row is a new version either way.
 */
function firstUpdatedKey(sources: readonly TableDef[], rows: readonly Extract<ScenarioEvent, { kind: 'row' }>[], versioned: string | undefined): string | undefined {
  for (const t of sources) {
    if (t.nature === 'append' || t.name === versioned || t.primaryKey === undefined) continue;
    const seen = new Map<string, number>();
    for (const r of rows) {
      if (r.table !== t.name) continue;
      const key = JSON.stringify(t.primaryKey.map((i) => r.row[i] ?? null));
      const before = seen.get(key);
      if (before !== undefined) return `the row at line ${r.pos.line} updates the key of the row at line ${before} in \`${t.name}\` (${t.connector}); inserts into a file cannot update a row`;
      seen.set(key, r.pos.line);
    }
  }
  return undefined;
}

/** The scenario as written, then the end of every input (the maximum watermark), as a cluster's bounded job ends. */
function endOfInput(scenario: Scenario): Scenario {
  const pos = scenario.events.at(-1)?.pos ?? { line: 1, col: 1 };
  const ends = timedTables(scenario).map((table): ScenarioEvent => ({ kind: 'watermark', table, to: 'max', pos }));
  return { ...scenario, events: [...scenario.events, ...ends] };
}

/**
 * What a cluster does with the files: each table's rows in file order through one partition,
 * a watermark generated from every row (the most eager generation, so a row on time here is on
 * time at any emission interval), then the end of input. No processing time moves.
 */
function replayScenario(scenario: Scenario): Scenario {
  const rows = scenario.events.flatMap((e): ScenarioEvent[] => (e.kind === 'row' ? [{ kind: 'row', table: e.table, partition: 0, op: e.op, row: e.row, pos: e.pos }] : []));
  const partitions = Object.fromEntries(Object.keys(scenario.partitions).map((t) => [t, 1]));
  const config = { ...scenario.config, stateTtlMs: 0, idleTimeoutMs: 0 };
  const replay: Scenario = { ...scenario, watermarks: 'auto', partitions, config, events: rows };
  return endOfInput(replay);
}

function timedTables(scenario: Scenario): string[] {
  const names = new Set<string>();
  for (const q of scenario.queries) for (const t of q.plan.tables) if (t.watermark !== undefined && q.plan.inputs.some((i) => i.table === t.name)) names.add(t.name);
  return [...names];
}

/** The file line of the first row joinstep drops as late in the replay, if any. */
function firstLateRow(replay: Scenario, queryIndex: number): number | undefined {
  const ctx = createRunContext(replay, queryIndex, createOperator, true);
  let snap = initialSnapshot(ctx);
  for (const event of replay.events) {
    const record = step(ctx, snap, event);
    if ((record.flags & STEP_LATE_DROP) !== 0) return event.pos.line;
    snap = record.snapshot;
  }
  return undefined;
}

function sameRows(a: readonly string[], b: readonly string[]): boolean {
  const x = [...a].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** One JSON object per row, in arrival order: every physical and metadata column by name, in Flink's text for its type. */
function dataFile(table: TableDef, rows: readonly Extract<ScenarioEvent, { kind: 'row' }>[]): string {
  let out = '';
  for (const r of rows) {
    if (r.table !== table.name) continue;
    const obj: Record<string, string | null> = {};
    table.columns.forEach((c, i) => {
      if (c.kind === 'computed') return;
      const v = r.row[i] ?? null;
      obj[c.name] = v === null ? null : formatValue(c.type, v);
    });
    out += `${JSON.stringify(obj)}\n`;
  }
  return out;
}

type Script = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

function jobScript(scenario: Scenario, queryIndex: number, sources: readonly TableDef[], sinkTable: string | undefined, dataDir: string): Script {
  const parsed = parseSql(scenario.sql);
  if (!parsed.ok) return { ok: false, reason: `its SQL does not parse: ${parsed.error.message}` };
  const ddl = scenario.sql;
  const querySql = scenario.namedQueries === true ? scenario.queries[queryIndex]?.sql : undefined;
  const byName = new Map(sources.map((t) => [t.name, t]));
  const out: string[] = [
    `-- ${oneLine(scenario.name)}`,
    `-- Written by \`joinstep flink ${scenario.file} --job\`: the scenario's rows as files, for Flink's SQL client.`,
    '-- Run: sql-client.sh -f job.sql   (expected-result.txt holds the result it ends with)',
    '',
    "SET 'execution.runtime-mode' = 'streaming';",
    "SET 'sql-client.execution.result-mode' = 'tableau';",
    ...configLines(scenario),
    '',
  ];
  for (const s of parsed.script.statements) {
    out.push(statementText(s, ddl, byName, sinkTable, dataDir) + ';', '');
  }
  if (querySql !== undefined) out.push(`${querySql.trim().replace(/;\s*$/, '')};`, '');
  return { ok: true, text: out.join('\n') };
}

function configLines(scenario: Scenario): string[] {
  const config: Record<string, string> = { ...(scenario.configText ?? {}) };
  if (config['table.local-time-zone'] === undefined) config['table.local-time-zone'] = 'UTC';
  return Object.entries(config)
    .filter(([k]) => !SCRIPT_ONLY_CONFIG.has(k))
    .map(([k, v]) => `SET '${sqlString(k)}' = '${sqlString(v)}';`);
}

function statementText(s: Statement, sql: string, sources: ReadonlyMap<string, TableDef>, sinkTable: string | undefined, dataDir: string): string {
  if (s.kind !== 'createTable') return sql.slice(s.start, s.end).trim().replace(/;\s*$/, '');
  const def = sources.get(s.name.value);
  if (s.name.value === sinkTable || def === undefined) return rewriteTable(s, sql, "'connector' = 'print'");
  const path = `${dataDir.replace(/\/+$/, '')}/data/${def.name}`;
  return rewriteTable(s, sql, `'connector' = 'filesystem', 'path' = '${sqlString(path)}', 'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601'`);
}

/** The CREATE TABLE with its own columns, watermark and key, and new connector options. Metadata columns become physical: the files carry their values. */
function rewriteTable(s: CreateTable, sql: string, options: string): string {
  const parts = s.columns.map((c) => (c.kind === 'metadata' ? `${sql.slice(c.name.start, c.name.end)} ${sql.slice(c.type.start, c.type.end)}` : sql.slice(c.start, c.end).trim()));
  if (s.watermark !== undefined) parts.push(sql.slice(s.watermark.start, s.watermark.end).trim());
  if (s.primaryKey !== undefined) parts.push(sql.slice(s.primaryKey.start, s.primaryKey.end).trim());
  const name = sql.slice(s.name.start, s.name.end);
  return `CREATE TABLE ${name} (\n  ${parts.join(',\n  ')}\n) WITH (${options})`;
}

function readme(scenario: Scenario, insert: boolean): string {
  return [
    `# ${oneLine(scenario.name)} as a Flink SQL job`,
    '',
    `Written by \`joinstep flink ${scenario.file} --job\`.`,
    '',
    '- `job.sql`: the scenario\'s tables, reading `data/<table>/rows.json` (JSON lines, in arrival order), and its query.',
    '- `expected-result.txt`: the final result joinstep expects, one row per line, sorted.',
    '',
    'Run it with Flink\'s SQL client: `sql-client.sh -f job.sql`. The data paths in job.sql are absolute;',
    'on a cluster, copy `data/` where every task manager can read it and change the paths.',
    insert ? 'The query writes to a print sink: its rows appear in the task managers\' stdout.' : 'The query prints its changelog in the SQL client; the rows still there at the end are the result.',
    '',
  ].join('\n');
}

function sqlString(s: string): string {
  return s.replace(/'/g, "''");
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
