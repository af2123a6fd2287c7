/**
 * Command-line parsing on Node's own `util.parseArgs` (no dependency needed for this small surface).
 */
import { parseOptions } from './parse-options.js';
import { parseRecordArgs, type RecordCommand } from './record-args.js';
import type { FlinkVersion } from '../planner/plan.js';

export type Command =
  | { readonly name: 'help' }
  | { readonly name: 'version' }
  | { readonly name: 'run'; readonly file: string; readonly format: 'text' | 'json'; readonly result: boolean; readonly query?: string }
  | { readonly name: 'test'; readonly paths: readonly string[]; readonly flink?: FlinkOptions }
  | { readonly name: 'explain'; readonly file: string; readonly query?: string; readonly flink?: FlinkOptions }
  | { readonly name: 'flink'; readonly file: string; readonly query?: string; readonly flinkVersion?: FlinkVersion; readonly job?: string }
  | { readonly name: 'app'; readonly paths: readonly string[]; readonly watch: boolean; readonly mono: boolean }
  | RecordCommand;

/** `--flink` of `test` and `explain`: also on real Flink, at --flink-version or each file's own version. */
export interface FlinkOptions {
  readonly flinkVersion?: FlinkVersion;
}

export type ParsedCli =
  | { readonly ok: true; readonly command: Command }
  | { readonly ok: false; readonly message: string; readonly hint?: string };

export const USAGE = `joinstep — a stepping debugger for Apache Flink SQL joins

Usage:
  joinstep [FILE|DIR] [--watch] [--mono]
                                      open the full-screen app (a picker for a directory);
                                      --mono: no colours (also NO_COLOR=1)
  joinstep run FILE [--format json] [--result] [--query NAME]
                                      print the emitted changelog (or the final result)
  joinstep test [FILE|DIR ...] [--flink [--flink-version V]]
                                      check every scenario's expect: block
                                      (--flink: against real Flink too)
  joinstep explain FILE [--query NAME] [--flink [--flink-version V]]
                                      print the plan Flink would choose, and why
                                      (--flink: and real Flink's own plan beside it)
  joinstep flink FILE [--flink-version V] [--query NAME]
                                      run the scenario on real Apache Flink too and print
                                      both changelogs step by step (exit 0 agree, 1 differ);
                                      needs Java 17+ and Maven (docs/flink-harness.md)
  joinstep flink FILE --job DIR       write a Flink SQL script and data files that
                                      reproduce the result on a Flink cluster
  joinstep record FILE --out demo.cast [--keys "n n p"] [--size 100x30] [--pace 700ms]
                 [--frames FILE] [--svg FILE] [--mono]
                                      record the app as an asciicast (docs/recording.md)
  joinstep --help | --version

A file with named queries (queries:) runs, tests and explains every query, each under
\`-- NAME\`; --query NAME picks one and prints it as a single-query file would.

Scenario format: docs/scenario-format.md. Errors are FILE:LINE:COL: error: MESSAGE (exit 2).
`;

const SUBCOMMANDS = ['run', 'test', 'explain', 'flink'] as const;
const FLINK_VERSIONS: readonly FlinkVersion[] = ['2.0', '2.1', '2.2', '2.3', '2.4'];

function fail(message: string, hint?: string): ParsedCli {
  return hint === undefined ? { ok: false, message } : { ok: false, message, hint };
}

