/**
 * The JSON Schema of a scenario file (schema/scenario.schema.json, written by `npm run schema`),
 * for editors: with `# yaml-language-server: $schema=...` on a file's first line, the YAML
 * language server completes keys and values and marks mistakes as you type.
 *
 * Drawn from the loader's own tables wherever they exist (top-level keys and which are required,
 * config keys, event kinds and the keys each takes, row kinds, Flink versions, duration units), so
 * the schema follows the loader. A key the loader gains without a shape here makes generation
 * fail, naming the table to extend. The loader stays the judge: the schema checks forms (keys,
 * types, enums, time and duration spellings), not what needs the SQL (tables, columns, types).
 */
import { FORMATS, ORDERS, REPLAY_KEYS } from './replay-spec.js';
import { UNITS as DURATION_UNITS } from '../values/duration.js';
import { ROW_KINDS } from '../values/types.js';
import { CONFIG_KEYS } from './config.js';
import { ALLOWED, KIND_KEYS } from './events.js';
import { MAX_PARTITIONS, REQUIRED, TOP_LEVEL_KEYS, VERSIONS } from './top-level.js';

type Schema = Record<string, unknown>;

/** A pattern matching `words` in any letter case (JSON Schema patterns have no `i` flag). */
function anyCase(word: string): string {
  return [...word].map((ch) => (ch.toLowerCase() !== ch.toUpperCase() ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
}

/** One of `values`, in any letter case; editors offer `values` as written. */
function enumAnyCase(values: readonly string[], description: string): Schema {
  return { description, anyOf: [{ enum: [...values] }, { type: 'string', pattern: `^(${values.map(anyCase).join('|')})$` }] };
}

/** Names, notes, table names: the loader takes any scalar by its source text (`note: 42`). */
const SCALAR_TEXT: Schema = { type: ['string', 'number', 'boolean'] };

const YAML_NUMBER = '(-?\\d+)';
const DATE = '(-?\\d{4,9}-\\d{1,2}-\\d{1,2})';
const TIME_OF_DAY = '(\\d{1,2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?)';
const OFFSET = '(Z|[+-]\\d{2}(:?\\d{2})?)';

/** Spec §3's time literals: epoch ms, a time of day on `date:`, a day, or a day and a time (with an offset where the column is TIMESTAMP_LTZ). */
function timeLiteral(withOffset: boolean, description: string): Schema {
  const dateTime = `(${DATE}[T ]\\s*${TIME_OF_DAY}${withOffset ? `(\\s*${OFFSET})?` : ''})`;
  return {
    description,
    anyOf: [{ type: 'integer' }, { type: 'string', pattern: `^\\s*(${YAML_NUMBER}|${TIME_OF_DAY}|${DATE}|${dateTime})\\s*$` }],
    examples: ['09:30', '2026-10-01 09:30:00.000', 0],
  };
}

/** A duration: a bare integer (ms), or an integer and a unit (`5 s`, `30 min`); config values also take Flink's `m` (minutes). */
function duration(description: string, config: boolean, positive = false): Schema {
  const units = [...Object.keys(DURATION_UNITS), ...(config ? ['m'] : [])];
  return {
    description,
    anyOf: [{ type: 'integer', minimum: positive ? 1 : 0 }, { type: 'string', pattern: `^\\s*\\d+\\s*(${units.map(anyCase).join('|')})?\\s*$` }],
    examples: ['250 ms', '5 s', '30 min', '2 h', '1 d'],
  };
}

/** What each config key takes (its Flink type); every key of the loader's CONFIG_KEYS must be here. */
/** A YAML boolean, or the words true / false in any case (as Flink's configuration reads them). */
function booleanAnyCase(description: string): Schema {
  return { description, anyOf: [{ type: 'boolean' }, { type: 'string', pattern: `^(${anyCase('true')}|${anyCase('false')})$` }] };
}

const CONFIG_VALUES: Readonly<Record<string, Schema>> = {
  'table.exec.state.ttl': duration('how long join state is kept after its last access; 0 keeps it forever', true),
  'table.exec.source.idle-timeout': duration('a source partition with no rows for this long is idle; 0 never', true),
  'table.exec.interval-join.min-cleanup-interval': duration("how often an interval join's state cleanup may run at least", true),
  'pipeline.auto-watermark-interval': duration('the periodic watermark interval', true),
  'table.local-time-zone': { type: 'string', description: 'the session time zone: an IANA name (Europe/Berlin), UTC or a fixed offset (GMT+08:00)', examples: ['UTC', 'Europe/Berlin'] },
  'table.exec.sink.upsert-materialize': enumAnyCase(['AUTO', 'NONE', 'FORCE'], 'whether the sink adds an upsert materializer'),
  'table.optimizer.non-deterministic-update.strategy': enumAnyCase(['IGNORE', 'TRY_RESOLVE'], 'how the planner handles non-deterministic updates'),
  'table.exec.source.cdc-events-duplicate': booleanAnyCase('whether a CDC source may send duplicate events'),
  'table.exec.sink.require-on-conflict': booleanAnyCase('whether an upsert sink keyed differently from the query needs ON CONFLICT (Flink 2.3 default: true)'),
};

/** What each event key takes; every key of the loader's ALLOWED table must be here (`to`, which differs by kind, is below). */
const EVENT_VALUES: Readonly<Record<string, Schema>> = {
  row: { type: 'object', description: 'the row: column name → value, typed by the table\'s CREATE TABLE', additionalProperties: true },
  op: enumAnyCase(ROW_KINDS, 'the change: +I insert (the default), -U retract before an update, +U update, -D delete'),
  partition: { type: 'integer', minimum: 0, description: 'the source partition (0, 1, ...; `partitions:` sets how many)' },
  at: timeLiteral(false, 'set the processing clock to this time before the event (it never goes back)'),
  note: { ...SCALAR_TEXT, description: 'narration shown at this step' },
  ask: { description: 'practice mode: ask before this step (true), never (false), or ask this question', anyOf: [{ type: 'boolean' }, { type: 'string', minLength: 1, pattern: '\\S' }] },
  hint: { type: 'string', minLength: 1, pattern: '\\S', description: "practice mode: a hint shown with this step's question" },
  watermark: { ...SCALAR_TEXT, description: 'the table whose watermark moves' },
  idle: { ...SCALAR_TEXT, description: 'the table whose partition(s) become idle' },
  active: { ...SCALAR_TEXT, description: 'the table whose partition(s) become active again' },
  advance: duration('move the processing clock forward by this much', false, true),
};

/** The `to` of a watermark event: a time (with an offset for a TIMESTAMP_LTZ watermark) or `max`. */
const WATERMARK_TO: Schema = { anyOf: [{ const: 'max' }, timeLiteral(true, 'the new watermark')], description: 'the new watermark: a time, epoch ms, or `max` (end of input)' };

function eventSchema(kind: string, keys: readonly string[], kindKey: string | undefined): Schema {
  const properties: Schema = {};
  for (const key of keys) {
    const shape = kind === 'watermark' && key === 'to' ? WATERMARK_TO : kind === 'row' && key === 'to' ? { ...SCALAR_TEXT, description: 'the table the row goes to' } : EVENT_VALUES[key];
    if (shape === undefined) throw new Error(`event key \`${key}\` (${kind} events) has no schema: add it to EVENT_VALUES in src/scenario/schema.ts`);
    properties[key] = shape;
  }
  const required = kind === 'row' ? ['to', 'row'] : kindKey !== undefined ? [kindKey] : [kind];
  return { title: `${kind} event`, type: 'object', required, properties, additionalProperties: false };
}

/** A path beside the scenario, or `{ file, to, partition }` for one file of a replay. */
const DATA_FILE: Schema = {
  anyOf: [
    { type: 'string', minLength: 1 },
    {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', minLength: 1 }, to: { ...SCALAR_TEXT, description: 'the table its rows go to' }, partition: { type: 'integer', minimum: 0 } },
      additionalProperties: false,
    },
  ],
};

const REPLAY_VALUES: Readonly<Record<string, Schema>> = {
  replay: { description: 'the data file(s) whose records arrive here (docs/scenario-format.md, "Events from files")', anyOf: [DATA_FILE, { type: 'array', minItems: 1, items: DATA_FILE }] },
  format: { enum: [...FORMATS], description: 'the files\' format (default: from the extension)' },
  to: { ...SCALAR_TEXT, description: 'the table the records go to (jsonl and csv)' },
  topics: { type: 'object', additionalProperties: { ...SCALAR_TEXT }, description: 'Kafka topic → table, where a topic is not named as its table' },
  partition: { type: 'integer', minimum: 0, description: 'the partition the records arrive at (jsonl and csv)' },
  order: { enum: [...ORDERS], description: 'how the files interleave: by time, file after file, or round robin per partition' },
  'time-field': { type: 'string', minLength: 1, description: "the column holding each record's time (jsonl and csv)" },
  from: timeLiteral(false, 'only records at or after this time'),
  until: timeLiteral(false, 'only records before this time'),
  'processing-time': { enum: ['timestamp', 'none'], description: "timestamp: the Kafka record's timestamp sets the processing clock" },
};

/** A `replay:` entry among the events: it stands for the records of its data files. */
function replaySchema(): Schema {
  const properties: Schema = {};
  for (const key of REPLAY_KEYS) {
    const shape = REPLAY_VALUES[key];
    if (shape === undefined) throw new Error(`replay key \`${key}\` has no schema: add it to REPLAY_VALUES in src/scenario/schema.ts`);
    properties[key] = shape;
  }
  return { title: 'replay entry', type: 'object', required: ['replay'], properties, additionalProperties: false };
}

const QUERY_NAME = '^[A-Za-z_][A-Za-z0-9_.-]*$';

/** A printed row: quoted text; plain numbers and booleans, and an unquoted `[a, 1]` flow list, are taken as written. */
const PRINTED_ROWS: Schema = { type: ['array', 'null'], items: { type: ['string', 'number', 'boolean', 'array'] } };

const EXPECT_PLAIN: Schema = {
  changelog: { ...PRINTED_ROWS, description: 'the changelog as Flink prints it, one row per item: "+I[o1, 110.000000]"' },
  result: { ...PRINTED_ROWS, description: 'the final materialized table, one row per item' },
  error: { type: 'string', description: 'planning must fail with a message containing this text' },
};

const NON_BLANK = { type: 'string', pattern: '\\S' };

function topLevelProperties(): Schema {
  const kindOf = new Map(KIND_KEYS.map(([key, kind]) => [kind as string, key]));
  const events = Object.entries(ALLOWED).map(([kind, keys]) => eventSchema(kind, keys, kindOf.get(kind) ?? (kind === 'note' ? 'note' : undefined)));
  const shapes: Schema = {
    name: { ...SCALAR_TEXT, minLength: 1, pattern: '\\S', description: 'a short title' },
    description: { type: 'string', description: 'what the scenario shows' },
    date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'the day that time-only times (09:30) fall on; default 1970-01-01', examples: ['2026-10-01'] },
    'flink-version': {
      description: `the Flink release whose behaviour to simulate (${VERSIONS.join(', ')}; default 2.3); a patch release (2.3.1) is its minor`,
      anyOf: [{ type: 'string', pattern: `^\\s*(${VERSIONS.map((v) => v.replace('.', '\\.')).join('|')})(\\.\\d+)?\\s*$` }, { type: 'number', enum: VERSIONS.map(Number) }],
      examples: [...VERSIONS],
    },
    watermarks: { enum: ['auto', 'manual'], description: "auto: each row emits its partition's watermark; manual: only `watermark` events do" },
    partitions: {
      type: ['object', 'null'],
      description: 'table → number of source partitions (default 1)',
      additionalProperties: { type: 'integer', minimum: 1, maximum: MAX_PARTITIONS },
    },
    config: {
      type: ['object', 'null'],
      description: 'the Flink configuration keys that change join semantics',
      properties: Object.fromEntries(
        CONFIG_KEYS.map((k) => {
          const shape = CONFIG_VALUES[k];
          if (shape === undefined) throw new Error(`config key \`${k}\` has no schema: add it to CONFIG_VALUES in src/scenario/schema.ts`);
          return [k, shape];
        }),
      ),
      additionalProperties: false,
    },
    sql: { ...NON_BLANK, description: 'the CREATE TABLE (and CREATE VIEW) statements, then the one query' },
    queries: {
      type: 'object',
      description: 'several named queries over the tables of `sql:`: name → one SELECT or INSERT INTO',
      propertyNames: { pattern: QUERY_NAME },
      additionalProperties: NON_BLANK,
      minProperties: 1,
    },
    events: { type: 'array', description: 'the arrival script, in order', items: { anyOf: [...events, replaySchema()] } },
    expect: {
      description: 'what `joinstep test` checks: changelog, result and/or error; with `queries:`, per query under expect.queries',
      anyOf: [
        { type: 'object', properties: EXPECT_PLAIN, additionalProperties: false },
        {
          type: 'object',
          required: ['queries'],
          properties: {
            queries: { type: 'object', propertyNames: { pattern: QUERY_NAME }, additionalProperties: { type: 'object', properties: EXPECT_PLAIN, additionalProperties: false } },
          },
          additionalProperties: false,
        },
      ],
    },
    demo: { type: 'string', description: "the app's demo key script" },
  };
  for (const key of TOP_LEVEL_KEYS) {
    if (shapes[key] === undefined) throw new Error(`top-level key \`${key}\` has no schema: add it to topLevelProperties in src/scenario/schema.ts`);
  }
  return Object.fromEntries(TOP_LEVEL_KEYS.map((k) => [k, shapes[k]]));
}

export function scenarioSchema(): Schema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'joinstep scenario',
    description: 'A joinstep scenario: Flink SQL tables and a join query, an arrival script of events, and what to expect (docs/scenario-format.md).',
    type: 'object',
    required: Object.keys(REQUIRED),
    properties: topLevelProperties(),
    additionalProperties: false,
  };
}

/** The file's text, as committed in schema/scenario.schema.json. */
export function scenarioSchemaText(): string {
  return `${JSON.stringify(scenarioSchema(), null, 2)}\n`;
}
