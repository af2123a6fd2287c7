/**
 * The scenario loader: the only place that reads YAML. A file goes through YAML (with
 * positions), the top-level schema, the SQL (parse + plan) and the events; every problem found
 * on the way becomes a diagnostic, and all of them are returned in file order.
 */
import { readFile, stat } from 'node:fs/promises';
import { isMap, isScalar } from 'yaml';
import { report } from './context.js';
import type { LoadContext } from './context.js';
import { dedupeDiagnostics, sortDiagnostics } from './diagnostic.js';
import { suggestionHint } from './did-you-mean.js';
import type { EventEnv } from './event-env.js';
import { readEvents, streamEvents } from './events.js';
import { checkExpectForm } from './expect-check.js';
import { cutEventsBlock, NOT_FAST, readFastEvents, streamFastEvents } from './fast-events.js';
import { readFlowLine } from './flow-line.js';
import { NotStreamed } from './not-streamed.js';
import { lazyLines, shiftedLines } from './line-table.js';
import type { EventsBlock } from './fast-events.js';
import { runQueriesStage } from './queries-stage.js';
import { runSqlStage } from './sql-stage.js';
import type { SqlStage } from './sql-stage.js';
import { readTopLevel } from './top-level.js';
import type { TopLevel } from './top-level.js';
import type { Diagnostic, LoadResult, RejectedSql, Scenario, ScenarioEvent } from './types.js';
import type { FlinkVersion } from '../planner/plan.js';
import { parseYaml } from './yaml-doc.js';
import { fileSizeProblem, MAX_FILE_BYTES } from './limits.js';
import { isStreamLike, readAtMost } from './read-bounded.js';

/** How a caller loads a file: under another release, on the general path only, with progress. */
export interface LoadOptions {
  /** Plan and run under this release instead of the file's `flink-version` (`diff --flink-version A B` plans it twice). */
  readonly flinkVersion?: FlinkVersion;
  /** False: always the general path (for tests that compare the two). */
  readonly fastEvents?: boolean;
  /** Told the number of events read so far (and of how many, when that is known). */
  readonly progress?: (done: number, total?: number) => void;
  /**
   * streamScenarioText only: read no more than this many bytes of each JSON Lines data file
   * (cut after its last whole line), and end the events with DataCut (data-cut.ts) where a file
   * so cut runs out of records. For a thread that runs only the first events while another reads
   * the whole files (cli/read-thread.ts): it need not read and decode tens of MB it never uses.
   */
  readonly dataHead?: number;
}

export async function loadScenarioFile(path: string, options: LoadOptions = {}): Promise<LoadResult> {
  const read = await readScenarioFile(path);
  return read.ok ? loadScenarioText(path, read.text, options) : read;
}

/** A scenario file's text, or why it cannot be read (too big, missing, not UTF-8 text). */
export async function readScenarioFile(path: string): Promise<{ readonly ok: true; readonly text: string } | Extract<LoadResult, { ok: false }>> {
  let bytes: Buffer;
  try {
    // The size first: a file too big for one string would fail inside the runtime.
    const info = await stat(path);
    const tooBig = fileSizeProblem(info.size);
    if (tooBig !== undefined) return { ok: false, diagnostics: [{ file: path, line: 1, col: 1, ...tooBig }] };
    if (isStreamLike(info)) {
      // A device or a pipe: its size is known only once read (read-bounded.ts).
      bytes = readAtMost(path, MAX_FILE_BYTES);
      const over = fileSizeProblem(bytes.length, true);
      if (over !== undefined) return { ok: false, diagnostics: [{ file: path, line: 1, col: 1, ...over }] };
    } else bytes = await readFile(path);
  } catch (error) {
    return { ok: false, diagnostics: [{ file: path, line: 1, col: 1, ...readProblem(error, path) }] };
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    return { ok: false, diagnostics: [{ file: path, line: 1, col: 1, message: 'not a UTF-8 text file', hint: notTextHint(bytes) }] };
  }
  return { ok: true, text };
}

/**
 * The file's text, or undefined when it is not UTF-8 text: a UTF-16 BOM, a NUL byte or an
 * invalid UTF-8 sequence. Decoding such a file anyway would quote mojibake in every message.
 */
