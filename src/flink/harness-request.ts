/**
 * The request the Flink harness reads (docs/flink-harness.md, "Request"): the scenario as joinstep
 * loaded it — SQL text verbatim, configuration as the file wrote it, events typed and numbered —
 * so the Java side needs no YAML parser of its own. Row values are printed by joinstep's own value
 * printer, which is Flink's print format, and parsed back there by each column's resolved type.
 */
import type { ColumnDef, TableDef } from '../planner/plan.js';
import type { RejectedSql, Scenario, ScenarioEvent } from '../scenario/types.js';
import { formatValue } from '../values/format.js';
import type { Value } from '../values/types.js';

export type HarnessOp = 'run' | 'plan';

export type HarnessEvent =
  | { step: number; kind: 'row'; table: string; partition: number; op: string; row: Record<string, string | null>; at?: number }
  | { step: number; kind: 'watermark'; table: string; partition: number | null; to: number | 'max' | 'generated'; at?: number }
  | { step: number; kind: 'idle' | 'active'; table: string; partition: number | null; at?: number }
  | { step: number; kind: 'advance'; ms: number; at?: number }
  | { step: number; kind: 'note'; at?: number };

export interface HarnessScenario {
  name: string;
  file: string;
  flinkVersion: string;
  date: number;
  watermarks: 'auto' | 'manual';
  partitions: Record<string, number>;
  config: Record<string, string>;
  sql: string;
  events: HarnessEvent[];
}

export interface HarnessRequest {
  id: string;
  op: HarnessOp;
  scenario: HarnessScenario;
}

/**
 * The scenario format's time zone when `config:` names none. Flink itself would take the JVM's
 * zone, which would make the same file mean different things on different machines.
 */
const FORMAT_TIME_ZONE = 'UTC';

/**
 * The request for one query of the scenario (`queryIndex`; a file with `queries:` sends its DDL
 * followed by that query's own SQL). `id` is the caller's; the harness echoes it. A file whose query
 * joinstep rejected (`RejectedSql`) still sends its events when its DDL planned (`checked`): a query
 * joinstep rejects may run on Flink, and that is a disagreement to see, not a file to skip.
 */
export function toHarnessRequest(scenario: Scenario | RejectedSql, op: HarnessOp, queryIndex = 0, id = 'r1'): HarnessRequest {
  const loaded = isScenario(scenario);
  const querySql = loaded ? (scenario.namedQueries === true ? scenario.queries[queryIndex]?.sql : undefined) : scenario.queries?.[queryIndex]?.sql;
  const sql = querySql !== undefined ? `${scenario.sql.replace(/\s*$/, '')}\n${querySql}` : scenario.sql;
  const config: Record<string, string> = { ...(scenario.configText ?? {}) };
  if (config['table.local-time-zone'] === undefined) config['table.local-time-zone'] = FORMAT_TIME_ZONE;
  const events = loaded ? eventsOf(scenario) : scenario.checked !== undefined ? eventsOfChecked(scenario.checked) : [];
  return {
    id,
    op,
    scenario: {
      name: scenario.name,
      file: scenario.file,
      flinkVersion: scenario.flinkVersion,
      date: scenario.date,
      watermarks: scenario.watermarks,
      partitions: { ...scenario.partitions },
      config,
      sql,
      events,
    },
  };
}

function isScenario(s: Scenario | RejectedSql): s is Scenario {
  return 'events' in s;
}

function eventsOf(scenario: Scenario): HarnessEvent[] {
  const tables = tablesOf(scenario);
  return scenario.events.map((event, i) => toHarnessEvent(event, i + 1, tables));
}

function eventsOfChecked(checked: NonNullable<RejectedSql['checked']>): HarnessEvent[] {
  const tables = new Map(checked.tables.map((t) => [t.name, t]));
  return checked.events.map((event, i) => toHarnessEvent(event, i + 1, tables));
}

/** Every table any query of the scenario declares, by name (the DDL is shared). */
function tablesOf(scenario: Scenario): ReadonlyMap<string, TableDef> {
  const out = new Map<string, TableDef>();
  for (const q of scenario.queries) for (const t of q.plan.tables) if (!out.has(t.name)) out.set(t.name, t);
  return out;
}

function toHarnessEvent(event: ScenarioEvent, step: number, tables: ReadonlyMap<string, TableDef>): HarnessEvent {
  const at = event.at === undefined ? {} : { at: event.at };
  switch (event.kind) {
    case 'row': {
      const table = tables.get(event.table);
      return { step, kind: 'row', table: event.table, partition: event.partition, op: event.op, row: rowValues(table, event.row, event.table), ...at };
    }
    case 'watermark':
      return { step, kind: 'watermark', table: event.table, partition: event.partition ?? null, to: event.to, ...at };
    case 'idle':
    case 'active':
      return { step, kind: event.kind, table: event.table, partition: event.partition ?? null, ...at };
    case 'advance':
      return { step, kind: 'advance', ms: event.ms, ...at };
    case 'note':
      return { step, kind: 'note', ...at };
  }
}

/**
 * Physical columns always (null as JSON null); metadata columns only when the row gives them a
 * value, since the loaded row cannot tell "not given" from null there; computed columns never
 * (Flink computes them).
 */
function rowValues(table: TableDef | undefined, row: readonly Value[], name: string): Record<string, string | null> {
  if (table === undefined) throw new Error(`[flink] row event for unknown table ${name}`);
  const out: Record<string, string | null> = {};
  table.columns.forEach((column: ColumnDef, i) => {
    const v = row[i] ?? null;
    if (column.kind === 'computed') return;
    if (column.kind === 'metadata' && v === null) return;
    out[column.name] = v === null ? null : formatValue(column.type, v);
  });
  return out;
}
