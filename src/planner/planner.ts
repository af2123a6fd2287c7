/**
 * planSql: the SQL script's syntax tree → declared tables and the named query's plan, as Flink's
 * planner would build it, or Flink's own rejection (message, plain-words hint, SQL span).
 */
import type { CreateView, InsertStmt, QueryStmt, Script } from '../sql/ast.js';
import type { NamedQuery } from '../scenario/types.js';
import { planTable } from './ddl.js';
import { fail, PlanFail } from './errors.js';
import { resolveSelect, type Catalog } from './input.js';
import type { PlannerOptions } from './join-common.js';
import type { PlanError, TableDef } from './plan.js';
import { planQuery } from './query.js';

export type { PlannerOptions } from './join-common.js';

export type PlannerResult =
  | { ok: true; tables: TableDef[]; queries: NamedQuery[] }
  | { ok: false; error: PlanError; tables?: TableDef[] };

export function planSql(script: Script, options: PlannerOptions): PlannerResult {
  const tables = new Map<string, TableDef>();
  const views = new Map<string, CreateView>();
  const queries: (InsertStmt | QueryStmt)[] = [];
  let ddlDone = false;
  try {
    for (const s of script.statements) {
      if (s.kind === 'createTable' || s.kind === 'createView') {
        const name = s.name.value;
        const exists = tables.has(name) || views.has(name);
        // CREATE TABLE IF NOT EXISTS keeps the first definition, as Flink's catalog does
        if (exists && s.kind === 'createTable' && s.ifNotExists) continue;
        if (exists) {
          fail(`Table or view '${name}' already exists`, s.name, 'each CREATE TABLE / CREATE VIEW needs its own name');
        }
        if (s.kind === 'createTable') tables.set(name, planTable(s));
        else {
          views.set(name, s);
          // Flink validates a view when it is created, not when it is used
          resolveSelect({ tables, views }, s.query, new Set([name]));
        }
      } else {
        queries.push(s);
      }
    }
    ddlDone = true;
    const cat: Catalog = { tables, views };
    const first = queries[0];
    if (!first) {
      const last = script.statements[script.statements.length - 1];
      fail('joinstep needs one query to debug, but the sql block has none', last ? { start: last.end, end: last.end } : { start: 0, end: 0 },
        'add a query: SELECT ... FROM a JOIN b ON ... (or INSERT INTO sink SELECT ...)');
    }
    const second = queries[1];
    if (second) {
      fail('joinstep runs one query per scenario, but the sql block has more than one', second,
        'move the other query into its own scenario file (several named queries are a planned extension)');
    }
    const plan = planQuery(cat, options, first);
    return { ok: true, tables: [...tables.values()], queries: [{ name: 'main', plan }] };
  } catch (e) {
    if (!(e instanceof PlanFail)) throw e;
    return ddlDone ? { ok: false, error: e.error, tables: [...tables.values()] } : { ok: false, error: e.error };
  }
}
