/**
 * `replay:` events (docs/scenario-format.md, "Events from files"): a table's events read from
 * data files beside the scenario, spliced into the arrival script where the entry stands.
 * Formats: JSON Lines of plain rows, CSV with a header, and Kafka topic dumps (`kcat -J`
 * envelopes: topic, partition, offset, tstype, ts, key, payload). Several files interleave by an
 * arrival rule: by time (the Kafka timestamp, or a row field), in file order, or round robin
 * over (file, partition) streams. Rows are checked as inline rows are, and a bad line is
 * reported at its line and column in the data file with the inline message.
 */
import { readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { isMap, isScalar, isSeq, Scalar } from 'yaml';
import type { Node, YAMLMap } from 'yaml';
import type { TableDef } from '../planner/plan.js';
import { parseTimeLiteral } from '../values/time.js';
import type { RowKind, Value } from '../values/types.js';
import { describeNode, entries, knownEntries, readScalarText, report } from './context.js';
import type { Entry, LoadContext } from './context.js';
import { readCsv } from './csv-file.js';
import { eventTable, readPartition } from './event-env.js';
import type { EventEnv } from './event-env.js';
import { readRow } from './event-row.js';
import type { Clock } from './events.js';
import { FastRows } from './fast-row.js';
import type { RowTable } from './fast-row.js';
import { toYamlNode } from './flow-line.js';
import type { LightMap, LightNode, LightScalar } from './flow-line.js';
import { readJsonObject } from './json-line.js';
import { lazyLines } from './line-table.js';
import { inTimeRange, outOfRangeMessage, TIME_RANGE_HINT } from './time-range.js';
import type { FilePos, ScenarioEvent } from './types.js';

export const REPLAY_KEYS = ['replay', 'format', 'to', 'topics', 'partition', 'order', 'time-field', 'from', 'until', 'processing-time'] as const;

type Format = 'jsonl' | 'csv' | 'kafka';
type Order = 'time' | 'files' | 'round-robin';

const FORMATS: readonly Format[] = ['jsonl', 'csv', 'kafka'];
const ORDERS: readonly Order[] = ['time', 'files', 'round-robin'];
const BY_EXTENSION: Readonly<Record<string, Format>> = { '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.csv': 'csv' };
/** Problems reported per data file before the rest are summed up in one line. */
const MAX_PROBLEMS = 20;
/** Envelope fields kcat -J writes; others are ignored too (tools add their own), these are read. */
const ENVELOPE_READ = ['topic', 'partition', 'ts', 'key', 'payload'];

interface DataFileSpec {
  readonly path: string;
  readonly shown: string;
  readonly where: Node;
  /** The file's own `to:` / `partition:` (a list item `{ file, to, partition }`), else the entry's. */
  readonly table?: TableDef;
  readonly partition?: number;
}

interface Spec {
  readonly files: readonly DataFileSpec[];
  readonly format: Format;
  readonly table?: TableDef;
  readonly topics: ReadonlyMap<string, TableDef>;
  readonly partition: number;
  readonly order: Order;
  readonly timeField?: string;
  readonly from?: number;
  readonly until?: number;
  readonly processingTime: boolean;
}

/** One record of a data file: its events (two for a debezium update), time and stream. */
interface DataRecord {
  readonly events: readonly ScenarioEvent[];
  readonly time: number;
  readonly stream: number;
  readonly file: number;
  readonly seq: number;
}

export function readReplay(ctx: LoadContext, env: EventEnv, map: YAMLMap, clock: Clock): ScenarioEvent[] | undefined {
  const spec = readSpec(ctx, env, map);
  if (spec === undefined) return undefined;
  const rows = new FastRows(ctx, env);
  const records: DataRecord[] = [];
  const streams = new Map<string, number>();
  let ok = true;
  spec.files.forEach((f, fileIndex) => {
    const text = readData(ctx, f.path, f.where);
    if (text === undefined) {
      ok = false;
      return;
    }
    const data = new DataFile(ctx, f.shown, text);
    const read = spec.format === 'kafka' ? readKafka(data, env, rows, spec, f.table) : readPlain(data, env, rows, spec, f);
    data.finish();
    if (!data.ok) ok = false;
    for (const r of read) {
      const key = `${fileIndex}/${r.partition}`;
      let stream = streams.get(key);
      if (stream === undefined) streams.set(key, (stream = streams.size));
      records.push({ events: r.events, time: r.time, stream, file: fileIndex, seq: records.length });
    }
  });
  if (!ok) return undefined;
  const kept = records.filter((r) => (spec.from === undefined || r.time >= spec.from) && (spec.until === undefined || r.time < spec.until));
  const ordered = arrange(kept, spec.order, streams.size);
  const out: ScenarioEvent[] = [];
  for (const r of ordered) {
    r.events.forEach((ev, i) => {
      if (i === 0 && spec.processingTime && (clock.fresh || r.time > clock.now) && inTimeRange(r.time)) {
        clock.now = r.time;
        out.push({ ...ev, at: r.time });
      } else {
        out.push(ev);
      }
      clock.fresh = false;
    });
  }
  return out;
}

/**
 * The arrival order. `time`: by time, ties by the file's place in the list, then by the
 * record's place in its file (a stable sort). `files`: file after file. `round-robin`: one
 * record from each (file, partition) stream in turn, streams in order of first appearance.
 */
function arrange(records: DataRecord[], order: Order, streamCount: number): DataRecord[] {
  if (order === 'files') return records;
  if (order === 'time') return records.sort((a, b) => a.time - b.time || a.file - b.file || a.seq - b.seq);
  const queues: DataRecord[][] = Array.from({ length: streamCount }, () => []);
  for (const r of records) queues[r.stream]!.push(r);
  const out: DataRecord[] = [];
  const heads = new Array<number>(streamCount).fill(0);
  while (out.length < records.length) {
    for (let s = 0; s < streamCount; s++) {
      const q = queues[s]!;
      if (heads[s]! < q.length) out.push(q[heads[s]!++]!);
    }
  }
  return out;
}

function readSpec(ctx: LoadContext, env: EventEnv, map: YAMLMap): Spec | undefined {
  const all = entries(ctx, map);
  const keys = new Map(knownEntries(ctx, all, REPLAY_KEYS, 'replay').map((e) => [e.key, e]));
  let ok = keys.size === all.length;
  const files = readFiles(ctx, env, keys.get('replay')!);
  if (files === undefined) ok = false;
  const format = readFormat(ctx, keys.get('format'), files ?? []);
  if (format === undefined) ok = false;
  const to = keys.get('to');
  const table = to === undefined ? undefined : eventTable(ctx, env, to, 'row');
  if (to !== undefined && table === undefined) ok = false;
  if (to === undefined && format !== undefined && format !== 'kafka' && files !== undefined && files.some((f) => f.table === undefined)) {
    report(ctx, map, `a ${format} replay needs \`to:\` naming the table its rows go to`, 'e.g. `{ replay: data/orders.jsonl, to: orders }`');
    ok = false;
  }
  const topics = new Map<string, TableDef>();
  const topicsEntry = keys.get('topics');
  if (topicsEntry !== undefined) {
    if (format !== 'kafka') {
      report(ctx, topicsEntry.keyNode, '`topics:` maps Kafka topics to tables; it applies to `format: kafka` only');
      ok = false;
    } else if (!isMap(topicsEntry.value)) {
      report(ctx, topicsEntry.valueWhere, `topics must be a map of topic: table, not ${describeNode(topicsEntry.value)}`, 'e.g. `topics: { orders-v1: orders }`');
      ok = false;
    } else {
      for (const e of entries(ctx, topicsEntry.value)) {
        const t = eventTable(ctx, env, e, 'row');
        if (t === undefined) ok = false;
        else topics.set(e.key, t);
      }
    }
  }
  if (format === 'kafka' && files?.some((f) => f.partition !== undefined)) {
    report(ctx, files.find((f) => f.partition !== undefined)!.where, 'Kafka records carry their own partition; `partition:` applies to jsonl and csv files');
    ok = false;
  }
  let partition = 0;
  const partitionEntry = keys.get('partition');
  if (partitionEntry !== undefined) {
    if (format === 'kafka') {
      report(ctx, partitionEntry.keyNode, 'Kafka records carry their own partition; `partition:` applies to jsonl and csv replays');
      ok = false;
    } else {
      const p = readPartition(ctx, env, partitionEntry, table?.name);
      if (p === undefined) ok = false;
      else partition = p;
    }
  }
  let timeField: string | undefined;
  const timeEntry = keys.get('time-field');
  if (timeEntry !== undefined) {
    const name = readScalarText(timeEntry.value);
    if (format === 'kafka') {
      report(ctx, timeEntry.keyNode, 'a Kafka record is ordered by its timestamp (`ts`); `time-field:` applies to jsonl and csv replays');
      ok = false;
    } else {
      for (const t of new Set((files ?? []).map((f) => f.table ?? table).filter((x): x is TableDef => x !== undefined))) {
        if (t.columns.some((c) => c.name === name && c.kind !== 'computed')) continue;
        report(ctx, timeEntry.valueWhere, `time-field: table \`${t.name}\` has no column \`${name ?? describeNode(timeEntry.value)}\``);
        ok = false;
      }
      timeField = name;
    }
  }
  const orderEntry = keys.get('order');
  const orderRead = readChoice(ctx, orderEntry, 'order', ORDERS);
  if (orderEntry !== undefined && orderRead === undefined) ok = false;
  const order = orderRead ?? (format === 'kafka' || timeEntry !== undefined ? 'time' : 'files');
  if (orderEntry !== undefined && order === 'time' && format !== 'kafka' && timeEntry === undefined && format !== undefined) {
    report(ctx, orderEntry.valueWhere, '`order: time` needs `time-field:` naming the column that holds each row\u2019s time', 'or use `order: files` or `order: round-robin`');
    ok = false;
  }
  const from = readBound(ctx, env, keys.get('from'));
  const until = readBound(ctx, env, keys.get('until'));
  if (from === null || until === null) ok = false;
  if ((from !== undefined || until !== undefined) && format !== 'kafka' && timeEntry === undefined && format !== undefined) {
    report(ctx, (keys.get('from') ?? keys.get('until'))!.keyNode, '`from:` and `until:` select records by time: give `time-field:` too');
    ok = false;
  }
  const pt = readChoice(ctx, keys.get('processing-time'), 'processing-time', ['timestamp', 'none'] as const);
  if (keys.get('processing-time') !== undefined && pt === undefined) ok = false;
  if (pt === 'timestamp' && format !== 'kafka' && format !== undefined) {
    report(ctx, keys.get('processing-time')!.valueWhere, '`processing-time: timestamp` takes the Kafka timestamp; it applies to `format: kafka` only');
    ok = false;
  }
  if (!ok || files === undefined || format === undefined) return undefined;
  return {
    files,
    format,
    ...(table !== undefined ? { table } : {}),
    topics,
    partition,
    order,
    ...(timeField !== undefined ? { timeField } : {}),
    ...(typeof from === 'number' ? { from } : {}),
    ...(typeof until === 'number' ? { until } : {}),
    processingTime: format === 'kafka' && pt !== 'none',
  };
}

function readFiles(ctx: LoadContext, env: EventEnv, e: Entry): DataFileSpec[] | undefined {
  const nodes: Node[] = isSeq(e.value) ? (e.value.items as Node[]) : e.value === null ? [] : [e.value];
  if (nodes.length === 0) {
    report(ctx, e.valueWhere, 'replay must name a data file (or a list of files) beside the scenario', 'e.g. `replay: data/orders.jsonl`');
    return undefined;
  }
  const out: DataFileSpec[] = [];
  let ok = true;
  for (const n of nodes) {
    if (isMap(n)) {
      const keys = new Map(knownEntries(ctx, entries(ctx, n), ['file', 'to', 'partition'], 'replay file').map((x) => [x.key, x]));
      const file = keys.get('file');
      const path = file !== undefined && isScalar(file.value) && typeof file.value.value === 'string' ? file.value.value : undefined;
      if (path === undefined || path === '') {
        report(ctx, file?.valueWhere ?? n, 'a replay file item needs `file:` with a path such as data/orders.jsonl');
        ok = false;
        continue;
      }
      const to = keys.get('to');
      const table = to === undefined ? undefined : eventTable(ctx, env, to, 'row');
      if (to !== undefined && table === undefined) ok = false;
      const p = keys.get('partition');
      const partition = p === undefined ? undefined : readPartition(ctx, env, p, table?.name);
      if (p !== undefined && partition === undefined) ok = false;
      const shown = join(dirname(ctx.file), path);
      out.push({ path: shown, shown, where: file!.value!, ...(table !== undefined ? { table } : {}), ...(partition !== undefined ? { partition } : {}) });
      continue;
    }
    if (!isScalar(n) || typeof n.value !== 'string' || n.value === '') {
      report(ctx, n, `a data file is a path such as data/orders.jsonl, or \`{ file: PATH, to: TABLE }\`, not ${describeNode(n)}`);
      ok = false;
      continue;
    }
    const shown = join(dirname(ctx.file), n.value);
    out.push({ path: shown, shown, where: n });
  }
  return ok ? out : undefined;
}

function readFormat(ctx: LoadContext, e: Entry | undefined, files: Spec['files']): Format | undefined {
  if (e !== undefined) return readChoice(ctx, e, 'format', FORMATS);
  const guessed = new Set(files.map((f) => BY_EXTENSION[extname(f.path).toLowerCase()]));
  const only = guessed.size === 1 ? [...guessed][0] : undefined;
  if (only !== undefined) return only;
  if (files.length > 0) {
    report(ctx, files[0]!.where, `cannot tell the format of ${files.map((f) => f.shown).join(', ')} from the file name${files.length > 1 ? 's' : ''}`, 'add `format: jsonl`, `format: csv` or `format: kafka` (a kcat -J topic dump)');
  }
  return undefined;
}

function readChoice<T extends string>(ctx: LoadContext, e: Entry | undefined, what: string, choices: readonly T[]): T | undefined {
  if (e === undefined) return undefined;
  const text = readScalarText(e.value);
  const hit = choices.find((c) => c === text);
  if (hit === undefined) report(ctx, e.valueWhere, `${what} must be one of ${choices.join(', ')}, not ${describeNode(e.value)}`);
  return hit;
}

/** A `from` / `until` time: undefined when absent, null after a report. */
function readBound(ctx: LoadContext, env: EventEnv, e: Entry | undefined): number | null | undefined {
  if (e === undefined) return undefined;
  const v = isScalar(e.value) ? e.value.value : undefined;
  const r = typeof v === 'string' || typeof v === 'number' ? parseTimeLiteral(v, env.valueCtx) : undefined;
  if (r === undefined || !r.ok) {
    report(ctx, e.valueWhere, `${e.key}: ${r?.message ?? `expected a time such as "09:30", not ${describeNode(e.value)}`}`, r?.hint ?? 'e.g. `from: "09:30"`');
    return null;
  }
  if (!inTimeRange(r.ms)) {
    report(ctx, e.valueWhere, outOfRangeMessage(e.key, r.ms), TIME_RANGE_HINT);
    return null;
  }
  return r.ms;
}

function readData(ctx: LoadContext, path: string, where: Node): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as { code?: string } | null)?.code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : `cannot read it (${code ?? 'unknown reason'})`;
    report(ctx, where, `data file ${path}: ${why}`, 'a path in `replay:` is relative to the scenario file');
    return undefined;
  }
  try {
    if (bytes.includes(0)) throw new Error('NUL');
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    report(ctx, where, `data file ${path} is not UTF-8 text`, 'save it as UTF-8');
    return undefined;
  }
}

