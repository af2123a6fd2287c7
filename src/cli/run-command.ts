/**
 * `joinstep run FILE`: the emitted changelog in the print connector's format (spec §5), or the
 * final materialized result with --result, or one JSON object per line with --format json.
 * A file with `queries:` prints every query's block under `-- NAME` (JSON objects carry
 * `"query"` instead); `--query NAME` prints that one query exactly as a single-query file.
 *
 * Like `ls`, the rows keep Flink's exact bytes only when stdout is not a terminal (a pipe, a
 * file, a diff against Flink's output); on a terminal a control character in a value is shown
 * escaped (values/printable.ts), as the app shows it. JSON is always plain printable text.
 */
import { runScenario } from '../engine/run.js';
import type { RunOutput } from '../engine/run.js';
import { loadScenarioText, readScenarioFile } from '../scenario/load.js';
import { runStreamedThreaded } from './run-streamed.js';
import type { Scenario } from '../scenario/types.js';
import type { Command } from './args.js';
import { printable, printableJson } from '../values/printable.js';
import { reportDiagnostics, writeErr, writeOutExact } from './output.js';
import { headedBlocks, selectQueries } from './select-query.js';
import { runtimeFailure } from './runtime-error.js';
import { stderrProgress } from './progress.js';
import type { Progress } from './progress.js';

type RunCmd = Extract<Command, { name: 'run' }>;

/** `readThreadEntry`: the bundle's file, to read a big file's events in a second thread (read-thread.ts). */
export async function runCommand(cmd: RunCmd, readThreadEntry?: string): Promise<number> {
  const progress = stderrProgress();
  const read = await readScenarioFile(cmd.file);
  if (!read.ok) {
    reportDiagnostics(read.diagnostics);
    return 2;
  }
  const streamed = await runStreamedThreaded(cmd.file, read.text, (head) => pickQueries(head, cmd.query), progress === undefined ? {} : { progress: progress.stage('running', 'events') }, readThreadEntry);
  progress?.done();
  if (streamed !== undefined) {
    const chosen = selectQueries(streamed.head, cmd.query);
    if (!chosen.ok) throw new Error('[run] the streamed queries were not selectable');
    printBlocks(cmd, chosen, chosen.selected.map(({ index }) => streamed.outputs.get(index)!));
    return 0;
  }
  const loaded = loadScenarioText(cmd.file, read.text, progress === undefined ? {} : { progress: progress.stage('loading', 'events read') });
  progress?.done();
  if (!loaded.ok) {
    reportDiagnostics(loaded.diagnostics);
    return 2;
  }
  const scenario = loaded.scenario;
  const chosen = selectQueries(scenario, cmd.query);
  if (!chosen.ok) {
    writeErr(`joinstep: ${chosen.message}\nhint: ${chosen.hint}\n`);
    return 2;
  }
  const outputs: RunOutput[] = [];
  for (const { index } of chosen.selected) {
    const output = runOne(scenario, index, progress);
    progress?.done();
    if (output === undefined) return 2;
    outputs.push(output);
  }
  printBlocks(cmd, chosen, outputs);
  return 0;
}

/** The queries to stream into: those `--query` selects; none when it names no query (the full path says so). */
function pickQueries(head: Scenario, name: string | undefined): readonly number[] | undefined {
  const chosen = selectQueries(head, name);
  return chosen.ok ? chosen.selected.map((s) => s.index) : undefined;
}

function printBlocks(cmd: RunCmd, chosen: Extract<ReturnType<typeof selectQueries>, { ok: true }>, outputs: readonly RunOutput[]): void {
  const terminal = process.stdout.isTTY === true;
  const blocks = chosen.selected.map(({ query }, i) => {
    const lines = linesOf(cmd, outputs[i]!, chosen.headed ? query.name : undefined);
    // A query name is joinstep's header, not Flink's output: always escaped.
    return { name: printable(query.name), lines: terminal ? lines.map(printable) : lines };
  });
  // JSON lines name their query themselves: no headers between them.
  const headed = cmd.format === 'json' && !cmd.result ? false : chosen.headed;
  if (headed) writeOutExact(headedBlocks(blocks, true));
  else for (const b of blocks) writeLines(b.lines);
}

function runOne(scenario: Scenario, index: number, progress: Progress | undefined): RunOutput | undefined {
  try {
    const label = scenario.queries.length > 1 ? `running ${scenario.queries[index]!.name}` : 'running';
    return runScenario(scenario, index, progress?.stage(label, 'events'));
  } catch (error) {
    const diagnostic = runtimeFailure(scenario, error);
    if (diagnostic === undefined) throw error;
    reportDiagnostics([diagnostic]);
    return undefined;
  }
}

/**
 * The lines as headedBlocks prints them without headers, written a chunk at a time: a million
 * result rows joined into one string (beside the rows and a flattened copy of them) cost about
 * 150 MB of the peak. A chunk is at most CHUNK_CHARS characters (or one longer line), so that its
 * string is an ordinary young-generation object: a larger one is a large object of its own
 * mapping, and so is the UTF-8 copy the write makes of it, both fresh pages each time (891k rows
 * in 16,384-line chunks: 25,600 page faults and ~85 ms of CPU for the writes alone, against ~300
 * faults and ~40 ms; docs/decisions.md).
 */
function writeLines(lines: readonly string[]): void {
  // The lines are already what this stdout may show (escaped on a terminal, exact into a pipe).
  let from = 0;
  let chars = 0;
  for (let i = 0; i < lines.length; i++) {
    chars += lines[i]!.length + 1;
    if (chars < CHUNK_CHARS && i < lines.length - 1) continue;
    const chunk = lines.slice(from, i + 1);
    // The last line's break from an empty line after it: one flat string, not a second one.
    chunk.push('');
    writeOutExact(chunk.join('\n'));
    from = i + 1;
    chars = 0;
  }
}

/** A chunk's characters: 64 KB even as a two-byte string, under V8's 128 KB for an ordinary object. */
const CHUNK_CHARS = 1 << 15;

function linesOf(cmd: RunCmd, output: RunOutput, query: string | undefined): readonly string[] {
  if (cmd.result) return output.result;
  if (cmd.format !== 'json') return output.lines;
  return output.json.map((o) => printableJson(query === undefined ? o : { query, ...o }));
}
