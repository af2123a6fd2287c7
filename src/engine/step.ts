/**
 * `step(ctx, snapshot, event[, edit]) → StepRecord`: deterministic, and pure without an edit: the
 * snapshot given is never changed, and the returned one shares everything the event did not touch.
 */
import type { ScenarioEvent } from '../scenario/types.js';
import { formatRow } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import { advanceClock, targetTime } from './clock.js';
import { useEdit, type Edit } from './collections/edit.js';
import type { RunContext, TableRuntime } from './context.js';
import { sideRow } from './pipeline.js';
import type { EngineSnapshot } from './snapshot.js';
import { fillSourceMetadata, type SourceMetadata } from './source-metadata.js';
import { generateWatermark, partitionRowArrived, partitionsOf, setPartitionIdle, watermarkEvent } from './sources.js';
import type { StepRecord } from './types.js';
import { Work } from './work.js';

/**
 * With `edit` (timeline runs only), collection nodes created earlier in the same edit may change
 * in place: the caller promises that no snapshot older than `snap` from this edit is still used.
 */
export function step(ctx: RunContext, snap: EngineSnapshot, event: ScenarioEvent, edit: Edit | null = null): StepRecord<EngineSnapshot> {
  const prev = useEdit(edit);
  try {
    return apply(ctx, snap, event);
  } finally {
    useEdit(prev);
  }
}

function apply(ctx: RunContext, snap: EngineSnapshot, event: ScenarioEvent): StepRecord<EngineSnapshot> {
  const w = new Work(ctx, snap);
  applyEvent(w, event);
  return w.finish(event);
}

/**
 * The body of a step: `event` applied to the state in `w`. A bulk run (timeline-core.ts) calls it
 * on one Work for many steps in a row, taking snapshots only where it keeps them.
 */
export function applyEvent(w: Work, event: ScenarioEvent): void {
  advanceClock(w, targetTime(w.procTime, event), event.at !== undefined || event.kind === 'advance');
  switch (event.kind) {
    case 'row':
      rowEvent(w, event.table, event.partition, event.op, event.row);
      break;
    case 'watermark':
      watermarkStep(w, event);
      break;
    case 'idle':
    case 'active':
      statusStep(w, event);
      break;
    case 'advance':
    case 'note':
      break;
  }
}

// Watermark and status events, each in a function of its own (docs/decisions.md: no closures in
// per-row functions).
function watermarkStep(w: Work, event: Extract<ScenarioEvent, { kind: 'watermark' }>): void {
  withTable(w, event.table, (t) => {
    for (const p of partitionsOf(t, event.partition)) watermarkEvent(w, t, p, event.to);
  });
}

function statusStep(w: Work, event: Extract<ScenarioEvent, { kind: 'idle' | 'active' }>): void {
  withTable(w, event.table, (t) => statusEvent(w, t, event.partition, event.kind === 'idle'));
}

function withTable(w: Work, name: string, f: (t: TableRuntime) => void): void {
  const t = w.ctx.tableByName.get(name);
  if (t === undefined) {
    if (w.tracing) w.trace({ t: 'note', text: `${name} is not read by this query: the event changes nothing` });
    return;
  }
  f(t);
}

function statusEvent(w: Work, t: TableRuntime, partition: number | undefined, idle: boolean): void {
  if (t.watermark === undefined || t.lookup) {
    if (w.tracing) w.trace({ t: 'note', text: `${t.name} has no WATERMARK, so it has no watermark status to change` });
    return;
  }
  for (const p of partitionsOf(t, partition)) setPartitionIdle(w, t, p, idle, idle ? 'idle event' : 'active event');
}

/**
 * An upsert-kafka delete is a tombstone: a record without a value, so the connector's row carries
 * the key and nulls, whatever the event wrote, and the record's metadata (its timestamp, offset, ...),
 * which the connector reads from the record whatever its value (computed columns and the watermark
 * then see those; a ChangelogNormalize restores the row from its state, a temporal join's versioned
 * side does not).
 */
function tombstone(t: TableRuntime, given: Row): Row {
  const key = t.def.primaryKey ?? [];
  const columns = t.def.columns;
  return given.map((v, i) => (key.includes(i) || columns[i]?.kind === 'metadata' ? v : null));
}

/** The row with the Kafka metadata its event left out, as the source fills it (source-metadata.ts). */
function withMetadata(w: Work, t: TableRuntime, m: SourceMetadata, partition: number, given: Row): Row {
  let offset = 0;
  if (m.countsOffsets) {
    const offsets = w.ownTable(t.index).offsets;
    offset = offsets[partition] ?? 0;
    offsets[partition] = offset + 1;
  }
  return fillSourceMetadata(m, given, partition, offset, w.procTime, w.evalCtx);
}

/** Computed columns, in column order, over the given physical and metadata values. */
function completeRow(w: Work, t: TableRuntime, given: Row): Row {
  if (t.computed.length === 0) return given;
  const row = given.slice();
  for (const c of t.computed) row[c.index] = c.fn(row, w.evalCtx);
  return row;
}

/**
 * The table `name` among those the query reads (at most two, named apart), or undefined. Every row
 * event looks its table up: comparing one or two names costs less than a hash-map lookup.
 */
function readTable(w: Work, name: string): TableRuntime | undefined {
  const tables = w.ctx.tables;
  for (let i = 0; i < tables.length; i++) if (tables[i]!.name === name) return tables[i];
  return undefined;
}

function rowEvent(w: Work, name: string, partition: number, kind: RowKind, given: Row): void {
  const t = readTable(w, name);
  if (t === undefined) {
    if (w.tracing) w.trace({ t: 'note', text: `${name} is not read by this query: the row changes nothing` });
    return;
  }
  // tested here, not in the callee: most tables read no metadata, and their rows skip the call
  const read = t.metadata === undefined ? given : withMetadata(w, t, t.metadata, partition, given);
  const row = completeRow(w, t, kind === '-D' && t.def.connector === 'upsert-kafka' ? tombstone(t, read) : read);
  if (w.tracing) w.trace({ t: 'row.in', table: t.name, partition, kind, row: formatRow(kind, row, t.types) });
  if (t.lookup) {
    const op = w.ctx.op;
    if (op.processStoreWrite !== undefined) w.op = op.processStoreWrite(w.op, kind, row, w.opTime(), w);
    return;
  }
  partitionRowArrived(w, t, partition);
  for (const s of t.sides) sideRow(w, w.ctx.sides[s], kind, row);
  generateWatermark(w, t, partition, row);
}
