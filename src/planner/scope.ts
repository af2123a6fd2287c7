/**
 * Name resolution: the relations visible to an expression (FROM items with their aliases) and
 * Calcite's wording when a name does not resolve.
 */
import type { ColumnRefExpr } from '../sql/ast.js';
import type { SqlType } from '../values/types.js';
import { didYouMean, fail } from './errors.js';
import type { TimeAttrKind } from './plan.js';
import { printable } from '../values/printable.js';

export interface ScopeColumn {
  readonly name: string;
  readonly type: SqlType;
  readonly timeAttr?: TimeAttrKind;
}

export interface ScopeRel {
  /** The name the query uses: alias, else the table or view name. */
  readonly alias: string;
  /** The catalog name (table or view) when the relation is one. */
  readonly tableName?: string;
  readonly columns: readonly ScopeColumn[];
  /** Index of this relation's first column in the combined row. */
  readonly offset: number;
}

export interface Scope {
  readonly rels: readonly ScopeRel[];
  /** The enclosing query's scope (a correlated subquery sees the outer table). */
  readonly parent?: Scope;
}

export interface Resolved {
  readonly index: number;
  readonly rel: ScopeRel;
  readonly column: ScopeColumn;
}

export function scopeWidth(scope: Scope): number {
  return scope.rels.reduce((n, r) => n + r.columns.length, 0);
}

export function columnAt(scope: Scope, index: number): ScopeColumn | undefined {
  for (const r of scope.rels) {
    if (index >= r.offset && index < r.offset + r.columns.length) return r.columns[index - r.offset];
  }
  return undefined;
}

/** Resolves `q.col` or `col` as Calcite does: exact (case-sensitive) names, ambiguity is an error. */
export function resolveColumn(scope: Scope, ref: ColumnRefExpr): Resolved {
  const name = ref.name.value;
  if (ref.qualifier) {
    const q = ref.qualifier.value;
    const rel = scope.rels.find((r) => r.alias === q);
    if (!rel && scope.parent && findRel(scope.parent, q)) return resolveColumn(scope.parent, ref);
    if (!rel) {
      fail(`Table '${q}' not found`, ref.qualifier, didYouMean(q, scope.rels.map((r) => r.alias), 'table alias'));
    }
    const i = rel.columns.findIndex((c) => c.name === name);
    if (i < 0) {
      fail(`Column '${printable(name)}' not found in table '${printable(q)}'`, ref.name, didYouMean(name, rel.columns.map((c) => c.name), 'column'));
    }
    return { index: rel.offset + i, rel, column: rel.columns[i] as ScopeColumn };
  }
  const hits: Resolved[] = [];
  for (const rel of scope.rels) {
    const i = rel.columns.findIndex((c) => c.name === name);
    if (i >= 0) hits.push({ index: rel.offset + i, rel, column: rel.columns[i] as ScopeColumn });
  }
  if (hits.length > 1) {
    const where = hits.map((h) => `${h.rel.alias}.${name}`).join(' or ');
    fail(`Column '${printable(name)}' is ambiguous`, ref.name, `qualify it: ${where}`);
  }
  const hit = hits[0];
  if (!hit && scope.parent) return resolveColumn(scope.parent, ref);
  if (!hit) {
    const all = scope.rels.flatMap((r) => r.columns.map((c) => c.name));
    fail(`Column '${printable(name)}' not found in any table`, ref.name, didYouMean(name, [...new Set(all)], 'column'));
  }
  return hit;
}

function findRel(scope: Scope, alias: string): ScopeRel | undefined {
  return scope.rels.find((r) => r.alias === alias) ?? (scope.parent ? findRel(scope.parent, alias) : undefined);
}
