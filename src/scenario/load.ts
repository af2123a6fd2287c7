/**
 * The scenario loader: the only place that reads YAML. A file goes through YAML (with
 * positions), the top-level schema, the SQL (parse + plan) and the events; every problem found
 * on the way becomes a diagnostic, and all of them are returned in file order.
 */
import { readFile } from 'node:fs/promises';
import { isMap, isScalar } from 'yaml';
import { report } from './context.js';
import type { LoadContext } from './context.js';
import { dedupeDiagnostics, sortDiagnostics } from './diagnostic.js';
import { suggestionHint } from './did-you-mean.js';
import type { EventEnv } from './event-env.js';
import { readEvents } from './events.js';
import { checkExpectForm } from './expect-check.js';
import { runQueriesStage } from './queries-stage.js';
import { runSqlStage } from './sql-stage.js';
import type { SqlStage } from './sql-stage.js';
import { readTopLevel } from './top-level.js';
import type { TopLevel } from './top-level.js';
import type { Diagnostic, LoadResult, Scenario } from './types.js';
import { parseYaml } from './yaml-doc.js';

export async function loadScenarioFile(path: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { ok: false, diagnostics: [{ file: path, line: 1, col: 1, ...readProblem(error) }] };
  }
  return loadScenarioText(path, text);
}

function readProblem(error: unknown): { message: string; hint?: string } {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENOENT') return { message: 'no such file', hint: 'check the path' };
  if (code === 'EISDIR') return { message: 'this is a directory, not a scenario file', hint: 'name a .yaml file inside it' };
  if (code === 'EACCES') return { message: 'permission denied: the file cannot be read' };
  return { message: `cannot read the file (${code ?? 'unknown reason'})` };
}

export function loadScenarioText(file: string, text: string): LoadResult {
  const parsed = parseYaml(file, text);
  if (!parsed.ok) return { ok: false, diagnostics: [parsed.diagnostic] };
  const ctx = parsed.ctx;
  const root = ctx.doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) {
    report(ctx, { line: 1, col: 1 }, 'the scenario file is empty', 'a scenario needs at least `name:`, `sql:` and `events:`');
    return { ok: false, diagnostics: ctx.diagnostics };
  }
  if (!isMap(root)) {
    report(ctx, root, 'a scenario file must be a YAML map of keys (`name:`, `sql:`, `events:`, ...), not a list or a single value', 'see docs/scenario-format.md for an example');
    return { ok: false, diagnostics: ctx.diagnostics };
  }
  const top = readTopLevel(ctx, root);
  const partitions = Object.fromEntries(top.partitions.map((p) => [p.table, p.count]));
  const options = { config: top.config, flinkVersion: top.flinkVersion, partitions };
  let stage: SqlStage | undefined;
  if (top.sql !== undefined) {
    stage = top.queries !== undefined ? runQueriesStage(ctx, top.sql, top.queries, options) : runSqlStage(ctx, top.sql, options);
  }
  checkExpectForm(ctx, top);
  if (stage?.script !== undefined) checkPartitionTables(ctx, top, stage);
  const allPartitions = { ...Object.fromEntries((stage?.tables ?? []).map((t) => [t.name, 1])), ...partitions };
  const events = top.events && top.sql ? readEvents(ctx, top.events, eventEnv(top, stage, allPartitions)) : undefined;
  const diagnostics = sortDiagnostics(dedupeDiagnostics(ctx.diagnostics));
  if (diagnostics.length > 0 || stage?.queries === undefined || events === undefined || top.name === undefined || top.sql === undefined) {
    return failed(ctx, diagnostics, top);
  }
  const scenario: Scenario = {
    file,
    name: top.name,
    ...(top.description !== undefined ? { description: top.description } : {}),
    date: top.dateMs,
    flinkVersion: top.flinkVersion,
    watermarks: top.watermarks,
    partitions: allPartitions,
    config: top.config,
    sql: top.sql.text,
    queries: stage.queries,
    ...(top.queries !== undefined ? { namedQueries: true } : {}),
    events,
    ...(top.expect !== undefined ? { expect: top.expect } : {}),
    ...(top.demo !== undefined ? { demo: top.demo } : {}),
  };
  return { ok: true, scenario };
}

function failed(ctx: LoadContext, diagnostics: readonly Diagnostic[], top: TopLevel): LoadResult {
  // Nothing reported but no plan either would be a loader bug; say so rather than fail silently.
  const list: readonly Diagnostic[] = diagnostics.length > 0 ? diagnostics : [{ file: ctx.file, line: 1, col: 1, message: 'the scenario could not be loaded (internal: no diagnostic was produced)' }];
  return {
    ok: false,
    diagnostics: list,
    ...(top.expect !== undefined ? { expect: top.expect } : {}),
    ...(top.name !== undefined ? { name: top.name } : {}),
  };
}

function eventEnv(top: TopLevel, stage: SqlStage | undefined, partitions: Record<string, number>): EventEnv {
  const plans = (stage?.queries ?? []).map((q) => q.plan);
  const inputTables = stage?.queries ? new Set(plans.flatMap((p) => p.inputs.map((i) => i.table))) : undefined;
  // A table one query writes and another reads takes events as the reader's input.
  const sinkTables = new Set(plans.flatMap((p) => (p.sink !== undefined && !inputTables?.has(p.sink.table) ? [p.sink.table] : [])));
  return {
    ...(stage?.tables !== undefined ? { tables: stage.tables } : {}),
    ...(inputTables !== undefined ? { inputTables } : {}),
    sinkTables,
    queryCount: plans.length,
    viewNames: stage?.viewNames ?? [],
    viewSources: stage?.viewSources ?? {},
    partitions,
    valueCtx: { dateMs: top.dateMs, timeZone: top.config.localTimeZone },
    sql: top.sql?.text ?? '',
    dateMs: top.dateMs,
  };
}

/** `partitions:` keys must be declared tables (checked once the SQL is parsed). */
function checkPartitionTables(ctx: LoadContext, top: TopLevel, stage: SqlStage): void {
  for (const p of top.partitions) {
    if (stage.tableNames.includes(p.table)) continue;
    if (stage.viewNames.includes(p.table)) {
      report(ctx, p.keyNode, `partitions: \`${p.table}\` is a view; partitions belong to source tables`);
    } else {
      report(ctx, p.keyNode, `partitions: unknown table \`${p.table}\``, suggestionHint(p.table, stage.tableNames, 'tables are'));
    }
  }
}