/** A data file being read: its own positions and a cap on the problems it reports. */
class DataFile {
  readonly ctx: LoadContext;
  problems = 0;

  constructor(
    outer: LoadContext,
    readonly shown: string,
    readonly text: string,
  ) {
    this.ctx = { ...outer, file: shown, text, lineCounter: lazyLines(text) };
  }

  get ok(): boolean {
    return this.problems === 0;
  }

  /** Counts a problem; false once the cap is reached (the caller then reports nothing more). */
  private count(): boolean {
    this.problems++;
    return this.problems <= MAX_PROBLEMS;
  }

  report(offset: number, message: string, hint?: string): void {
    if (this.count()) report(this.ctx, offset, message, hint);
  }

  /** A row's values, checked as an inline row is (the general checks report, at data-file positions). */
  row(rows: FastRows, table: RowTable, m: LightMap, op: RowKind): Value[] | undefined {
    const fast = rows.row(table, m, op);
    if (fast !== undefined) return fast;
    const scratch: LoadContext = { ...this.ctx, diagnostics: [] };
    const node = toYamlNode(m);
    const key = new Scalar('row');
    key.range = [m.start, m.start, m.start];
    const values = readRow(scratch, this.env!, { key: 'row', keyNode: key, value: node, valueWhere: node }, table.def, op);
    for (const d of scratch.diagnostics) if (this.count()) this.ctx.diagnostics.push(d);
    if (values === undefined && scratch.diagnostics.length === 0) this.count();
    return values;
  }

