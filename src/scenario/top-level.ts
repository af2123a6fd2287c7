/**
 * The top-level map of a scenario (spec §1): every key but `sql` and `events`, whose checks need
 * the SQL, is read here into plain values; problems go to the context's diagnostics.
 */
import { isMap, isScalar, isSeq } from 'yaml';
import type { Node, Scalar, YAMLMap } from 'yaml';
import type { EngineConfig, FlinkVersion } from '../planner/plan.js';
import { readConfig, readConfigText } from './config.js';
import { describeNode, entries, knownEntries, readScalarText, readString, report } from './context.js';
import type { Entry, LoadContext } from './context.js';
import { readExpect } from './expect.js';
import type { ExpectRead } from './expect.js';
import { readQueries } from './queries-block.js';
import type { QueryEntry } from './queries-block.js';
import { didYouMean } from './did-you-mean.js';
import type { Expectation } from './types.js';

export const TOP_LEVEL_KEYS = [
  'name',
  'description',
  'date',
  'flink-version',
  'watermarks',
  'partitions',
  'config',
  'sql',
  'queries',
  'events',
  'expect',
  'demo',
] as const;

export const REQUIRED: Readonly<Record<string, string>> = {
  name: 'add `name: <a short title>`',
  sql: 'add `sql: |` followed by the CREATE TABLE statements and the query, indented',
  events: 'add `events:` with the arrival script (`events: []` for none)',
};

export interface PartitionEntry {
  readonly table: string;
  readonly count: number;
  readonly keyNode: Node;
}

export interface TopLevel {
  readonly name?: string;
  readonly description?: string;
  readonly dateMs: number;
  readonly flinkVersion: FlinkVersion;
  readonly watermarks: 'auto' | 'manual';
  readonly partitions: readonly PartitionEntry[];
  readonly config: EngineConfig;
  /** The `config:` entries as written in the file (see readConfigText). */
  readonly configText: Readonly<Record<string, string>>;
  readonly sql?: { readonly text: string; readonly node: Scalar };
  /** The `queries:` map (a joinstep extension): name → one query's SQL, in file order. */
  readonly queries?: readonly QueryEntry[];
  readonly events?: Entry;
  readonly expect?: Expectation;
  /** Where the expect block and its per-query keys are, to check them against `queries:`. */
  readonly expectRead?: ExpectRead;
  readonly demo?: string;
}

export function readTopLevel(ctx: LoadContext, map: YAMLMap): TopLevel {
  const all = entries(ctx, map);
  const byKey = new Map(knownEntries(ctx, all, TOP_LEVEL_KEYS, 'top-level').map((e) => [e.key, e]));
  // A misspelt required key (`evnets`) is already reported with its did-you-mean; don't say it twice.
  const guessed = new Set(all.filter((e) => !byKey.has(e.key)).map((e) => didYouMean(e.key, TOP_LEVEL_KEYS)));
  for (const [key, hint] of Object.entries(REQUIRED)) {
    if (!byKey.has(key) && !guessed.has(key)) report(ctx, { line: 1, col: 1 }, `missing required key \`${key}\``, hint);
  }
  const get = (k: string): Entry | undefined => byKey.get(k);
  const configEntry = get('config');
  return {
    name: optional(get('name'), (e) => nonEmpty(ctx, e, 'name')),
    description: optional(get('description'), (e) => readString(ctx, e, 'description')),
    dateMs: optional(get('date'), (e) => readDate(ctx, e)) ?? 0,
    flinkVersion: optional(get('flink-version'), (e) => readFlinkVersion(ctx, e)) ?? '2.3',
    watermarks: optional(get('watermarks'), (e) => readWatermarks(ctx, e)) ?? 'auto',
    partitions: optional(get('partitions'), (e) => readPartitions(ctx, e)) ?? [],
    config: readConfig(ctx, configEntry?.value ?? null, configEntry?.keyNode ?? null),
    configText: readConfigText(configEntry?.value ?? null),
    sql: optional(get('sql'), (e) => readSql(ctx, e)),
    events: get('events'),
    queries: optional(get('queries'), (e) => readQueries(ctx, e)),
    ...expectOf(ctx, get('expect')),
    demo: optional(get('demo'), (e) => readString(ctx, e, 'demo')),
  };
}

function expectOf(ctx: LoadContext, e: Entry | undefined): { expect?: Expectation; expectRead?: ExpectRead } {
  const read = e === undefined ? undefined : readExpect(ctx, e);
  return read === undefined ? {} : { expect: read.expect, expectRead: read };
}

