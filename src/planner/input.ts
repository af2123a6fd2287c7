/**
 * A join input as the planner sees it before choosing an operator: a source table, possibly read
 * through views / FROM subqueries that filter, project, or deduplicate (the versioned-view
 * pattern). Everything is folded into one shape over the source table's row.
 */
import type { CreateView, Expr, Select, Span, TableRef } from '../sql/ast.js';
import type { RowKind } from '../values/types.js';
import { tableScopeColumns } from './ddl.js';
import { didYouMean, fail, spanOf } from './errors.js';
import type { TableDef, TExpr } from './plan.js';
import type { ScopeColumn } from './scope.js';
import { selectOverInput } from './view.js';
import { printable } from '../values/printable.js';

export interface Dedup {
  /** Partition key, as source-row indexes. */
  readonly key: readonly number[];
  /** ORDER BY column, a source-row index. */
  readonly orderBy: number;
  readonly keepLast: boolean;
}

export interface InputSource {
  readonly def: TableDef;
  /** The table or view name written in FROM. */
  readonly refName: string;
  readonly viewName?: string;
  readonly alias: string;
  /** Filter over the source row, applied before any deduplication. */
  readonly filter?: TExpr;
  /** A filter over a deduplicated (changelog) row: only the temporal-join check cares. */
  readonly filterAfterDedup: boolean;
  readonly dedup?: Dedup;
  /** Source row → input row; absent = identity. */
  readonly project?: readonly TExpr[];
  readonly columns: readonly ScopeColumn[];
  readonly span: Span;
  readonly forSystemTime?: Expr;
}

export interface Catalog {
  readonly tables: ReadonlyMap<string, TableDef>;
  readonly views: ReadonlyMap<string, CreateView>;
}

/** The base input: the table itself, unfiltered. */
export function tableInput(def: TableDef, refName: string, alias: string, span: Span): InputSource {
  return { def, refName, alias, filterAfterDedup: false, columns: tableScopeColumns(def), span: spanOf(span) };
}

/**
 * Resolves a FROM table reference through the catalog (tables first, then views). `visiting`
 * holds the views being resolved on the way here: meeting one again is a real cycle, while a
 * long chain of distinct views is fine.
 */
export function resolveTableRef(cat: Catalog, ref: TableRef, visiting: ReadonlySet<string> = new Set()): InputSource {
  const name = ref.name.value;
  const alias = ref.alias?.value ?? name;
  const def = cat.tables.get(name);
  const base: Partial<InputSource> = ref.forSystemTime ? { forSystemTime: ref.forSystemTime } : {};
  if (def) return { ...tableInput(def, name, alias, ref.name), ...base };
  const view = cat.views.get(name);
  if (!view) {
    fail(`Object '${printable(name)}' not found`, ref.name, didYouMean(name, [...cat.tables.keys(), ...cat.views.keys()], 'table'));
  }
  if (visiting.has(name)) fail(`View '${name}' refers to itself`, ref.name);
  const inner = resolveSelect(cat, view.query, new Set([...visiting, name]));
  return { ...inner, refName: name, viewName: name, alias, span: spanOf(ref.name), ...base };
}

/** A SELECT used as an input (view body or FROM subquery): one table, filters, projections, dedup. */
export function resolveSelect(cat: Catalog, q: Select, visiting: ReadonlySet<string> = new Set()): InputSource {
  if (q.from.kind === 'join') {
    fail('joinstep supports views and subqueries over a single table', q.from.keywordSpan, 'join the tables in the main query instead');
  }
  const below = q.from.kind === 'table' ? resolveTableRef(cat, q.from, visiting) : resolveSelect(cat, q.from.query, visiting);
  const alias = q.from.kind === 'table' ? (q.from.alias?.value ?? q.from.name.value) : (q.from.alias?.value ?? below.alias);
  return selectOverInput({ ...below, alias }, q);
}

/** The changelog a source emits before any planner-inserted step. */
export function sourceChangelog(def: TableDef): readonly RowKind[] {
  switch (def.nature) {
    case 'append':
    case 'lookup':
      return ['+I'];
    case 'upsert':
      return ['+I', '+U', '-D'];
    case 'changelog':
      return ['+I', '-U', '+U', '-D'];
  }
}

/** Input-row indexes of the source-row columns `cols`, if every one is projected as a plain column. */
export function mapThroughProject(src: InputSource, cols: readonly number[]): number[] | undefined {
  if (!src.project) return [...cols];
  const out: number[] = [];
  for (const c of cols) {
    const i = src.project.findIndex((p) => p.k === 'col' && p.index === c);
    if (i < 0) return undefined;
    out.push(i);
  }
  return out;
}

/** The input's unique (upsert) keys over the input row: the dedup key, else the table's primary key. */
export function inputUniqueKey(src: InputSource): number[] | undefined {
  const key = src.dedup ? src.dedup.key : src.def.primaryKey;
  if (!key || key.length === 0) return undefined;
  return mapThroughProject(src, key);
}
