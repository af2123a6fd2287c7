/**
 * The SQL of a file with `queries:`: `sql:` holds only the DDL (CREATE TABLE / VIEW), parsed and
 * checked once; each named query is parsed from its own YAML scalar and planned on the DDL plus
 * that query. The query's syntax tree is shifted past the end of the DDL text, so an error's
 * offset says by itself whether it is in the query (mapped through the query's scalar) or in the
 * DDL (a rejection pointing into a view, mapped through the `sql` block).
 */
import type { Scalar } from 'yaml';
import { planSql } from '../planner/planner.js';
import type { Span } from '../sql/ast.js';
import type { Script, Statement } from '../sql/ast.js';
import { parseSql } from '../sql/parser.js';
import { posOfOffset, report } from './context.js';
import type { LoadContext } from './context.js';
import type { QueryEntry } from './queries-block.js';
import { createSqlSourceMap } from './sql-source-map.js';
import type { SqlSourceMap } from './sql-source-map.js';
import { namesOf, sourcesOfViews } from './sql-stage.js';
import type { SqlOptions, SqlStage } from './sql-stage.js';
import type { NamedQuery } from './types.js';

export function runQueriesStage(ctx: LoadContext, sql: { text: string; node: Scalar }, queries: readonly QueryEntry[], options: SqlOptions): SqlStage {
  const toFile = sourceMap(ctx, sql.node, sql.text);
  const parsed = parseSql(sql.text);
  if (!parsed.ok) {
    report(ctx, posOfOffset(ctx, toFile(parsed.error.start)), parsed.error.message, parsed.error.hint);
    return { tableNames: [], viewNames: [], viewSources: {} };
  }
  const ddl = parsed.script;
  const base: SqlStage = { script: ddl, ...namesOf(ddl), viewSources: sourcesOfViews(ddl) };
  const stray = ddl.statements.find((s) => s.kind === 'query' || s.kind === 'insert');
  if (stray !== undefined) {
    report(ctx, posOfOffset(ctx, toFile(stray.start)), 'with `queries:`, the sql block holds only CREATE TABLE and CREATE VIEW statements',
      'move this query under `queries:` with a name of its own');
    return base;
  }
  // The DDL alone never plans (there is no query); `tables` tells whether the DDL itself did.
  const ddlPlanned = planSql(ddl, options);
  if (!ddlPlanned.ok && ddlPlanned.tables === undefined) {
    report(ctx, posOfOffset(ctx, toFile(ddlPlanned.error.span.start)), ddlPlanned.error.message, ddlPlanned.error.hint);
    return base;
  }
  const tables = ddlPlanned.ok ? ddlPlanned.tables : ddlPlanned.tables;
  const shift = sql.text.length + 1;
  const planned: NamedQuery[] = [];
  for (const q of queries) {
    const one = planOne(ctx, ddl, q, shift, toFile, options);
    if (one !== undefined) planned.push(one);
  }
  const ok = planned.length === queries.length && queries.length > 0;
  return { ...base, tables, ...(ok ? { queries: planned } : {}) };
}

function planOne(ctx: LoadContext, ddl: Script, q: QueryEntry, shift: number, ddlToFile: SqlSourceMap, options: SqlOptions): NamedQuery | undefined {
  const toFile = sourceMap(ctx, q.node, q.text);
  const fail = (offset: number, message: string, hint?: string): undefined => {
    const { line, col } = posOfOffset(ctx, toFile(offset));
    ctx.diagnostics.push({ file: ctx.file, line, col, message, ...(hint !== undefined ? { hint } : {}), query: q.name });
    return undefined;
  };
  const parsed = parseSql(q.text);
  if (!parsed.ok) return fail(parsed.error.start, parsed.error.message, parsed.error.hint);
  const [first, second] = parsed.script.statements;
  if (first === undefined) return fail(0, `query \`${q.name}\` has no SQL statement`, 'write one SELECT (or INSERT INTO ... SELECT)');
  if (first.kind === 'createTable' || first.kind === 'createView') {
    return fail(first.start, `query \`${q.name}\` must be a SELECT or INSERT INTO; CREATE statements belong in \`sql:\``, 'move the CREATE statement into the sql block');
  }
  if (second !== undefined) {
    return fail(second.start, `query \`${q.name}\` holds more than one statement`, 'give each query its own name under `queries:`');
  }
  const script: Script = { statements: [...ddl.statements, shiftSpans(first, shift)] };
  const planned = planSql(script, options);
  if (planned.ok) {
    const plan = planned.queries[0]?.plan;
    return plan === undefined ? fail(0, `query \`${q.name}\` did not plan (internal: no plan returned)`) : { name: q.name, plan, sql: q.text };
  }
  const at = planned.error.span.start;
  if (at >= shift) return fail(at - shift, planned.error.message, planned.error.hint);
  // A rejection that points into the DDL (a view the query reads): report it there, for this query.
  const { line, col } = posOfOffset(ctx, ddlToFile(at));
  const hint = planned.error.hint;
  ctx.diagnostics.push({ file: ctx.file, line, col, message: `${planned.error.message} (in query \`${q.name}\`)`, ...(hint !== undefined ? { hint } : {}), query: q.name });
  return undefined;
}

function sourceMap(ctx: LoadContext, node: Scalar, text: string): SqlSourceMap {
  const range = node.range;
  return range ? createSqlSourceMap(ctx.text, { range, type: node.type }, text) : () => 0;
}

/** A copy of a syntax tree with every span moved by `by` (only spans carry `start`/`end`, see ast.ts). */
export function shiftSpans<T extends Statement>(node: T, by: number): T {
  return shift(node, by) as T;
}

function shift(value: unknown, by: number): unknown {
  if (Array.isArray(value)) return value.map((v) => shift(v, by));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = shift(v, by);
  if (isSpan(value)) {
    out.start = value.start + by;
    out.end = value.end + by;
  }
  return out;
}

function isSpan(v: object): v is Span {
  return typeof (v as Partial<Span>).start === 'number' && typeof (v as Partial<Span>).end === 'number';
}