function optional<T>(e: Entry | undefined, read: (e: Entry) => T | undefined): T | undefined {
  return e === undefined ? undefined : read(e);
}

function nonEmpty(ctx: LoadContext, e: Entry, what: string): string | undefined {
  const text = readScalarText(e.value);
  if (text !== undefined && text.trim() !== '') return text;
  report(ctx, e.valueWhere, `${what} must be a non-empty string, not ${describeNode(e.value)}`);
  return undefined;
}

/** `date: YYYY-MM-DD` → epoch ms of that day's 00:00 UTC. */
function readDate(ctx: LoadContext, e: Entry): number | undefined {
  const text = readScalarText(e.value) ?? '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const ms = Date.UTC(y, mo - 1, d);
    const back = new Date(ms);
    if (back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d) return ms;
    report(ctx, e.valueWhere, `date ${text} is not a day of the calendar`, 'write the date as YYYY-MM-DD, e.g. 2026-10-01');
    return undefined;
  }
  report(ctx, e.valueWhere, `date must be a day written YYYY-MM-DD, not ${describeNode(e.value)}`, 'e.g. `date: 2026-10-01`');
  return undefined;
}

export const VERSIONS: readonly FlinkVersion[] = ['2.0', '2.1', '2.2', '2.3', '2.4'];

/** Read by the scalar's source text, so an unquoted `2.0` stays "2.0"; a patch release (2.3.1) is its minor. */
function readFlinkVersion(ctx: LoadContext, e: Entry): FlinkVersion | undefined {
  const text = readScalarText(e.value) ?? '';
  const m = /^(\d+\.\d+)(\.\d+)?$/.exec(text.trim());
  const hit = VERSIONS.find((v) => v === m?.[1]);
  if (hit !== undefined) return hit;
  report(
    ctx,
    e.valueWhere,
    `flink-version ${text === '' ? describeNode(e.value) : text} is not supported: joinstep simulates Flink ${VERSIONS[0]} to ${VERSIONS[VERSIONS.length - 1]}`,
    `use one of ${VERSIONS.map((v) => `"${v}"`).join(', ')} (default "2.3")`,
  );
  return undefined;
}

function readWatermarks(ctx: LoadContext, e: Entry): 'auto' | 'manual' | undefined {
  const text = readScalarText(e.value);
  if (text === 'auto' || text === 'manual') return text;
  report(
    ctx,
    e.valueWhere,
    `watermarks must be \`auto\` or \`manual\`, not ${describeNode(e.value)}`,
    'auto: each row emits its partition\'s watermark; manual: only `watermark` events do',
  );
  return undefined;
}

/** Per table: each partition is a watermark column on screen, and per-event work grows with the count. */
export const MAX_PARTITIONS = 256;

/** `partitions: {table: n}`; table names are checked later against the SQL. */
function readPartitions(ctx: LoadContext, e: Entry): PartitionEntry[] | undefined {
  if (isScalar(e.value) && e.value.value === null) return [];
  if (!isMap(e.value)) {
    report(ctx, e.valueWhere, `partitions must be a map from table name to a partition count, not ${describeNode(e.value)}`, 'e.g. `partitions: { rates: 2 }`');
    return undefined;
  }
  const out: PartitionEntry[] = [];
  for (const p of entries(ctx, e.value)) {
    const v = isScalar(p.value) ? p.value.value : undefined;
    if (typeof v === 'number' && Number.isInteger(v) && v > MAX_PARTITIONS) {
      report(ctx, p.valueWhere, `partitions of ${p.key} must be at most ${MAX_PARTITIONS}, not ${v}`,
        'a stepping debugger shows every partition; a few (2 to 4) show how watermarks and idleness combine');
    } else if (typeof v === 'number' && Number.isInteger(v) && v >= 1) out.push({ table: p.key, count: v, keyNode: p.keyNode });
    else report(ctx, p.valueWhere, `partitions of ${p.key} must be an integer of 1 or more, not ${describeNode(p.value)}`);
  }
  return out;
}

function readSql(ctx: LoadContext, e: Entry): { text: string; node: Scalar } | undefined {
  const v = e.value;
  if (isScalar(v) && typeof v.value === 'string' && v.value.trim() !== '') return { text: v.value, node: v };
  const what = isSeq(v) || isMap(v) ? describeNode(v) : describeNode(v);
  report(ctx, e.valueWhere, `sql must be a text block with the SQL statements, not ${what}`, 'write `sql: |` and the statements on the following lines, indented');
  return undefined;
}
