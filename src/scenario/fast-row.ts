/**
 * Row events checked without YAML nodes: the common case of a big arrival script (a row with
 * `to`, `row` and maybe `op` / `partition`, every value valid) goes from light nodes
 * (flow-line.ts) straight to a ScenarioEvent. Anything else, and every mistake, is `undefined`:
 * the caller then runs the general checks (events.ts, event-row.ts), which report it; so the
 * result and the diagnostics are those of the general path by construction, and this file only
 * has to agree with it on what is valid.
 */
import { valueSizeProblem } from './limits.js';
import { Scalar } from 'yaml';
import type { TableDef } from '../planner/plan.js';
import { parseValue, plainIntegerValue } from '../values/literal.js';
import type { ScalarInput } from '../values/literal.js';
import { ROW_KINDS } from '../values/types.js';
import type { RowKind, Value } from '../values/types.js';
import type { LoadContext } from './context.js';
import { eventTable } from './event-env.js';
import type { EventEnv } from './event-env.js';
import type { LightMap, LightScalar } from './flow-line.js';
import { valueOutOfRange } from './time-range.js';
import type { FilePos, ScenarioEvent } from './types.js';

/** A table rows may be sent to, with what the checks need at hand. */
export interface RowTable {
  readonly def: TableDef;
  readonly index: ReadonlyMap<string, number>;
  readonly partitions: number;
  /** Per column: the row (by its serial) that last gave it a value. */
  readonly seen: Int32Array;
}

export class FastRows {
  private readonly tables = new Map<string, RowTable | null>();
  private serial = 0;

  constructor(
    private readonly ctx: LoadContext,
    private readonly env: EventEnv,
  ) {}

  /** The table named `name` when a row event may go to it (the general check reports nothing). */
  table(name: string): RowTable | undefined {
    let t = this.tables.get(name);
    if (t === undefined) {
      const scratch: LoadContext = { ...this.ctx, diagnostics: [] };
      const key = new Scalar('to');
      const value = new Scalar(name);
      const def = eventTable(scratch, this.env, { key: 'to', keyNode: key, value, valueWhere: value }, 'row');
      t = def === undefined || scratch.diagnostics.length > 0 ? null : rowTable(def, this.env);
      this.tables.set(name, t);
    }
    return t ?? undefined;
  }

