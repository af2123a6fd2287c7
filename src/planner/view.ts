/**
 * One SELECT level of a view or FROM subquery over an input: WHERE becomes a source-row filter,
 * the select list a projection, and `ROW_NUMBER() OVER (PARTITION BY k ORDER BY t DESC)` filtered
 * by `rn = 1` one level up becomes Flink's Deduplicate (keep last row) — a versioned table keyed by k.
 */
import type { CallExpr, Expr, Select } from '../sql/ast.js';
import { fail } from './errors.js';
import { toTExpr } from './expr.js';
import type { InputSource } from './input.js';
import type { TExpr } from './plan.js';
import type { Scope, ScopeColumn } from './scope.js';
import { andAll, columnsOf, substitute } from './texpr-util.js';
import { t } from './type-rules.js';

/** A ROW_NUMBER() column waiting for its `rn = 1` filter (input-row index of the column). */
interface PendingRank {
  readonly column: number;
  readonly key: readonly number[];
  readonly orderBy: number;
  readonly keepLast: boolean;
}

type WithRank = InputSource & { readonly rank?: PendingRank };

const ONE: TExpr = { k: 'lit', type: t('BIGINT', false), value: 1 };

export function selectOverInput(below: WithRank, q: Select): InputSource {
  if (q.groupBy || q.having || q.distinct) {
    fail('joinstep debugs joins: aggregations and DISTINCT in views are not supported', q, 'read the table directly, or use the ROW_NUMBER() deduplication pattern');
  }
  const scope: Scope = { rels: [{ alias: below.alias, tableName: below.refName, columns: below.columns, offset: 0 }] };
  const toSource = (e: TExpr): TExpr => (below.project ? substitute(e, below.project) : e);
  let dedup = below.dedup;
  let filterAfterDedup = below.filterAfterDedup;
  let rankPending = below.rank;
  const filters: TExpr[] = below.filter ? [below.filter] : [];
  for (const c of splitAnd(q.where)) {
    const e = toTExpr(c, scope);
    if (rankPending && isRankOne(e, rankPending.column)) {
      dedup = { key: rankPending.key, orderBy: rankPending.orderBy, keepLast: rankPending.keepLast };
      rankPending = undefined;
      continue;
    }
    if (below.rank && columnsOf(e).has(below.rank.column)) {
      fail('joinstep recognises ROW_NUMBER() only as deduplication: filter it with rn = 1', c);
    }
    if (dedup) filterAfterDedup = true;
    filters.push(toSource(e));
  }
  if (rankPending) {
    fail('joinstep supports ROW_NUMBER() only in the deduplication pattern', q,
      'write SELECT ... FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY t DESC) AS rn FROM x) WHERE rn = 1');
  }
  const rankColumn = below.rank?.column;
  const project: TExpr[] = [];
  const columns: ScopeColumn[] = [];
  const push = (name: string, e: TExpr, timeAttr: ScopeColumn['timeAttr']): void => {
    const isRank = e.k === 'col' && e.index === rankColumn;
    project.push(isRank ? ONE : toSource(e));
    columns.push(timeAttr ? { name, type: isRank ? ONE.type : e.type, timeAttr } : { name, type: isRank ? ONE.type : e.type });
  };
  let newRank: PendingRank | undefined;
  q.items.forEach((item, pos) => {
    if (item.kind === 'star') {
      below.columns.forEach((c, i) => push(c.name, { k: 'col', type: c.type, index: i, name: c.name }, c.timeAttr));
      return;
    }
    if (item.expr.kind === 'call' && item.expr.over) {
      if (newRank || dedup || below.rank) fail('joinstep supports one ROW_NUMBER() deduplication per input', item.expr);
      newRank = rankOf(item.expr, scope, columns.length, toSource);
      columns.push({ name: item.alias?.value ?? `EXPR$${pos}`, type: ONE.type });
      project.push(ONE);
      return;
    }
    const e = toTExpr(item.expr, scope);
    const name = item.alias?.value ?? (item.expr.kind === 'column' ? item.expr.name.value : `EXPR$${pos}`);
    const attr = e.k === 'col' ? below.columns[e.index]?.timeAttr : undefined;
    push(name, e, attr);
  });
  const filter = andAll(filters);
  const out: WithRank = {
    def: below.def,
    refName: below.refName,
    alias: below.alias,
    filterAfterDedup,
    project,
    columns,
    span: below.span,
    ...(below.viewName ? { viewName: below.viewName } : {}),
    ...(filter ? { filter } : {}),
    ...(dedup ? { dedup } : {}),
    ...(newRank ? { rank: newRank } : {}),
  };
  return out;
}

function splitAnd(e: Expr | undefined): Expr[] {
  if (!e) return [];
  if (e.kind === 'binary' && e.op === 'AND') return [...splitAnd(e.left), ...splitAnd(e.right)];
  return [e];
}

/** `rn = 1`, `1 = rn`, `rn <= 1` or `rn < 2`: Flink's rank-range 1..1. */
function isRankOne(e: TExpr, column: number): boolean {
  if (e.k !== 'call' || e.args.length !== 2) return false;
  const [a, b] = e.args as [TExpr, TExpr];
  const isCol = (x: TExpr): boolean => x.k === 'col' && x.index === column;
  const lit = (x: TExpr): unknown => (x.k === 'lit' ? x.value : undefined);
  if (e.fn === '=') return (isCol(a) && lit(b) === 1) || (isCol(b) && lit(a) === 1);
  if (e.fn === '<=') return isCol(a) && lit(b) === 1;
  if (e.fn === '<') return isCol(a) && lit(b) === 2;
  return false;
}

function rankOf(call: CallExpr, scope: Scope, column: number, toSource: (e: TExpr) => TExpr): PendingRank {
  const over = call.over;
  if (call.name !== 'ROW_NUMBER' || !over) fail(`joinstep supports only ROW_NUMBER() OVER (...), not ${call.name}`, call.nameSpan);
  const sourceCol = (x: Expr): number => {
    const e = toSource(toTExpr(x, scope));
    if (e.k !== 'col') fail('joinstep supports PARTITION BY / ORDER BY plain columns only', x);
    return e.index;
  };
  if (over.partitionBy.length === 0) fail('deduplication needs PARTITION BY the key columns', over, 'write ROW_NUMBER() OVER (PARTITION BY k ORDER BY t DESC)');
  const first = over.orderBy[0];
  if (over.orderBy.length !== 1 || !first) {
    fail('Flink recognises deduplication only with ORDER BY one time attribute', over, 'order by the rowtime (or proctime) column, ASC or DESC');
  }
  const orderExpr = toTExpr(first.expr, scope);
  const attr = orderExpr.k === 'col' ? scope.rels[0]?.columns[orderExpr.index]?.timeAttr : undefined;
  if (!attr) {
    fail('Flink recognises deduplication only with ORDER BY a time attribute; this ROW_NUMBER() would be a Top-N rank', first.expr,
      'order by the column that has the WATERMARK (or a PROCTIME() column)');
  }
  return { column, key: over.partitionBy.map(sourceCol), orderBy: sourceCol(first.expr), keepLast: first.desc };
}
