/**
 * `replay:` events (docs/scenario-format.md, "Events from files"): a table's events read from
 * data files beside the scenario, spliced into the arrival script where the entry stands.
 * Formats: JSON Lines of plain rows, CSV with a header, and Kafka topic dumps (`kcat -J`
 * envelopes: topic, partition, offset, tstype, ts, key, payload). Several files interleave by an
 * arrival rule: by time (the Kafka timestamp, or a row field), in file order, or round robin
 * over (file, partition) streams. Rows are checked as inline rows are, and a bad line is
 * reported at its line and column in the data file with the inline message.
 */
import type { YAMLMap } from 'yaml';
import type { LoadContext } from './context.js';
import { readCsv } from './csv-file.js';
import type { EventEnv } from './event-env.js';
import type { Clock } from './events.js';
import { FastRows } from './fast-row.js';
import type { LightMap } from './flow-line.js';
import { DataFile, jsonRecord, readData } from './replay-data.js';
import { JsonRowReader } from './json-row.js';
import type { Read } from './replay-data.js';
import { readKafka } from './replay-kafka.js';
import { readSpec } from './replay-spec.js';
import { NotStreamed } from './not-streamed.js';
import { DataCut } from './data-cut.js';
import type { DataFileSpec, Order, Spec } from './replay-spec.js';
import { inTimeRange } from './time-range.js';
import type { FilePos, ScenarioEvent } from './types.js';
import type { Value } from '../values/types.js';

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
    const data = openData(ctx, f);
    if (data === undefined) {
      ok = false;
      return;
    }
    for (const r of fileRecords(data, env, rows, spec, f)) {
      const key = `${fileIndex}/${r.partition}`;
      let stream = streams.get(key);
      if (stream === undefined) streams.set(key, (stream = streams.size));
      records.push({ events: r.events, time: r.time, stream, file: fileIndex, seq: records.length });
    }
    data.finish();
    if (!data.ok) ok = false;
  });
  if (!ok) return undefined;
  const kept = records.filter((r) => inRange(spec, r.time));
  const ordered = arrange(kept, spec.order, streams.size);
  const out: ScenarioEvent[] = [];
  for (const r of ordered) {
    for (let i = 0; i < r.events.length; i++) out.push(placed(r.events[i]!, i, r.time, spec, clock));
  }
  return out;
}

/**
 * The replay's events as they are pulled, without its records all alive at once: in file order
 * one file after another; by time, a merge of the files (each must be in time order, as a capture
 * of a topic partition or a sorted export is; ties go to the earlier file, as the stable sort's
 * do); round robin, one record from each file in turn (plain rows: a file is one stream). The
 * order is that of readReplay by construction of these rules; anything else (a Kafka dump read
 * round robin, a file out of time order, any problem to report) throws NotStreamed.
 */
export function* streamReplay(ctx: LoadContext, env: EventEnv, map: YAMLMap, clock: Clock): Generator<ScenarioEvent, void> {
  const spec = readSpec(ctx, env, map);
  if (spec === undefined) throw new NotStreamed('replay: its keys have a problem');
  if (spec.order === 'round-robin' && spec.format === 'kafka') throw new NotStreamed('replay: a Kafka dump read round robin');
  const rows = new FastRows(ctx, env);
  // Only plain JSON Lines are cut: each line is a record on its own, so the head's records are
  // the file's first ones (a CSV field may span lines; a Kafka dump is not cut either).
  const head = spec.format === 'jsonl' ? ctx.dataHead : undefined;
  const cursors: Cursor[] = spec.files.map((f, file) => {
    const data = openData(ctx, f, head);
    if (data === undefined) throw new NotStreamed('replay: a data file cannot be read');
    return { data, records: fileRecords(data, env, rows, spec, f), file, head: undefined, last: -Infinity, done: false };
  });
  if (spec.order === 'files') {
    for (const c of cursors) {
      for (let r = next(c, spec); r !== undefined; r = next(c, spec)) {
        for (let i = 0; i < r.events.length; i++) yield placed(r.events[i]!, i, r.time, spec, clock);
      }
    }
  } else if (spec.order === 'round-robin') {
    for (let more = true; more; ) {
      more = false;
      for (const c of cursors) {
        const r = next(c, spec);
        if (r === undefined) continue;
        more = true;
        for (let i = 0; i < r.events.length; i++) yield placed(r.events[i]!, i, r.time, spec, clock);
      }
    }
  } else {
    for (const c of cursors) pull(c, spec);
    for (;;) {
      let min: Cursor | undefined;
      for (const c of cursors) if (c.head !== undefined && (min === undefined || c.head.time < min.head!.time)) min = c;
      if (min === undefined) break;
      const r = min.head!;
      pull(min, spec);
      for (let i = 0; i < r.events.length; i++) yield placed(r.events[i]!, i, r.time, spec, clock);
    }
  }
  for (const c of cursors) {
    c.data.finish();
    if (!c.data.ok) throw new NotStreamed('replay: a data file has problems');
  }
}

