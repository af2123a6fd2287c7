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
import { DataFile, jsonRecords, readData } from './replay-data.js';
import type { Read } from './replay-data.js';
import { readKafka } from './replay-kafka.js';
import { readSpec } from './replay-spec.js';
import type { DataFileSpec, Order, Spec } from './replay-spec.js';
import { inTimeRange } from './time-range.js';
import type { ScenarioEvent } from './types.js';

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
