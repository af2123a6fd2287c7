/**
 * Kafka topic dumps (`kcat -J` envelopes) replayed: each record's table (by `to:`, `topics:` or
 * the topic's name), partition, row kind (tombstones, debezium envelopes) and Kafka timestamp.
 */
import { Scalar } from 'yaml';
import type { TableDef } from '../planner/plan.js';
import type { RowKind, Value } from '../values/types.js';
import type { LoadContext } from './context.js';
import { readPartition } from './event-env.js';
import type { EventEnv } from './event-env.js';
import type { FastRows, RowTable } from './fast-row.js';
import { toYamlNode } from './flow-line.js';
import type { LightMap, LightNode, LightScalar } from './flow-line.js';
import { readJsonObject } from './json-line.js';
import { field, jsonRecords } from './replay-data.js';
import type { DataFile, Read } from './replay-data.js';
import type { Spec } from './replay-spec.js';
import { inTimeRange } from './time-range.js';
import type { ScenarioEvent } from './types.js';

/** Envelope fields kcat -J writes; others are ignored too (tools add their own), these are read. */
const ENVELOPE_READ = ['topic', 'partition', 'ts', 'key', 'payload'];

/**
 * kcat -J envelopes: the payload (a JSON string, or an object) is the row; its table is `to:`,
 * or `topics:`'s table for the topic, or the table named like the topic. An upsert or lookup
 * table reads a null payload (a tombstone) as a delete of the key in `key`; a debezium-json
 * table reads the payload as a debezium envelope (c / r: +I, u: -U and +U, d: -D) and skips
 * tombstones, as Flink's format does. Records are read as they are pulled.
 */
export function* readKafka(data: DataFile, env: EventEnv, rows: FastRows, spec: Spec, fileTable: TableDef | undefined): Generator<Read> {
  data.env = env;
  for (const { map, offset } of jsonRecords(data)) {
    data.ctx.onEvent?.();
    const topic = field(map, 'topic');
    const ts = field(map, 'ts');
    const payload = field(map, 'payload');
    const part = field(map, 'partition');
    const missing = ENVELOPE_READ.filter((f) => f !== 'key' && f !== 'topic' && field(map, f) === undefined);
    if (missing.length > 0) {
      data.report(offset, `this Kafka record has no ${missing.map((m) => `\`${m}\``).join(', ')}`, 'a topic dump has one kcat -J envelope per line: {"topic": ..., "partition": ..., "offset": ..., "ts": ..., "key": ..., "payload": ...}');
      continue;
    }
    const def = fileTable ?? kafkaTable(data, spec, topic, offset);
    if (def === undefined) continue;
    const table = rows.table(def.name);
    if (table === undefined) continue;
    if (ts!.map || typeof ts!.value !== 'number' || !Number.isInteger(ts!.value) || !inTimeRange(ts!.value)) {
      data.report(ts!.start, 'the Kafka timestamp `ts` must be an integer of epoch milliseconds', 'as kcat -J writes it');
      continue;
    }
    const partition = kafkaPartition(data, env, table, part!);
    if (partition === undefined) continue;
    const events = kafkaEvents(data, rows, table, map, payload!, partition, offset);
    if (events === undefined) continue;
    yield { events, time: ts!.value, partition };
  }
}

function kafkaTable(data: DataFile, spec: Spec, topic: LightNode | undefined, offset: number): TableDef | undefined {
  if (spec.table !== undefined) return spec.table;
  if (topic === undefined || topic.map || typeof topic.value !== 'string') {
    data.report(topic?.start ?? offset, 'this Kafka record has no topic name', 'add `to: TABLE` to the replay to send every record to one table');
    return undefined;
  }
  const name = topic.value;
  const mapped = spec.topics.get(name);
  if (mapped !== undefined) return mapped;
  const same = data.env!.tables?.find((t) => t.name === name);
  if (same !== undefined && (data.env!.inputTables?.has(name) ?? true)) return same;
  data.report(topic.start, `no table for topic \`${name}\``, `map it in the replay: \`topics: { ${name}: TABLE }\`, or give \`to: TABLE\``);
  return undefined;
}

function kafkaPartition(data: DataFile, env: EventEnv, table: RowTable, part: LightNode): number | undefined {
  if (part.map) {
    data.report(part.start, 'partition must be a partition index (0, 1, ...), not a map', 'partitions are numbered from 0: `partition: 0` is the first');
    return undefined;
  }
  // The inline check's message, counted against the file's cap.
  const scratch: LoadContext = { ...data.ctx, diagnostics: [] };
  const node = toYamlNode(part) as Scalar;
  const p = readPartition(scratch, env, { key: 'partition', keyNode: node, value: node, valueWhere: node }, table.def.name);
  for (const d of scratch.diagnostics) data.report(part.start, d.message, d.hint);
  return p;
}

