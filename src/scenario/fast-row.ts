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
import { parseValue } from '../values/literal.js';
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
    const columns = table.def.columns;
    const values: Value[] = new Array<Value>(columns.length).fill(null);
    const serial = ++this.serial;
    for (let i = 0; i < m.keys.length; i++) {
      const index = table.index.get(m.keys[i]!.value as string);
      const v = m.values[i]!;
      if (index === undefined || v.map) return undefined;
      const column = columns[index]!;
      if (column.kind === 'computed') return undefined;
      table.seen[index] = serial;
      if (v.value === null) {
        if (isKey(table.def, index) || !column.type.nullable) return undefined;
        continue;
      }
      const input = scalarInput(v);
      // Past the value size limit the general path reports it, at the value.
      if (valueSizeProblem(input.text.length) !== undefined) return undefined;
      const r = parseValue(column.type, input, this.env.valueCtx);
      if (!r.ok || valueOutOfRange(column.type, r.value)) return undefined;
      values[index] = r.value;
    }
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!;
      if (table.seen[i] === serial || c.kind === 'computed') continue;
      const key = isKey(table.def, i);
      if (!key && (c.type.nullable || c.kind === 'metadata' || op === '-U' || op === '-D')) continue;
      return undefined;
    }
    return values;
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
