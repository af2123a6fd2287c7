/**
 * The query's output: the select list over the joined row (outer joins make the padded side
 * nullable), Calcite's column naming, the output changelog mode and upsert keys.
 */
import type { Select } from '../sql/ast.js';
import type { RowKind, SqlType } from '../values/types.js';
import { fail } from './errors.js';
import { toTExpr } from './expr.js';
import type { JoinFamily, JoinType, TExpr } from './plan.js';
import type { Scope, ScopeRel } from './scope.js';
import { withNullable } from './type-rules.js';

export interface Projection {
  readonly exprs: TExpr[];
  readonly names: string[];
  readonly types: SqlType[];
}

/** The joined scope as the select list sees it: a padded side's columns are nullable. */
export function outputScope(scope: Scope, joinType: JoinType): Scope {
  const padLeft = joinType === 'right' || joinType === 'full';
  const padRight = joinType === 'left' || joinType === 'full';
  const rels = scope.rels.map((r, i): ScopeRel => {
    const pad = (i === 0 && padLeft) || (i === 1 && padRight);
    return pad ? { ...r, columns: r.columns.map((c) => ({ ...c, type: withNullable(c.type, true) })) } : r;
  });
  return { rels };
}

/** Calcite's SqlValidatorUtil.uniquify: later duplicates get 0, 1, ... appended. */
export function uniquify(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((n) => {
    let name = n;
    for (let i = 0; used.has(name); i++) name = `${n}${i}`;
    used.add(name);
    return name;
  });
}

export function projectSelect(q: Select, scope: Scope): Projection {
  const exprs: TExpr[] = [];
  const names: string[] = [];
  const star = (rels: readonly ScopeRel[]): void => {
    for (const r of rels) {
      r.columns.forEach((c, i) => {
        exprs.push({ k: 'col', type: c.type, index: r.offset + i, name: c.name });
        names.push(c.name);
      });
    }
  };
  q.items.forEach((item, pos) => {
    if (item.kind === 'star') {
      if (!item.qualifier) return star(scope.rels);
      const q = item.qualifier.value;
      const rel = scope.rels.find((r) => r.alias === q);
      if (!rel) fail(`Unknown identifier '${q}'`, item.qualifier, `the query's inputs are ${scope.rels.map((r) => r.alias).join(', ')}`);
      return star([rel]);
    }
    const e = toTExpr(item.expr, scope);
    exprs.push(e);
    names.push(item.alias?.value ?? (item.expr.kind === 'column' ? item.expr.name.value : `EXPR$${pos}`));
  });
  return { exprs, names: uniquify(names), types: exprs.map((e) => e.type) };
}

const ALL: readonly RowKind[] = ['+I', '-U', '+U', '-D'];

/** Flink's ModifyKindSet inference for the join, in BEFORE_AND_AFTER form. */
export function outputChangelog(family: JoinFamily, joinType: JoinType, left: readonly RowKind[], right: readonly RowKind[]): readonly RowKind[] {
  if (family === 'interval') return ['+I'];
  if (family === 'temporal' || family === 'lookup') return left;
  if (family === 'anti' || joinType !== 'inner') return ALL;
  const kinds = new Set([...left, ...right]);
  const update = kinds.has('-U') || kinds.has('+U');
  return ALL.filter((k) => k === '+I' || (update && (k === '-U' || k === '+U')) || (k === '-D' && kinds.has('-D')));
}

/** Calcite / Flink unique keys of a two-input join, over the joined row. */
export function joinUniqueKeys(
  family: JoinFamily, joinType: JoinType, leftWidth: number,
  left: { keys: readonly (readonly number[])[]; joinKey: readonly number[] },
  right: { keys: readonly (readonly number[])[]; joinKey: readonly number[] },
): number[][] {
  if (family === 'semi' || family === 'anti' || family === 'temporal') return left.keys.map((k) => [...k]);
  if (family === 'interval') return [];
  const rightKeys = right.keys.map((k) => k.map((i) => i + leftWidth));
  const unique = (keys: readonly (readonly number[])[], joinKey: readonly number[]): boolean =>
    keys.some((k) => k.every((c) => joinKey.includes(c)));
  if (family === 'lookup') return unique(right.keys, right.joinKey) ? left.keys.map((k) => [...k]) : [];
  const out: number[][] = [];
  for (const lk of left.keys) for (const rk of rightKeys) out.push([...lk, ...rk]);
  if (unique(right.keys, right.joinKey) && joinType !== 'right' && joinType !== 'full') out.push(...left.keys.map((k) => [...k]));
  if (unique(left.keys, left.joinKey) && joinType !== 'left' && joinType !== 'full') out.push(...rightKeys);
  return out;
}

/** Keys that survive the projection (every column projected as a plain column), in output positions. */
export function projectKeys(keys: readonly (readonly number[])[], exprs: readonly TExpr[]): number[][] {
  const out: number[][] = [];
  for (const k of keys) {
    const mapped = k.map((c) => exprs.findIndex((e) => e.k === 'col' && e.index === c));
    if (mapped.every((i) => i >= 0) && !out.some((o) => o.join() === mapped.join())) out.push(mapped);
  }
  return out;
}