  env: EventEnv | undefined;

  pos(offset: number): FilePos {
    const { line, col } = this.ctx.lineCounter.linePos(offset);
    return { line, col };
  }

  finish(): void {
    if (this.problems > MAX_PROBLEMS) {
      report(this.ctx, this.text.length, `${this.problems - MAX_PROBLEMS} more problem${this.problems - MAX_PROBLEMS === 1 ? '' : 's'} in ${this.shown} not shown`, 'fix the ones above and load again');
    }
  }
}

interface Read {
  readonly events: ScenarioEvent[];
  readonly time: number;
  readonly partition: number;
}

/** The offset of each line's first character, skipping blank lines. */
function* lineStarts(text: string): Generator<number> {
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    let i = at;
    while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === 13)) i++;
    if (i < end) yield at;
    at = end + 1;
  }
}

/** The records one at a time: a file's light nodes are never all alive at once. */
function* jsonRecords(data: DataFile): Generator<{ map: LightMap; offset: number }> {
  const text = data.text;
  for (const start of lineStarts(text)) {
    const r = readJsonObject(text, start);
    if (!r.ok) {
      data.report(r.offset, r.message, 'each line of a JSON Lines file is one JSON object');
      continue;
    }
    let i = r.end;
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\r') i++;
    if (i < text.length && text[i] !== '\n') {
      data.report(i, 'expected the end of the line after the JSON object', 'each line of a JSON Lines file is one JSON object');
      continue;
    }
    yield { map: r.map, offset: r.map.start };
  }
}

