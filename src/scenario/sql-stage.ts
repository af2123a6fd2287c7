/**
 * The `sql` block: parse, plan, and map any error's SQL offset back to the file (spec §8).
 */
import type { Scalar } from 'yaml';
import { planSql } from '../planner/planner.js';
import type { EngineConfig, FlinkVersion, TableDef } from '../planner/plan.js';
import { parseSql } from '../sql/parser.js';
import type { Script } from '../sql/ast.js';
import { posOfOffset, report } from './context.js';
import type { LoadContext } from './context.js';
import { createSqlSourceMap } from './sql-source-map.js';
import type { NamedQuery } from './types.js';

export interface SqlStage {
  readonly script?: Script;
  /** Declared tables, from the planner (absent when the DDL did not plan). */
  readonly tables?: readonly TableDef[];
  readonly queries?: readonly NamedQuery[];
  /** Names of CREATE TABLE / CREATE VIEW statements, from the syntax tree. */
  readonly tableNames: readonly string[];
  readonly viewNames: readonly string[];
  /** For a view over a single table: that table (through other views), for hints. */
  readonly viewSources: Readonly<Record<string, string>>;
}

export interface SqlOptions {
  readonly config: EngineConfig;
  readonly flinkVersion: FlinkVersion;
  readonly partitions: Record<string, number>;
}

export function runSqlStage(ctx: LoadContext, sql: { text: string; node: Scalar }, options: SqlOptions): SqlStage {
  const range = sql.node.range;
  const toFile = range ? createSqlSourceMap(ctx.text, { range, type: sql.node.type }, sql.text) : () => 0;
  const parsed = parseSql(sql.text);
  if (!parsed.ok) {
    report(ctx, posOfOffset(ctx, toFile(parsed.error.start)), parsed.error.message, parsed.error.hint);
    return { tableNames: [], viewNames: [], viewSources: {} };
  }
  const script = parsed.script;
  const { tableNames, viewNames } = namesOf(script);
  const viewSources = sourcesOfViews(script);
  const planned = planSql(script, options);
  if (!planned.ok) {
    report(ctx, posOfOffset(ctx, toFile(planned.error.span.start)), planned.error.message, planned.error.hint);
    return { script, tables: planned.tables, tableNames, viewNames, viewSources };
  }
  return { script, tables: planned.tables, queries: planned.queries, tableNames, viewNames, viewSources };
}

/** Names of the CREATE TABLE and CREATE VIEW statements, in order. */
export function namesOf(script: Script): { tableNames: string[]; viewNames: string[] } {
  const tableNames: string[] = [];
  const viewNames: string[] = [];
  for (const s of script.statements) {
    if (s.kind === 'createTable') tableNames.push(s.name.value);
    else if (s.kind === 'createView') viewNames.push(s.name.value);
  }
  return { tableNames, viewNames };
}

export function sourcesOfViews(script: Script): Record<string, string> {
  const direct = new Map<string, string>();
  for (const s of script.statements) {
    if (s.kind === 'createView' && s.query.from.kind === 'table') direct.set(s.name.value, s.query.from.name.value);
  }
  const out: Record<string, string> = {};
  for (const view of direct.keys()) {
    let name = view;
    // Follow views over views; the bound stops a cycle, which the planner reports anyway.
    for (let i = 0; i < 10 && direct.has(name); i++) name = direct.get(name)!;
    if (!direct.has(name)) out[view] = name;
  }
  return out;
}
