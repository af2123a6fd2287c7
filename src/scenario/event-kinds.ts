/**
 * Events that name a table: rows (`to` + `row`) and `watermark` / `idle` / `active`, with the
 * checks that need the table's definition.
 */
import { isScalar } from 'yaml';
import type { Node } from 'yaml';
import { parseTimeLiteral } from '../values/time.js';
import { inTimeRange, outOfRangeMessage, TIME_RANGE_HINT } from './time-range.js';
import { ROW_KINDS } from '../values/types.js';
import type { RowKind } from '../values/types.js';
import { describeNode, readScalarText, report, scalarSource } from './context.js';
import type { Entry, LoadContext } from './context.js';
import { eventTable, readPartition } from './event-env.js';
import type { EventEnv } from './event-env.js';
import { readRow } from './event-row.js';
import type { ScenarioEvent } from './types.js';

export type Body = Record<string, unknown> & { kind: ScenarioEvent['kind'] };

export function readRowEvent(ctx: LoadContext, env: EventEnv, keys: ReadonlyMap<string, Entry>): Body | undefined {
  const to = keys.get('to');
  if (to === undefined) {
    report(ctx, keys.get('row')!.keyNode, 'this row event has `row:` but no `to:` naming its table', 'add `to: <table>`');
    return undefined;
  }
  const table = eventTable(ctx, env, to, 'row');
  let ok = table !== undefined || env.tables === undefined;
  const op = readOp(ctx, keys.get('op'));
  if (op === undefined) ok = false;
  if (table?.nature === 'lookup' && op === '-U') {
    report(
      ctx,
      keys.get('op')!.valueWhere,
      `lookup table \`${table.name}\` takes only +I, +U and -D: a row sent to it is a write to the external store`,
      'use +U to update a row by its primary key, or -D to delete it',
    );
    ok = false;
  }
  const partitionEntry = keys.get('partition');
  const partition = partitionEntry === undefined ? 0 : readPartition(ctx, env, partitionEntry, table?.name);
  if (partition === undefined) ok = false;
  const row = readRow(ctx, env, keys.get('row')!, table, op ?? '+I');
  if (row === undefined) ok = false;
  return ok && table !== undefined ? { kind: 'row', table: table.name, partition, op, row } : undefined;
}

function readOp(ctx: LoadContext, e: Entry | undefined): RowKind | undefined {
  if (e === undefined) return '+I';
  const text = readScalarText(e.value);
  const hit = ROW_KINDS.find((k) => k === text?.toUpperCase());
  if (hit !== undefined) return hit;
  report(ctx, e.valueWhere, `op must be one of +I, -U, +U, -D, not ${describeNode(e.value)}`, '+I insert, -U retract before an update, +U update, -D delete');
  return undefined;
}

export function readTableEvent(ctx: LoadContext, env: EventEnv, kind: 'watermark' | 'idle' | 'active', keys: ReadonlyMap<string, Entry>): Body | undefined {
  const named = keys.get(kind)!;
  const table = eventTable(ctx, env, named, kind);
  let ok = table !== undefined || env.tables === undefined;
  if (table !== undefined && table.nature === 'lookup') {
    report(ctx, named.valueWhere, `\`${table.name}\` is a lookup table: it is read on demand and has no source partitions to send ${kind === 'watermark' ? 'a watermark' : `an ${kind} event`} to`);
    ok = false;
  } else if (table !== undefined && kind === 'watermark' && table.watermark === undefined) {
    report(
      ctx,
      named.valueWhere,
      `table \`${table.name}\` has no WATERMARK declaration, so it has no watermark to send`,
      `declare one in CREATE TABLE ${table.name} (e.g. \`WATERMARK FOR ts AS ts\`), or remove this event`,
    );
    ok = false;
  }
  const partitionEntry = keys.get('partition');
  const partition = partitionEntry === undefined ? undefined : readPartition(ctx, env, partitionEntry, table?.name);
  if (partitionEntry !== undefined && partition === undefined) ok = false;
  const body: Body = { kind, table: table?.name ?? '' };
  if (partition !== undefined) body.partition = partition;
  if (kind === 'watermark') {
    const to = readWatermarkTo(ctx, env, keys.get('to'), table?.watermark !== undefined && table.columns[table.watermark.column]?.type.kind === 'TIMESTAMP_LTZ');
    if (to === undefined) ok = false;
    else body.to = to;
  }
  return ok && table !== undefined ? body : undefined;
}

function readWatermarkTo(ctx: LoadContext, env: EventEnv, e: Entry | undefined, ltz: boolean): number | 'max' | 'generated' | undefined {
  if (e === undefined) return 'generated';
  if (isScalar(e.value) && e.value.value === 'max') return 'max';
  const t = timeInput(e.value);
  const r = t === undefined ? undefined : parseTimeLiteral(t, env.valueCtx, ltz);
  if (r !== undefined && r.ok && !inTimeRange(r.ms)) {
    report(ctx, e.valueWhere, outOfRangeMessage('watermark to', r.ms), `${TIME_RANGE_HINT}; \`to: max\` is the end-of-input watermark`);
    return undefined;
  }
  if (r !== undefined && r.ok) return r.ms;
  report(ctx, e.valueWhere, `watermark to: ${r?.message ?? `expected a time, an integer or \`max\`, not ${describeNode(e.value)}`}`, r?.hint ?? 'e.g. `to: "10:00"`, `to: 0` (epoch ms) or `to: max`');
  return undefined;
}

/** A time given as an integer (epoch ms) or a string literal. */
export function timeInput(node: Node | null): string | number | undefined {
  if (!isScalar(node)) return undefined;
  // An integer past 2^53 goes on as written, for the message to quote it exactly.
  if (typeof node.value === 'number') return Number.isInteger(node.value) && !Number.isSafeInteger(node.value) ? scalarSource(node) : node.value;
  return typeof node.value === 'string' ? node.value : undefined;
}