function kafkaEvents(data: DataFile, rows: FastRows, table: RowTable, envelope: LightMap, payload: LightNode, partition: number, offset: number): ScenarioEvent[] | undefined {
  const def = table.def;
  const pos = data.pos(offset);
  const event = (op: RowKind, row: Value[]): ScenarioEvent => ({ pos, file: data.shown, kind: 'row', table: def.name, partition, op, row });
  let value: LightMap | null;
  if (payload.map) value = payload;
  else if (payload.value === null) value = null;
  else if (typeof payload.value === 'string') {
    const inner = readJsonObject(payload.value, 0);
    if (!inner.ok) {
      data.report(payload.start, `the payload is not a JSON object: ${inner.message}`);
      return undefined;
    }
    // Positions inside a payload string point at the payload.
    value = at(inner.map, payload.start);
  } else {
    data.report(payload.start, 'the payload must be a JSON object as a string, or null (a tombstone)');
    return undefined;
  }
  if (def.nature === 'changelog') {
    if (value === null) return [];
    return debezium(data, rows, table, value, event);
  }
  if (value === null) {
    if (def.nature === 'append') {
      data.report(payload.start, `a tombstone (null payload) for append-only table \`${def.name}\``, 'only an upsert table (upsert-kafka) reads a tombstone as a delete');
      return undefined;
    }
    const key = tombstoneKey(data, def, field(envelope, 'key'), offset);
    if (key === undefined) return undefined;
    const values = data.row(rows, table, key, '-D');
    return values === undefined ? undefined : [event('-D', values)];
  }
  const values = data.row(rows, table, value, '+I');
  return values === undefined ? undefined : [event('+I', values)];
}

/** The key of a tombstone as a row of the key columns: a JSON object, or the value of a one-column key. */
function tombstoneKey(data: DataFile, def: TableDef, key: LightNode | undefined, offset: number): LightMap | undefined {
  if (key === undefined || (!key.map && key.value === null)) {
    data.report(offset, 'a tombstone (null payload) without a key deletes nothing', 'a tombstone needs the record key');
    return undefined;
  }
  if (key.map) return key;
  if (typeof key.value === 'string') {
    const inner = readJsonObject(key.value, 0);
    if (inner.ok) return at(inner.map, key.start);
  }
  const pk = def.primaryKey ?? [];
  if (pk.length !== 1) {
    data.report(key.start, `the key of \`${def.name}\` has ${pk.length} columns, so the record key must be a JSON object of them`);
    return undefined;
  }
  const name: LightScalar = { map: false, start: key.start, end: key.start, value: def.columns[pk[0]!]!.name, source: def.columns[pk[0]!]!.name, style: 'PLAIN' };
  return { map: true, start: key.start, end: key.end, keys: [name], values: [key] };
}

function debezium(data: DataFile, rows: FastRows, table: RowTable, value: LightMap, event: (op: RowKind, row: Value[]) => ScenarioEvent): ScenarioEvent[] | undefined {
  // With schemas enabled the envelope sits under `payload`.
  const inner = field(value, 'payload');
  const env = inner !== undefined && inner.map && field(value, 'schema') !== undefined ? inner : value;
  const op = field(env, 'op');
  const before = field(env, 'before');
  const after = field(env, 'after');
  const opText = op !== undefined && !op.map && typeof op.value === 'string' ? op.value : undefined;
  const side = (node: LightNode | undefined, what: string): LightMap | undefined => {
    if (node !== undefined && node.map) return node;
    data.report(node?.start ?? env.start, `this debezium ${opText === 'd' ? 'delete' : opText === 'u' ? 'update' : 'insert'} has no \`${what}\` row`);
    return undefined;
  };
  switch (opText) {
    case 'c':
    case 'r': {
      const a = side(after, 'after');
      const row = a && data.row(rows, table, a, '+I');
      return row === undefined ? undefined : [event('+I', row)];
    }
    case 'u': {
      const b = side(before, 'before');
      const a = side(after, 'after');
      const rb = b && data.row(rows, table, b, '-U');
      const ra = a && data.row(rows, table, a, '+U');
      return rb === undefined || ra === undefined ? undefined : [event('-U', rb), event('+U', ra)];
    }
    case 'd': {
      const b = side(before, 'before');
      const row = b && data.row(rows, table, b, '-D');
      return row === undefined ? undefined : [event('-D', row)];
    }
    default:
      data.report(op?.start ?? env.start, 'a debezium envelope needs `op`: c, r, u or d', `\`${table.def.name}\` is a debezium-json table: each payload is {"before": ..., "after": ..., "op": ...}`);
      return undefined;
  }
}

/** The light map with every offset moved to `offset` (values from inside a JSON string). */
function at<T extends LightNode>(n: T, offset: number): T {
  if (n.map) return { ...n, start: offset, end: offset + 1, keys: n.keys.map((k) => at(k, offset)), values: n.values.map((v) => at(v, offset)) };
  return { ...n, start: offset, end: offset + 1 };
}
