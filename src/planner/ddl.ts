/**
 * CREATE TABLE → TableDef: column types, computed and metadata columns, the rowtime / proctime
 * attributes, the primary key and the connector's nature, with Flink's schema-resolution errors
 * (DefaultSchemaResolver, SqlConstraintValidator, the connector factories).
 */
import type { CreateTable } from '../sql/ast.js';
import { connectorNature, lookupCache } from './connector.js';
import { fail, spanOf } from './errors.js';
import { toTExpr } from './expr.js';
import type { ColumnDef, TableDef } from './plan.js';
import type { Scope, ScopeColumn } from './scope.js';
import { flinkTypeName, resolveTypeAst } from './type-names.js';
import { isTimestamp, withNullable } from './type-rules.js';
import { exprText } from './sql-text.js';
import type { TExpr } from './plan.js';

const ENFORCED_MESSAGE =
  "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode";

type MutableColumn = { -readonly [K in keyof ColumnDef]: ColumnDef[K] };

export function planTable(ct: CreateTable): TableDef {
  const columns: MutableColumn[] = [];
  const seen = new Set<string>();
  for (const c of ct.columns) {
    if (seen.has(c.name.value)) fail(`Duplicate column name '${c.name.value}'`, c.name, 'every column of a table needs its own name');
    seen.add(c.name.value);
    if (c.kind === 'computed') continue; // typed below, once every physical / metadata column is known
    const r = resolveTypeAst(c.type);
    if (!r.ok) fail(r.message, c.type, r.hint);
    const col: MutableColumn = { name: c.name.value, type: r.type, kind: c.kind, span: spanOf(c) };
    if (c.kind === 'metadata') {
      col.metadataKey = c.from ?? c.name.value;
      col.virtual = c.virtual;
    }
    columns.push(col);
  }
  // computed columns see the physical and metadata columns; they are placed in declaration order
  const baseScope: Scope = { rels: [{ alias: ct.name.value, tableName: ct.name.value, columns: columns.map(toScopeColumn), offset: 0 }] };
  const ordered: MutableColumn[] = [];
  const baseIndex = new Map(columns.map((c, i) => [c.name, i]));
  for (const c of ct.columns) {
    if (c.kind !== 'computed') {
      ordered.push(columns[baseIndex.get(c.name.value) as number] as MutableColumn);
      continue;
    }
    const expr = toTExpr(c.expr, baseScope);
    const col: MutableColumn = { name: c.name.value, type: expr.type, kind: 'computed', expr, span: spanOf(c) };
    if (expr.k === 'call' && expr.fn === 'PROCTIME') col.timeAttr = 'proctime';
    ordered.push(col);
  }
  // computed expressions index the base layout; re-index them onto the declared order
  const remap = columns.map((c) => ordered.indexOf(c));
  for (const c of ordered) if (c.expr) c.expr = reindex(c.expr, remap);

  const primaryKey = planPrimaryKey(ct, ordered);
  const watermark = planWatermark(ct, ordered);
  const { connector, nature } = connectorNature(ct, primaryKey !== undefined);
  const cache = nature === 'lookup' ? lookupCache(ct) : undefined;
  const def: TableDef = {
    name: ct.name.value,
    columns: ordered,
    ...(watermark ? { watermark } : {}),
    ...(primaryKey ? { primaryKey } : {}),
    options: ct.options.map((o) => ({ key: o.key, value: o.value })),
    connector,
    nature,
    ...(cache ? { lookupCache: cache } : {}),
    span: spanOf(ct.name),
  };
  return def;
}

function toScopeColumn(c: ColumnDef): ScopeColumn {
  return c.timeAttr ? { name: c.name, type: c.type, timeAttr: c.timeAttr } : { name: c.name, type: c.type };
}

export function tableScopeColumns(def: TableDef): ScopeColumn[] {
  return def.columns.map(toScopeColumn);
}

/** Rewrites column indexes of an expression through `map` (old index → new index). */
export function reindex(e: TExpr, map: readonly number[]): TExpr {
  switch (e.k) {
    case 'col':
      return { ...e, index: map[e.index] ?? e.index };
    case 'lit':
      return e;
    case 'call':
      return { ...e, args: e.args.map((a) => reindex(a, map)) };
    case 'cast':
      return { ...e, arg: reindex(e.arg, map) };
    case 'case': {
      const whens = e.whens.map((w) => ({ when: reindex(w.when, map), then: reindex(w.then, map) }));
      return e.else ? { ...e, whens, else: reindex(e.else, map) } : { ...e, whens };
    }
  }
}

function planPrimaryKey(ct: CreateTable, columns: MutableColumn[]): number[] | undefined {
  const names: { value: string; start: number; end: number }[] = [];
  const inline = ct.columns.filter((c) => c.kind === 'physical' && c.primaryKey);
  if (ct.primaryKey && inline.length > 0) fail('Duplicate primary key definition', ct.primaryKey, 'declare the primary key once');
  if (ct.primaryKey) {
    if (!ct.primaryKey.notEnforced) fail(ENFORCED_MESSAGE, ct.primaryKey, 'write PRIMARY KEY (...) NOT ENFORCED: Flink cannot check a key on data it does not own');
    names.push(...ct.primaryKey.columns);
  } else if (inline.length > 0) {
    const c = inline[0];
    if (c && c.kind === 'physical') names.push(c.name);
  }
  if (names.length === 0) return undefined;
  const pkName = `PK_${names.map((n) => n.value).join('_')}`;
  return names.map((n) => {
    const i = columns.findIndex((c) => c.name === n.value);
    const col = columns[i];
    if (!col) fail(`Invalid primary key '${pkName}'. Column '${n.value}' does not exist.`, n, `columns: ${columns.map((c) => c.name).join(', ')}`);
    if (col.kind !== 'physical') fail(`Invalid primary key '${pkName}'. Column '${n.value}' is not a physical column.`, n, 'a primary key can only use physical columns');
    // Flink makes primary key columns NOT NULL
    col.type = withNullable(col.type, false);
    return i;
  });
}

function planWatermark(ct: CreateTable, columns: MutableColumn[]): TableDef['watermark'] {
  const wm = ct.watermark;
  if (!wm) return undefined;
  const i = columns.findIndex((c) => c.name === wm.column.value);
  const col = columns[i];
  if (!col) {
    fail(`Invalid column name '${wm.column.value}' for rowtime attribute in watermark declaration. Available columns are: [${columns.map((c) => c.name).join(', ')}]`, wm.column);
  }
  if (col.timeAttr === 'proctime') fail('A watermark can not be defined for a processing-time attribute.', wm.column);
  if (!isTimestamp(col.type) || (col.type.precision ?? 6) > 3) {
    fail(`Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is ${flinkTypeName(col.type)}`,
      wm.column, isTimestamp(col.type)
        ? 'declare the column as TIMESTAMP(3) (or TIMESTAMP_LTZ(3)); watermarks are milliseconds'
        : 'derive a timestamp column, e.g. ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3), and put the watermark on it');
  }
  const scope: Scope = { rels: [{ alias: ct.name.value, tableName: ct.name.value, columns: columns.map(toScopeColumn), offset: 0 }] };
  const expr = toTExpr(wm.expr, scope);
  if (!isTimestamp(expr.type) || (expr.type.precision ?? 6) > 3) {
    fail(`Invalid data type of watermark expression. The watermark expression must return a TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the expression type is ${flinkTypeName(expr.type)}`, wm.expr);
  }
  col.timeAttr = 'rowtime';
  const names = columns.map((c) => c.name);
  return { column: i, expr, text: exprText(expr, (k) => names[k] ?? `$${k}`) };
}