  /** A `{ to, row, op?, partition? }` event with nothing wrong, else undefined. */
  event(m: LightMap, pos: FilePos): ScenarioEvent | undefined {
    let to: LightScalar | undefined;
    let row: LightMap | undefined;
    let opNode: LightScalar | undefined;
    let partNode: LightScalar | undefined;
    for (let i = 0; i < m.keys.length; i++) {
      const v = m.values[i]!;
      switch (m.keys[i]!.value) {
        case 'to':
          if (v.map) return undefined;
          to = v;
          break;
        case 'row':
          if (!v.map) return undefined;
          row = v;
          break;
        case 'op':
          if (v.map) return undefined;
          opNode = v;
          break;
        case 'partition':
          if (v.map) return undefined;
          partNode = v;
          break;
        default:
          return undefined;
      }
    }
    if (to === undefined || row === undefined || typeof to.value !== 'string') return undefined;
    const table = this.table(to.value);
    if (table === undefined) return undefined;
    const op = opNode === undefined ? '+I' : rowKind(opNode);
    if (op === undefined || (op === '-U' && table.def.nature === 'lookup')) return undefined;
    let partition = 0;
    if (partNode !== undefined) {
      const p = partNode.value;
      if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p >= table.partitions) return undefined;
      partition = p;
    }
    const values = this.row(table, row, op);
    if (values === undefined) return undefined;
    return { pos, kind: 'row', table: table.def.name, partition, op, row: values };
  }

  /** The row's values in column order, when every value is valid and nothing required is missing. */
  row(table: RowTable, m: LightMap, op: RowKind): Value[] | undefined {
    const values = this.begin(table);
    for (let i = 0; i < m.keys.length; i++) {
      const index = table.index.get(m.keys[i]!.value as string);
      const v = m.values[i]!;
      if (index === undefined || v.map) return undefined;
      if (!this.put(table, values, index, v.value === null ? null : scalarInput(v))) return undefined;
    }
    return this.complete(table, values, op) ? values : undefined;
  }

  /**
   * A row read value by value (`row` above, or json-row.ts straight from a data file's text):
   * `begin`, then `put` each given value (null for a null), then `complete`. A false from
   * either means the general checks must read the row (they report what is wrong).
   */
  /** The serial `begin` marked the columns of the row being read with (RowTable.seen). */
  get serialNow(): number {
    return this.serial;
  }

  begin(table: RowTable): Value[] {
    this.serial++;
    return new Array<Value>(table.def.columns.length).fill(null);
  }

  /** Column `index` given `input` (null: a null): false when the general checks must look at it. */
  put(table: RowTable, values: Value[], index: number, input: ScalarInput | null): boolean {
    const column = table.def.columns[index]!;
    if (column.kind === 'computed') return false;
    table.seen[index] = this.serial;
    if (input === null) return !isKey(table.def, index) && column.type.nullable;
    // Past the value size limit the general path reports it, at the value.
    if (valueSizeProblem(input.text.length) !== undefined) return false;
    const r = parseValue(column.type, input, this.env.valueCtx);
    if (!r.ok || valueOutOfRange(column.type, r.value)) return false;
    values[index] = r.value;
    return true;
  }

  /** put of a quoted string: a string column takes the text as it is (parseValue) without an input object. */
  putString(table: RowTable, values: Value[], index: number, text: string): boolean {
    const column = table.def.columns[index]!;
    const kind = column.type.kind;
    if (column.kind === 'computed' || (kind !== 'STRING' && kind !== 'VARCHAR' && kind !== 'CHAR')) return this.put(table, values, index, { text, yamlType: 'string', quoted: true });
    table.seen[index] = this.serial;
    if (valueSizeProblem(text.length) !== undefined) return false;
    values[index] = text;
    return true;
  }

  /** put of an unquoted number written `-?[0-9]+`: an integer or TIMESTAMP column's value without the input and result objects. */
  putInteger(table: RowTable, values: Value[], index: number, text: string): boolean {
    const column = table.def.columns[index]!;
    const v = column.kind === 'computed' || valueSizeProblem(text.length) !== undefined ? undefined : plainIntegerValue(column.type, text);
    if (v === undefined || valueOutOfRange(column.type, v)) return this.put(table, values, index, { text, yamlType: 'number', quoted: false });
    table.seen[index] = this.serial;
    values[index] = v;
    return true;
  }

  /** Whether every column the row must have was given (a key always; NOT NULL ones on +I / +U). */
  complete(table: RowTable, values: Value[], op: RowKind): boolean {
    const columns = table.def.columns;
    const serial = this.serial;
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!;
      if (table.seen[i] === serial || c.kind === 'computed') continue;
      const key = isKey(table.def, i);
      if (!key && (c.type.nullable || c.kind === 'metadata' || op === '-U' || op === '-D')) continue;
      return false;
    }
    return values.length === columns.length;
  }
}

function rowTable(def: TableDef, env: EventEnv): RowTable {
  const index = new Map<string, number>();
  def.columns.forEach((c, i) => {
    if (!index.has(c.name)) index.set(c.name, i);
  });
  return { def, index, partitions: env.partitions[def.name] ?? 1, seen: new Int32Array(def.columns.length) };
}

/** As scalarInput (event-row.ts) reads a YAML scalar: source text for plain numbers and booleans. */
function scalarInput(v: LightScalar): ScalarInput {
  const quoted = v.style !== 'PLAIN';
  if (typeof v.value === 'number') return { text: quoted ? String(v.value) : v.source, yamlType: 'number', quoted };
  if (typeof v.value === 'boolean') return { text: quoted ? String(v.value) : v.source, yamlType: 'boolean', quoted };
  return { text: String(v.value), yamlType: 'string', quoted };
}

function rowKind(v: LightScalar): RowKind | undefined {
  if (v.value === null) return undefined;
  const text = (typeof v.value === 'string' ? v.value : v.source).toUpperCase();
  return ROW_KINDS.find((k) => k === text);
}

function isKey(table: TableDef, index: number): boolean {
  return table.primaryKey?.includes(index) ?? false;
}