/** JSON Lines or CSV of plain rows: each record is a +I row for the replay's table. */
function readPlain(data: DataFile, env: EventEnv, rows: FastRows, spec: Spec, file: DataFileSpec): Read[] {
  data.env = env;
  const table = rows.table((file.table ?? spec.table)!.name);
  if (table === undefined) return [];
  const partition = file.partition ?? spec.partition;
  const timeIndex = spec.timeField === undefined ? undefined : table.index.get(spec.timeField);
  let records: Iterable<{ map: LightMap; offset: number }>;
  if (spec.format === 'csv') {
    const r = readCsv(data.text);
    if (!r.ok) {
      data.report(r.offset, r.message);
      return [];
    }
    const list: { map: LightMap; offset: number }[] = [];
    for (const x of r.records) {
      if ('map' in x) list.push({ map: x, offset: x.start });
      else data.report(x.offset, x.message);
    }
    records = list;
  } else {
    records = jsonRecords(data);
  }
  const out: Read[] = [];
  for (const { map, offset } of records) {
    data.ctx.onEvent?.();
    const values = data.row(rows, table, map, '+I');
    if (values === undefined) continue;
    let time = Number.NaN;
    if (timeIndex !== undefined) {
      const t = values[timeIndex];
      if (typeof t !== 'number') {
        const column = table.def.columns[timeIndex]!;
        data.report(offset, `this row has no time in \`${column.name}\` (the replay's time-field)`, `give \`${column.name}\` a time, or use \`order: files\``);
        continue;
      }
      time = t;
    }
    const ev: ScenarioEvent = { pos: data.pos(offset), file: data.shown, kind: 'row', table: table.def.name, partition, op: '+I', row: values };
    out.push({ events: [ev], time, partition });
  }
  return out;
}

function field(m: LightMap, name: string): LightNode | undefined {
  const i = m.keys.findIndex((k) => k.value === name);
  return i < 0 ? undefined : m.values[i];
}

/**
 * kcat -J envelopes: the payload (a JSON string, or an object) is the row; its table is `to:`,
 * or `topics:`'s table for the topic, or the table named like the topic. An upsert or lookup
 * table reads a null payload (a tombstone) as a delete of the key in `key`; a debezium-json
 * table reads the payload as a debezium envelope (c / r: +I, u: -U and +U, d: -D) and skips
 * tombstones, as Flink's format does.
 */
function readKafka(data: DataFile, env: EventEnv, rows: FastRows, spec: Spec, fileTable: TableDef | undefined): Read[] {
  data.env = env;
  const out: Read[] = [];
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
    out.push({ events, time: ts!.value, partition });
  }
  return out;
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
    data.report(part.start, 'partition must be a partition index (0, 1, ...), not a map');
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
