/**
 * Command-line parsing on Node's own `util.parseArgs` (no dependency needed for this small surface).
 */
import { parseOptions } from './parse-options.js';
import { parseRecordArgs, type RecordCommand } from './record-args.js';
import { isTeachCommand, parseTeachArgs, type TeachCommand } from './teach-args.js';

export type Command =
  | { readonly name: 'help' }
  | { readonly name: 'version' }
  | { readonly name: 'run'; readonly file: string; readonly format: 'text' | 'json'; readonly result: boolean; readonly query?: string }
  | { readonly name: 'test'; readonly paths: readonly string[] }
  | { readonly name: 'explain'; readonly file: string; readonly query?: string }
  | { readonly name: 'app'; readonly paths: readonly string[]; readonly watch: boolean; readonly mono: boolean }
  | RecordCommand
  | TeachCommand;

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
  joinstep test [FILE|DIR ...]        check every scenario's expect: block
  joinstep explain FILE [--query NAME]
                                      print the plan Flink would choose, and why
  joinstep record FILE --out demo.cast [--keys "n n p"] [--size 100x30] [--pace 700ms]
                 [--frames FILE] [--svg FILE] [--mono]
                                      record the app as an asciicast (docs/recording.md)
  joinstep practice FILE [--score-out FILE] [--mono]
                                      predict each step's output before it is shown, then a score
  joinstep diff FILE --flink-version A [B] [--query NAME]
                                      the same events under two Flink releases, step by step
  joinstep diagram FILE --svg OUT [--step N] [--mono] [--query NAME]
                                      the run as an event-time / arrival diagram (docs/teaching.md)
  joinstep --help | --version

A file with named queries (queries:) runs, tests and explains every query, each under
\`-- NAME\`; --query NAME picks one and prints it as a single-query file would.

Scenario format: docs/scenario-format.md. Errors are FILE:LINE:COL: error: MESSAGE (exit 2).
`;

const SUBCOMMANDS = ['run', 'test', 'explain'] as const;

function fail(message: string, hint?: string): ParsedCli {
  return hint === undefined ? { ok: false, message } : { ok: false, message, hint };
}

export function parseCli(argv: readonly string[]): ParsedCli {
  // `record` has options of its own; parsed apart so the other commands keep theirs exactly.
  if (argv[0] === 'record') return parseRecordArgs(argv.slice(1));
  // So have the teaching commands (practice, diff, diagram).
  if (isTeachCommand(argv[0])) return parseTeachArgs(argv);
  const parsed = parseOptions(argv, {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
    format: { type: 'string' },
    result: { type: 'boolean' },
    query: { type: 'string' },
    watch: { type: 'boolean' },
    mono: { type: 'boolean' },
  });
  if (!parsed.ok) return fail(parsed.message);
  const { values, positionals } = parsed;
  if (values.help === true) return { ok: true, command: { name: 'help' } };
  if (values.version === true) return { ok: true, command: { name: 'version' } };
  const [first, ...rest] = positionals;
  const query = typeof values.query === 'string' ? values.query : undefined;
  if (first === 'run') {
    if (rest.length !== 1) return fail('`run` takes exactly one scenario file', 'joinstep run scenarios/temporal-eur-rate.yaml');
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') return fail(`unknown --format '${String(format)}'`, 'use --format json, or leave it out for text');
    return { ok: true, command: { name: 'run', file: rest[0]!, format, result: values.result === true, ...(query ? { query } : {}) } };
  }
  if (first === 'explain') {
    if (rest.length !== 1) return fail('`explain` takes exactly one scenario file', 'joinstep explain scenarios/temporal-eur-rate.yaml');
    return { ok: true, command: { name: 'explain', file: rest[0]!, ...(query ? { query } : {}) } };
  }
  if (first === 'test') return { ok: true, command: { name: 'test', paths: rest } };
  if (values.format !== undefined || values.result !== undefined) {
    return fail('--format and --result belong to `joinstep run`', 'joinstep run FILE --format json');
  }
  if (positionals.length > 1 && !SUBCOMMANDS.includes(first as never)) {
    return fail(`unknown command '${first}'`, 'commands: run, test, explain, record, practice, diff, diagram; or give one FILE or DIR to open the app');
  }
  return { ok: true, command: { name: 'app', paths: positionals, watch: values.watch === true, mono: values.mono === true } };
}
