/**
 * The keys of a `replay:` event (docs/scenario-format.md, "Events from files"), read and
 * checked before any data file is opened: the files and their tables, the format, the arrival
 * rule and the time range.
 */
import { dirname, extname, isAbsolute, join } from 'node:path';
import { isMap, isScalar, isSeq } from 'yaml';
import type { Node, YAMLMap } from 'yaml';
import type { TableDef } from '../planner/plan.js';
import { parseTimeLiteral } from '../values/time.js';
import { describeNode, entries, knownEntries, readScalarText, report } from './context.js';
import type { Entry, LoadContext } from './context.js';
import { eventTable, readPartition } from './event-env.js';
import type { EventEnv } from './event-env.js';
import { inTimeRange, outOfRangeMessage, TIME_RANGE_HINT } from './time-range.js';

export const REPLAY_KEYS = ['replay', 'format', 'to', 'topics', 'partition', 'order', 'time-field', 'from', 'until', 'processing-time'] as const;

export type Format = 'jsonl' | 'csv' | 'kafka';
export type Order = 'time' | 'files' | 'round-robin';

export const FORMATS: readonly Format[] = ['jsonl', 'csv', 'kafka'];
export const ORDERS: readonly Order[] = ['time', 'files', 'round-robin'];
const BY_EXTENSION: Readonly<Record<string, Format>> = { '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.csv': 'csv' };

export interface DataFileSpec {
  readonly path: string;
  readonly shown: string;
  readonly where: Node;
  /** The file's own `to:` / `partition:` (a list item `{ file, to, partition }`), else the entry's. */
  readonly table?: TableDef;
  readonly partition?: number;
}

export interface Spec {
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

export function readSpec(ctx: LoadContext, env: EventEnv, map: YAMLMap): Spec | undefined {
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

/** A data file's path: relative to the scenario file's folder, or absolute as written. */
function dataPath(ctx: LoadContext, path: string): string {
  return isAbsolute(path) ? path : join(dirname(ctx.file), path);
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
      // A key of the whole replay written on one file (`format:` most of all, which the format
      // hint asks for) is told where it goes, rather than only that a file takes no such key.
      const own = entries(ctx, n).filter((x) => {
        if (x.key === 'to' || x.key === 'partition' || !(REPLAY_KEYS as readonly string[]).includes(x.key)) return true;
        report(ctx, x.keyNode, `\`${x.key}\` applies to the whole replay, not to one of its files`, `write it beside \`replay:\`, in the same event (\`- replay: [...]\` then \`  ${x.key}: ...\` below it)`);
        ok = false;
        return false;
      });
      const keys = new Map(knownEntries(ctx, own, ['file', 'to', 'partition'], 'replay file').map((x) => [x.key, x]));
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
      const shown = dataPath(ctx, path);
      out.push({ path: shown, shown, where: file!.value!, ...(table !== undefined ? { table } : {}), ...(partition !== undefined ? { partition } : {}) });
      continue;
    }
    if (!isScalar(n) || typeof n.value !== 'string' || n.value === '') {
      report(ctx, n, `a data file is a path such as data/orders.jsonl, or \`{ file: PATH, to: TABLE }\`, not ${describeNode(n)}`);
      ok = false;
      continue;
    }
    const shown = dataPath(ctx, n.value);
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