function decodeUtf8(bytes: Buffer): string | undefined {
  if (hasUtf16Bom(bytes) || bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function hasUtf16Bom(bytes: Buffer): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

function notTextHint(bytes: Buffer): string {
  if (hasUtf16Bom(bytes)) return 'the file is UTF-16; save it as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8`)';
  return 'a scenario is a YAML text file saved as UTF-8; is this the right file?';
}

function readProblem(error: unknown, path: string): { message: string; hint?: string } {
  const code = (error as { code?: string } | null)?.code;
  // Node reads a name that is not UTF-8 (from the command line or a folder) with U+FFFD in
  // place of its bytes, and no file has that name: the file is there, but cannot be named.
  if (code === 'ENOENT' && path.includes('\ufffd')) return { message: 'no such file', hint: 'a name that is not UTF-8 (shown with �) cannot be opened by joinstep: rename the file' };
  if (code === 'ENOENT') return { message: 'no such file', hint: 'check the path' };
  if (code === 'EISDIR') return { message: 'this is a directory, not a scenario file', hint: 'name a .yaml file inside it' };
  if (code === 'EACCES') return { message: 'permission denied: the file cannot be read' };
  return { message: `cannot read the file (${code ?? 'unknown reason'})` };
}

export function loadScenarioText(file: string, withBom: string, options: LoadOptions = {}): LoadResult {
  // A BOM is not a column: without this, a mistake on line 1 is reported one column to the right.
  const text = withBom.replace(/^\ufeff/, '');
  const block = options.fastEvents === false ? undefined : cutEventsBlock(text);
  if (block !== undefined) {
    const fast = loadParsed(file, text, block, options);
    if (fast !== NOT_FAST) return fast;
  }
  return loadParsed(file, text, undefined, options) as LoadResult;
}

/** A scenario whose events are read as they are pulled (streamScenarioText). */
export interface ScenarioStream {
  /** The scenario with `events: []`: its SQL, queries, plans, partitions and expectations. */
  readonly head: Scenario;
  /**
   * The events in arrival order, read from the file (and its replayed data files) one at a time
   * as they are pulled, so that a caller that does not keep them (`run`) never holds them all.
   * Throws NotStreamed (not-streamed.ts) where loadScenarioText would report a problem, and
   * where the order needs every record first: the caller then loads the file the full way.
   * Pulled to the end without a throw, they are exactly loadScenarioText's `scenario.events`.
   */
  readonly events: Generator<ScenarioEvent, void>;
}

/**
 * The scenario of `file` with its events streamed, or undefined when it does not load without
 * a problem up to its events (the caller loads it the full way, which reports them).
 */
export function streamScenarioText(file: string, withBom: string, options: LoadOptions = {}): ScenarioStream | undefined {
  const text = withBom.replace(/^\ufeff/, '');
  const block = options.fastEvents === false ? undefined : cutEventsBlock(text);
  // A `replay:` line outside the fast reader's subset (a list of files) would send the full load
  // down the general path when it is reached; a stream must choose its path before its first event.
  const fastBlock = block !== undefined && replayLinesFast(text, block) ? block : undefined;
  let p = fastBlock === undefined ? NOT_FAST : prepare(file, text, fastBlock, options);
  if (p === NOT_FAST) p = prepare(file, text, undefined, options);
  if (p === NOT_FAST || !('env' in p) || p.ctx.diagnostics.length > 0) return undefined;
  const scenario = scenarioOf(p, []);
  if (scenario === undefined || p.top.events === undefined) return undefined;
  return { head: scenario, events: checked(p.ctx, eventsOf(text, p)) };
}

/** Whether every item of the block that mentions `replay` is inside the fast reader's subset. */
function replayLinesFast(text: string, block: EventsBlock): boolean {
  const first = block.offsets[0]!;
  for (let at = text.indexOf('replay', first); at >= 0; at = text.indexOf('replay', at + 1)) {
    const lineStart = text.lastIndexOf('\n', at) + 1;
    const brace = text.indexOf('{', lineStart);
    if (brace < 0 || brace > at) continue;
    if (readFlowLine(text, brace) === undefined) return false;
  }
  return true;
}

/** The events, with a problem any reader reported (without throwing) turned into NotStreamed. */
function* checked(ctx: LoadContext, events: Generator<ScenarioEvent, void>): Generator<ScenarioEvent, void> {
  for (const ev of events) {
    if (ctx.diagnostics.length > 0) throw new NotStreamed('a problem was reported');
    yield ev;
  }
  if (ctx.diagnostics.length > 0) throw new NotStreamed('a problem was reported');
}

function eventsOf(text: string, p: Prepared): Generator<ScenarioEvent, void> {
  const { ctx, top, env, block } = p;
  return block === undefined ? streamEvents(ctx, top.events!, env) : streamFastEvents({ ...ctx, text, lineCounter: lazyLines(text) }, block, env);
}

/** What a load knows before it reads the events. */
interface Prepared {
  readonly file: string;
  readonly ctx: LoadContext;
  readonly top: TopLevel;
  readonly stage: SqlStage | undefined;
  readonly sqlDiagnostics: readonly Diagnostic[];
  readonly allPartitions: Record<string, number>;
  readonly flinkVersion: FlinkVersion;
  readonly env: EventEnv;
  readonly block: EventsBlock | undefined;
}

/**
 * One load; with `block`, the YAML parser sees the text without its events block, whose lines
 * are read by fast-events.ts. NOT_FAST: the file needs the general path after all.
 */
function loadParsed(file: string, text: string, block: EventsBlock | undefined, loadOptions: LoadOptions): LoadResult | typeof NOT_FAST {
  const p = prepare(file, text, block, loadOptions);
  if (p === NOT_FAST || !('env' in p)) return p;
  const { ctx, top, env } = p;
  let events: ScenarioEvent[] | undefined;
  if (top.events && top.sql) {
    if (block === undefined) {
      events = readEvents(ctx, top.events, env);
    } else {
      const read = readFastEvents({ ...ctx, text, lineCounter: lazyLines(text) }, block, env);
      if (read === NOT_FAST) return NOT_FAST;
      events = read;
    }
  }
  const diagnostics = sortDiagnostics(dedupeDiagnostics(ctx.diagnostics));
  const scenario = diagnostics.length > 0 || events === undefined ? undefined : scenarioOf(p, events);
  if (scenario === undefined) {
    const { stage, sqlDiagnostics, allPartitions } = p;
    const onlySql = sqlDiagnostics.length > 0 && diagnostics.every((d) => sqlDiagnostics.some((s) => s.line === d.line && s.col === d.col && s.message === d.message));
    const checked = stage?.tables !== undefined && events !== undefined ? { tables: stage.tables, events } : undefined;
    return failed(ctx, diagnostics, top, onlySql ? rejectedSql(file, top, allPartitions, checked) : undefined);
  }
  return { ok: true, scenario };
}

/** The loaded scenario with `events`, when the parts it needs are all there. */
function scenarioOf(p: Prepared, events: readonly ScenarioEvent[]): Scenario | undefined {
  const { top, stage, allPartitions, flinkVersion } = p;
  if (stage?.queries === undefined || top.name === undefined || top.sql === undefined) return undefined;
  return {
    file: p.file,
    name: top.name,
    ...(top.description !== undefined ? { description: top.description } : {}),
    date: top.dateMs,
    flinkVersion,
    watermarks: top.watermarks,
    partitions: allPartitions,
    config: top.config,
    configText: top.configText,
    sql: top.sql.text,
    queries: stage.queries,
    ...(top.queries !== undefined ? { namedQueries: true } : {}),
    events,
    ...(top.expect !== undefined ? { expect: top.expect } : {}),
    ...(top.demo !== undefined ? { demo: top.demo } : {}),
  };
}

/**
 * Everything before the events: the YAML, the top level, the SQL and the checks on them. A
 * LoadResult when the file fails before its events can be read (empty, not a map).
 */
function prepare(file: string, text: string, block: EventsBlock | undefined, loadOptions: LoadOptions): Prepared | LoadResult | typeof NOT_FAST {
  const progress = loadOptions.progress;
  const parsed = parseYaml(file, block?.reduced ?? text);
  if (!parsed.ok) return block !== undefined ? NOT_FAST : { ok: false, diagnostics: [parsed.diagnostic] };
  let done = 0;
  // Replayed files add events the block does not count: no total (and no estimate) then.
  const total = block !== undefined && !text.includes('replay') ? block.offsets.length : undefined;
  const onEvent = progress === undefined ? undefined : () => progress(++done, total);
  const lines = block === undefined ? {} : { lineCounter: shiftedLines(text, block) };
  const head = loadOptions.dataHead === undefined ? {} : { dataHead: loadOptions.dataHead };
  const ctx = { ...parsed.ctx, ...lines, ...(onEvent !== undefined ? { onEvent } : {}), ...head };
  const root = ctx.doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) {
    report(ctx, { line: 1, col: 1 }, 'the scenario file is empty', 'a scenario needs at least `name:`, `sql:` and `events:`');
    return { ok: false, diagnostics: ctx.diagnostics };
  }
  if (!isMap(root)) {
    report(ctx, root, 'a scenario file must be a YAML map of keys (`name:`, `sql:`, `events:`, ...), not a list or a single value', 'see docs/scenario-format.md for an example');
    return { ok: false, diagnostics: ctx.diagnostics };
  }
  const read = readTopLevel(ctx, root);
  // The version asked for wins over the file's, for the rejected SQL handed to real Flink too.
  const top = loadOptions.flinkVersion === undefined ? read : { ...read, flinkVersion: loadOptions.flinkVersion };
  const partitions = Object.fromEntries(top.partitions.map((p) => [p.table, p.count]));
  const flinkVersion = loadOptions.flinkVersion ?? top.flinkVersion;
  const options = { config: top.config, flinkVersion, partitions };
  let stage: SqlStage | undefined;
  const beforeSql = ctx.diagnostics.length;
  if (top.sql !== undefined) {
    stage = top.queries !== undefined ? runQueriesStage(ctx, top.sql, top.queries, options) : runSqlStage(ctx, top.sql, options);
  }
  const sqlDiagnostics = ctx.diagnostics.slice(beforeSql);
  checkExpectForm(ctx, top);
  if (stage?.script !== undefined) checkPartitionTables(ctx, top, stage);
  const allPartitions = { ...Object.fromEntries((stage?.tables ?? []).map((t) => [t.name, 1])), ...partitions };
  // The cut must have been the top-level `events:` key (and not, say, text inside a quoted string).
  if (block !== undefined && top.events?.keyNode.range?.[0] !== block.keyOffset) return NOT_FAST;
  const env = eventEnv(top, stage, allPartitions);
  return { file, ctx, top, stage, sqlDiagnostics, allPartitions, flinkVersion, env, block };
}

function rejectedSql(file: string, top: TopLevel, partitions: Record<string, number>, checked: RejectedSql['checked']): RejectedSql | undefined {
  if (top.sql === undefined || top.name === undefined) return undefined;
  return {
    file,
    name: top.name,
    date: top.dateMs,
    flinkVersion: top.flinkVersion,
    watermarks: top.watermarks,
    partitions,
    configText: top.configText,
    sql: top.sql.text,
    ...(top.queries !== undefined ? { queries: top.queries.map((q) => ({ name: q.name, sql: q.text })) } : {}),
    ...(checked !== undefined ? { checked } : {}),
  };
}

function failed(ctx: LoadContext, diagnostics: readonly Diagnostic[], top: TopLevel, rejected?: RejectedSql): LoadResult {
  // Nothing reported but no plan either would be a loader bug; say so rather than fail silently.
  const list: readonly Diagnostic[] = diagnostics.length > 0 ? diagnostics : [{ file: ctx.file, line: 1, col: 1, message: 'the scenario could not be loaded (internal: no diagnostic was produced)' }];
  return {
    ok: false,
    diagnostics: list,
    ...(rejected !== undefined ? { rejectedSql: rejected } : {}),
    ...(top.expect !== undefined ? { expect: top.expect } : {}),
    ...(top.name !== undefined ? { name: top.name } : {}),
  };
}

function eventEnv(top: TopLevel, stage: SqlStage | undefined, partitions: Record<string, number>): EventEnv {
  const plans = (stage?.queries ?? []).map((q) => q.plan);
  const inputTables = stage?.queries ? new Set(plans.flatMap((p) => p.inputs.map((i) => i.table))) : undefined;
  // A table one query writes and another reads takes events as the reader's input.
  const sinkTables = new Set(plans.flatMap((p) => (p.sink !== undefined && !inputTables?.has(p.sink.table) ? [p.sink.table] : [])));
  return {
    ...(stage?.tables !== undefined ? { tables: stage.tables } : {}),
    ...(inputTables !== undefined ? { inputTables } : {}),
    sinkTables,
    queryCount: plans.length,
    viewNames: stage?.viewNames ?? [],
    viewSources: stage?.viewSources ?? {},
    partitions,
    valueCtx: { dateMs: top.dateMs, timeZone: top.config.localTimeZone },
    sql: top.sql?.text ?? '',
    dateMs: top.dateMs,
  };
}

/** `partitions:` keys must be declared tables (checked once the SQL is parsed). */
function checkPartitionTables(ctx: LoadContext, top: TopLevel, stage: SqlStage): void {
  for (const p of top.partitions) {
    if (stage.tableNames.includes(p.table)) continue;
    if (stage.viewNames.includes(p.table)) {
      report(ctx, p.keyNode, `partitions: \`${p.table}\` is a view; partitions belong to source tables`);
    } else {
      report(ctx, p.keyNode, `partitions: unknown table \`${p.table}\``, suggestionHint(p.table, stage.tableNames, 'tables are', 'the scenario declares no tables'));
    }
  }
}
