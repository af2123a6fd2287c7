/**
 * A row event's values (spec §4): checked against the table's columns and types, produced in
 * the table's column order with computed columns left null for the engine.
 */
import { isMap, isScalar, Scalar } from 'yaml';
import type { Node } from 'yaml';
import type { ColumnDef, TableDef, TExpr } from '../planner/plan.js';
import { parseValue } from '../values/literal.js';
import type { ScalarInput } from '../values/literal.js';
import type { RowKind, Value } from '../values/types.js';
import { describeNode, entries, report, scalarSource } from './context.js';
import { TIME_RANGE_HINT, valueOutOfRange } from './time-range.js';
import type { Entry, LoadContext } from './context.js';
import { suggestionHint } from './did-you-mean.js';
import type { EventEnv } from './event-env.js';
import { printable } from '../values/printable.js';
import { valueSizeProblem } from './limits.js';

export function readRow(ctx: LoadContext, env: EventEnv, rowEntry: Entry, table: TableDef | undefined, op: RowKind): Value[] | undefined {
  const node = rowEntry.value;
  if (!isMap(node)) {
    report(ctx, rowEntry.valueWhere, `row must be a map of column values, not ${describeNode(node)}`, 'e.g. `row: { id: o1, amount: 10 }`');
    return undefined;
  }
  const given = entries(ctx, node);
  if (table === undefined) return undefined;
  const values: Value[] = table.columns.map(() => null);
  const seen = new Set<number>();
  let ok = true;
  for (const e of given) {
    const index = table.columns.findIndex((c) => c.name === e.key);
    const column = table.columns[index];
    if (column === undefined) {
      const names = table.columns.filter((c) => c.kind !== 'computed').map((c) => c.name);
      report(ctx, e.keyNode, `table \`${printable(table.name)}\` has no column \`${printable(e.key)}\``, suggestionHint(e.key, names, 'its columns are', 'it has no columns'));
      ok = false;
      continue;
    }
    if (column.kind === 'computed') {
      reportComputed(ctx, env, e.keyNode, table, column);
      ok = false;
      continue;
    }
    seen.add(index);
    const value = readValue(ctx, env, e, table, column, index);
    if (value === undefined) ok = false;
    else values[index] = value;
  }
  if (!checkMissing(ctx, rowEntry.keyNode, table, seen, op)) ok = false;
  return ok ? values : undefined;
}

function readValue(ctx: LoadContext, env: EventEnv, e: Entry, table: TableDef, column: ColumnDef, index: number): Value | undefined {
  const node = e.value;
  if (node !== null && !isScalar(node)) {
    report(ctx, e.valueWhere, `column \`${column.name}\` takes one value, not ${describeNode(node)}`);
    return undefined;
  }
  const input = scalarInput(node);
  const tooLong = valueSizeProblem(input.text.length);
  if (tooLong !== undefined) {
    report(ctx, e.valueWhere, `column \`${printable(column.name)}\`: ${tooLong.message}`, tooLong.hint);
    return undefined;
  }
  if (input.yamlType === 'null') {
    if (isKey(table, index) || !column.type.nullable) {
      const why = isKey(table, index) ? 'is part of the primary key' : 'is NOT NULL';
      report(ctx, e.valueWhere, `column \`${column.name}\` ${why}, so it cannot be null`, 'give it a value');
      return undefined;
    }
    return null;
  }
  const r = parseValue(column.type, input, env.valueCtx);
  if (r.ok && valueOutOfRange(column.type, r.value)) {
    report(ctx, e.valueWhere, `column \`${column.name}\`: ${input.yamlType === 'string' ? `'${input.text}'` : input.text} is outside the years 0001 to 9999`, TIME_RANGE_HINT);
    return undefined;
  }
  if (r.ok) return r.value;
  report(ctx, e.valueWhere, `column \`${column.name}\`: ${r.message}`, r.hint);
  return undefined;
}

/** The scalar as the values module wants it: source text for plain scalars (so 1.10 stays 1.10). */
export function scalarInput(node: Scalar | null): ScalarInput {
  if (node === null || node.value === null || node.value === undefined) return { text: '', yamlType: 'null', quoted: false };
  const quoted = node.type !== Scalar.PLAIN && node.type !== undefined;
  const v = node.value;
  if (typeof v === 'number') return { text: scalarSource(node), yamlType: 'number', quoted };
  if (typeof v === 'boolean') return { text: scalarSource(node), yamlType: 'boolean', quoted };
  return { text: String(v), yamlType: 'string', quoted };
}

function isKey(table: TableDef, index: number): boolean {
  return table.primaryKey?.includes(index) ?? false;
}

/** A missing key column is an error; a missing NOT NULL column too, except on a retraction (-U / -D). */
function checkMissing(ctx: LoadContext, where: Node, table: TableDef, seen: ReadonlySet<number>, op: RowKind): boolean {
  let ok = true;
  table.columns.forEach((c, i) => {
    if (seen.has(i) || c.kind === 'computed') return;
    const key = isKey(table, i);
    if (!key && (c.type.nullable || c.kind === 'metadata' || op === '-U' || op === '-D')) return;
    const why = key ? 'primary-key' : 'NOT NULL';
    report(ctx, where, `this row for \`${table.name}\` has no value for ${why} column \`${c.name}\``, `add \`${c.name}: ...\` to the row`);
    ok = false;
  });
  return ok;
}

function reportComputed(ctx: LoadContext, env: EventEnv, where: Node, table: TableDef, column: ColumnDef): void {
  const definition = env.sql.slice(column.span.start, column.span.end).replace(/\s+/g, ' ').trim();
  const sources = column.expr ? columnNames(column.expr) : [];
  const proctime = column.timeAttr === 'proctime';
  const from = proctime ? 'the processing time' : sources.length > 0 ? sources.map((s) => `\`${s}\``).join(', ') : 'an expression';
  const hint = proctime
    ? 'set the processing time with `at:` or `advance:` events instead'
    : sources.length > 0
      ? `give ${sources.map((s) => `\`${s}\``).join(', ')} instead; joinstep computes \`${column.name}\` as Flink does`
      : `remove \`${column.name}\` from the row`;
  report(ctx, where, `column \`${column.name}\` of \`${table.name}\` is computed from ${from} (${definition}), so a row cannot give it`, hint);
}

function columnNames(e: TExpr, out: string[] = []): string[] {
  if (e.k === 'col') {
    if (!out.includes(e.name)) out.push(e.name);
  } else if (e.k === 'call') e.args.forEach((a) => columnNames(a, out));
  else if (e.k === 'cast') columnNames(e.arg, out);
  else if (e.k === 'case') {
    e.whens.forEach((w) => {
      columnNames(w.when, out);
      columnNames(w.then, out);
    });
    if (e.else) columnNames(e.else, out);
  }
  return out;
}