export function parseCli(argv: readonly string[]): ParsedCli {
  // `record` has options of its own; parsed apart so the other commands keep theirs exactly.
  if (argv[0] === 'record') return parseRecordArgs(argv.slice(1));
  const parsed = parseOptions(argv, {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
    format: { type: 'string' },
    result: { type: 'boolean' },
    query: { type: 'string' },
    watch: { type: 'boolean' },
    mono: { type: 'boolean' },
    flink: { type: 'boolean' },
    'flink-version': { type: 'string' },
    job: { type: 'string' },
  });
  if (!parsed.ok) return fail(parsed.message);
  const { values, positionals } = parsed;
  if (values.help === true) return { ok: true, command: { name: 'help' } };
  if (values.version === true) return { ok: true, command: { name: 'version' } };
  const [first, ...rest] = positionals;
  const query = typeof values.query === 'string' ? values.query : undefined;
  // Real Flink (docs/flink-harness.md): `flink`, and --flink of `test` and `explain`.
  const flink = parseFlinkFlags(first, rest, values, query);
  if (flink !== undefined) return flink;
  if (first === 'run') {
    if (rest.length !== 1) return fail('`run` takes exactly one scenario file', 'joinstep run scenarios/temporal-eur-rate.yaml');
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') return fail(`unknown --format '${String(format)}'`, 'use --format json, or leave it out for text');
    return { ok: true, command: { name: 'run', file: rest[0]!, format, result: values.result === true, ...(query ? { query } : {}) } };
  }
  if (first === 'explain') {
    if (rest.length !== 1) return fail('`explain` takes exactly one scenario file', 'joinstep explain scenarios/temporal-eur-rate.yaml');
    return { ok: true, command: { name: 'explain', file: rest[0]!, ...(query ? { query } : {}), ...flinkOptionsOf(values) } };
  }
  if (first === 'test') return { ok: true, command: { name: 'test', paths: rest, ...flinkOptionsOf(values) } };
  if (values.format !== undefined || values.result !== undefined) {
    return fail('--format and --result belong to `joinstep run`', 'joinstep run FILE --format json');
  }
  if (positionals.length > 1 && !SUBCOMMANDS.includes(first as never)) {
    return fail(`unknown command '${first}'`, 'commands: run, test, explain, flink; or give one FILE or DIR to open the app');
  }
  return { ok: true, command: { name: 'app', paths: positionals, watch: values.watch === true, mono: values.mono === true } };
}

/**
 * The options that run real Flink: `joinstep flink FILE [--flink-version V] [--job DIR]` and
 * `--flink [--flink-version V]` on `test` and `explain`. Undefined = nothing of these here.
 */
function parseFlinkFlags(first: string | undefined, rest: readonly string[], values: Record<string, string | boolean | undefined>, query: string | undefined): ParsedCli | undefined {
  const version = values['flink-version'];
  let flinkVersion: FlinkVersion | undefined;
  if (typeof version === 'string') {
    const minor = /^(\d+\.\d+)(?:\.\d+)?$/.exec(version.trim())?.[1];
    flinkVersion = FLINK_VERSIONS.find((v) => v === minor);
    if (flinkVersion === undefined) return fail(`unknown --flink-version '${version}'`, `use one of ${FLINK_VERSIONS.join(', ')}`);
  }
  if (first === 'flink') {
    if (rest.length !== 1) return fail('`flink` takes exactly one scenario file', 'joinstep flink scenarios/temporal-eur-rate.yaml');
    if (values.flink !== undefined) return fail('--flink belongs to `test` and `explain`; `joinstep flink` always runs real Flink', 'joinstep flink FILE');
    const job = values.job;
    if (job === '') return fail('--job needs a directory', 'joinstep flink FILE --job out/job');
    return { ok: true, command: { name: 'flink', file: rest[0]!, ...(query ? { query } : {}), ...(flinkVersion ? { flinkVersion } : {}), ...(typeof job === 'string' ? { job } : {}) } };
  }
  if (values.job !== undefined) return fail('--job belongs to `joinstep flink`', 'joinstep flink FILE --job DIR');
  if (values.flink !== undefined && first !== 'test' && first !== 'explain') return fail('--flink belongs to `test` and `explain`', 'joinstep test --flink scenarios');
  if (version !== undefined && values.flink !== true) return fail('--flink-version goes with `joinstep flink` or with --flink', 'joinstep test --flink --flink-version 2.3');
  return undefined;
}

function flinkOptionsOf(values: Record<string, string | boolean | undefined>): { flink?: FlinkOptions } {
  if (values.flink !== true) return {};
  const version = values['flink-version'];
  const minor = typeof version === 'string' ? /^(\d+\.\d+)/.exec(version.trim())?.[1] : undefined;
  const flinkVersion = FLINK_VERSIONS.find((v) => v === minor);
  return { flink: flinkVersion !== undefined ? { flinkVersion } : {} };
}