/** A data file being read record by record, for streamReplay. */
interface Cursor {
  readonly data: DataFile;
  readonly records: Generator<Read>;
  readonly file: number;
  /** The time merge's next record of this file (pulled ahead). */
  head: Read | undefined;
  /** The time of the record before `head`. */
  last: number;
  done: boolean;
}

/** The file's next record inside the replay's time range; DataCut where a cut file's head ends. */
function next(c: Cursor, spec: Spec): Read | undefined {
  while (!c.done) {
    const r = c.records.next();
    if (r.done === true) {
      // The rest of a cut file is not read: what would come next is not known here.
      if (c.data.cut) throw new DataCut();
      c.done = true;
      break;
    }
    if (inRange(spec, r.value.time)) return r.value;
  }
  return undefined;
}

/** Moves the time merge's head of `c` on; a file out of time order cannot be merged. */
function pull(c: Cursor, spec: Spec): void {
  const r = next(c, spec);
  if (r !== undefined) {
    // NaN (no time) fails this too: the sort's order of such records is not a merge's.
    if (!(r.time >= c.last)) throw new NotStreamed('replay: a data file is not in time order');
    c.last = r.time;
  }
  c.head = r;
}

function inRange(spec: Spec, time: number): boolean {
  return (spec.from === undefined || time >= spec.from) && (spec.until === undefined || time < spec.until);
}

/**
 * Event i of a record at `time`, where it lands in the script: with `processing-time`, the
 * record's first event moves the processing clock to its time (forward only).
 */
function placed(ev: ScenarioEvent, i: number, time: number, spec: Spec, clock: Clock): ScenarioEvent {
  let out = ev;
  if (i === 0 && spec.processingTime && (clock.fresh || time > clock.now) && inTimeRange(time)) {
    clock.now = time;
    out = { ...ev, at: time };
  }
  clock.fresh = false;
  return out;
}

/** `head`: read at most this many bytes of the file (readData). */
function openData(ctx: LoadContext, f: DataFileSpec, head?: number): DataFile | undefined {
  const read = readData(ctx, f.path, f.where, head);
  return read === undefined ? undefined : new DataFile(ctx, f.shown, read.text, read.cut);
}

/** The records of one data file, read as they are pulled. */
function fileRecords(data: DataFile, env: EventEnv, rows: FastRows, spec: Spec, f: DataFileSpec): Generator<Read> {
  return spec.format === 'kafka' ? readKafka(data, env, rows, spec, f.table) : readPlain(data, env, rows, spec, f);
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

/** JSON Lines or CSV of plain rows: each record is a +I row for the replay's table. */
function* readPlain(data: DataFile, env: EventEnv, rows: FastRows, spec: Spec, file: DataFileSpec): Generator<Read> {
  data.env = env;
  const table = rows.table((file.table ?? spec.table)!.name);
  if (table === undefined) return;
  const partition = file.partition ?? spec.partition;
  const timeIndex = spec.timeField === undefined ? undefined : table.index.get(spec.timeField);
  const made = (values: Value[], offset: number, pos?: FilePos): Read | undefined => {
    let time = Number.NaN;
    if (timeIndex !== undefined) {
      const t = values[timeIndex];
      if (typeof t !== 'number') {
        const column = table.def.columns[timeIndex]!;
        data.report(offset, `this row has no time in \`${column.name}\` (the replay's time-field)`, `give \`${column.name}\` a time, or use \`order: files\``);
        return undefined;
      }
      time = t;
    }
    const ev: ScenarioEvent = { pos: pos ?? data.pos(offset), file: data.shown, kind: 'row', table: table.def.name, partition, op: '+I', row: values };
    return { events: [ev], time, partition };
  };
  if (spec.format === 'csv') {
    const r = readCsv(data.text);
    if (!r.ok) {
      data.report(r.offset, r.message, r.hint);
      return;
    }
    // Shape problems first, then rows, as the cap on reported problems has always counted them.
    const records: LightMap[] = [];
    for (const x of r.records) {
      if ('map' in x) records.push(x);
      else data.report(x.offset, x.message, x.hint);
    }
    for (const x of records) {
      data.ctx.onEvent?.();
      const values = data.row(rows, table, x, '+I');
      const read = values === undefined ? undefined : made(values, x.start);
      if (read !== undefined) yield read;
    }
    return;
  }
  // JSON Lines: the common row straight from the text (json-row.ts), any other line the general way.
  const text = data.text;
  const direct = new JsonRowReader(rows, table, '+I');
  let line = 1;
  for (let at = 0; at < text.length; line++) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const start = at;
    at = end + 1;
    let i = start;
    while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === 13)) i++;
    if (i === end) continue;
    let values = direct.read(text, start);
    let offset = direct.objectStart;
    if (values === undefined) {
      const rec = jsonRecord(data, start);
      if (rec === undefined) continue;
      data.ctx.onEvent?.();
      values = data.row(rows, table, rec.map, '+I');
      if (values === undefined) continue;
      offset = rec.offset;
    } else {
      data.ctx.onEvent?.();
    }
    const read = made(values, offset, { line, col: offset - start + 1 });
    if (read !== undefined) yield read;
  }
}
