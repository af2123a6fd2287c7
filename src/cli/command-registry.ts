/**
 * Every joinstep command in one table: its usage lines, its options, what its operands are and how
 * its arguments become a Command. `--help`, `joinstep help COMMAND`, the "did you mean" for
 * unknown commands and options, and the shell completion scripts are all drawn from this table,
 * so a new command is one entry here (and one case in main.tsx that runs it).
 */
import type { Command, FlinkOptions, ParsedCli } from './args.js';
import type { FlinkVersion } from '../planner/plan.js';
import { recordFromValues } from './record-args.js';
import { diagramFromValues, diffFromValues, FLINK_VERSIONS, practiceFromValues, TEACH_EXAMPLES } from './teach-args.js';
import { EXIT_OUTPUT_FAILED } from './output.js';

export interface CliOption {
  /** The long name, without `--`. */
  readonly name: string;
  readonly short?: string;
  readonly type: 'boolean' | 'string';
  /** The value's placeholder in help (`FILE`, `NAME`); string options only. */
  readonly value?: string;
  /** The values a string option accepts, when they are a fixed few (help, completion, did you mean). */
  readonly choices?: readonly string[];
  /** A string option whose value is a path: completion offers files. */
  readonly path?: boolean;
  readonly help: string;
}

/** What a command's positional arguments are: scenario files (and directories), or fixed words. */
export type Operands = { readonly kind: 'scenarios' } | { readonly kind: 'words'; readonly words: readonly string[] } | { readonly kind: 'commands' } | { readonly kind: 'none' };

export type OptionValues = Readonly<Record<string, string | boolean | undefined>>;

export interface CliCommand {
  /** The word after `joinstep`; the app is named `app` and runs with no command word. */
  readonly name: string;
  /** Runs without a command word (`joinstep FILE`): the app. */
  readonly bare?: boolean;
  /** Usage lines, each after `joinstep ` (or `joinstep NAME `). */
  readonly usage: readonly string[];
  /** One line for the command list. */
  readonly summary: string;
  /** More lines for `joinstep help NAME`. */
  readonly details?: readonly string[];
  readonly examples?: readonly string[];
  readonly operands: Operands;
  readonly options: readonly CliOption[];
  readonly parse: (values: OptionValues, positionals: readonly string[]) => ParsedCli;
}

/** Accepted by every command: help, and the version. */
export const HELP_OPTION: CliOption = { name: 'help', short: 'h', type: 'boolean', help: 'show this help and exit' };
export const VERSION_OPTION: CliOption = { name: 'version', short: 'V', type: 'boolean', help: "print joinstep's version and exit" };

const QUERY: CliOption = { name: 'query', type: 'string', value: 'NAME', help: 'with named queries (queries:), only this one, printed as a single-query file would be' };
const MONO: CliOption = { name: 'mono', type: 'boolean', help: 'draw without colours (as NO_COLOR=1 does)' };
// Real Flink (docs/flink-harness.md): the `flink` command, and --flink of `test` and `explain`.
const FLINK: CliOption = { name: 'flink', type: 'boolean', help: 'also on real Apache Flink (needs Java 17+ and Maven; docs/flink-harness.md)' };
const FLINK_VERSION: CliOption = { name: 'flink-version', type: 'string', value: 'V', choices: ['2.0', '2.1', '2.2', '2.3'], help: "run real Flink V (and plan joinstep as V) instead of the file's flink-version" };
/** The released versions real Flink can run (2.4 has no release). */
const RELEASED_VERSIONS: readonly FlinkVersion[] = ['2.0', '2.1', '2.2', '2.3'];

export const EXIT_CODES: readonly (readonly [number, string])[] = [
  [0, 'success'],
  [1, 'a check failed: `joinstep test` found a scenario whose expect: did not hold, or `joinstep flink` found joinstep and Flink differ'],
  [2, 'bad input: a scenario that does not load or plan (FILE:LINE:COL: error: ...), a missing file, a bad command line; or real Flink cannot run here'],
  [3, '`joinstep flink`: the scenario cannot be expressed on real Flink (the reason is printed)'],
  [EXIT_OUTPUT_FAILED, 'the output could not be written (a full disk, a device error): said in one line with a hint'],
];

/** `--flink-version`, and --flink-version without --flink on `test` / `explain`. */
function flinkOptions(values: OptionValues): { ok: true; flink?: FlinkOptions } | { ok: false; failed: ParsedCli } {
  const version = str(values['flink-version']);
  if (values['flink'] !== true) {
    if (version !== undefined) return { ok: false, failed: fail('--flink-version goes with --flink', 'joinstep test --flink --flink-version 2.3') };
    return { ok: true };
  }
  const flinkVersion = RELEASED_VERSIONS.find((v) => v === version);
  return { ok: true, flink: flinkVersion !== undefined ? { flinkVersion } : {} };
}

const fail = (message: string, hint?: string): ParsedCli => (hint === undefined ? { ok: false, message } : { ok: false, message, hint });
const ok = (command: Command): ParsedCli => ({ ok: true, command });
const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

export const COMMANDS: readonly CliCommand[] = [
  {
    name: 'app',
    bare: true,
    usage: ['[FILE|DIR ...] [--watch] [--mono]'],
    summary: 'open the full-screen app on a scenario (a picker for a directory; default: scenarios/)',
    details: ['Needs a terminal of at least 80x24. Press ? in the app for its keys, q to quit.'],
    examples: ['joinstep scenarios/temporal-eur-rate.yaml', 'joinstep scenarios/'],
    operands: { kind: 'scenarios' },
    options: [
      { name: 'watch', type: 'boolean', help: 'reload the scenario when its file is saved, keeping the step' },
      MONO,
    ],
    parse: (values, positionals) => ok({ name: 'app', paths: positionals, watch: values['watch'] === true, mono: values['mono'] === true }),
  },
  {
    name: 'run',
    usage: ['FILE [--format json] [--result] [--query NAME]'],
    summary: "print the emitted changelog, as Flink's print connector prints it",
    details: ['A file with named queries prints every query, each under `-- NAME`.'],
    examples: ['joinstep run scenarios/temporal-eur-rate.yaml', 'joinstep run scenarios/temporal-eur-rate.yaml --result'],
    operands: { kind: 'scenarios' },
    options: [
      { name: 'format', type: 'string', value: 'FORMAT', choices: ['text', 'json'], help: 'the output: text (the default), or json: one JSON object per changelog row' },
      { name: 'result', type: 'boolean', help: 'print the final materialized table instead of the changelog' },
      QUERY,
    ],
    parse: (values, positionals) => {
      if (positionals.length !== 1) return fail('`run` takes exactly one scenario file', 'joinstep run scenarios/temporal-eur-rate.yaml');
      const format = values['format'] ?? 'text';
      if (format !== 'text' && format !== 'json') return fail(`unknown --format '${String(format)}'`, 'use --format json, or leave it out for text');
      const query = str(values['query']);
      return ok({ name: 'run', file: positionals[0]!, format, result: values['result'] === true, ...(query ? { query } : {}) });
    },
  },
  {
    name: 'test',
    usage: ['[FILE|DIR ...] [--flink [--flink-version V]]'],
    summary: "check every scenario's expect: block; ends with `N passed, N failed`",
    details: [
      'With no FILE or DIR, checks scenarios/ (or the current folder). Exit 1 when any check failed.',
      'With --flink, every expect: block is also checked against real Flink; a failure says which side failed.',
    ],
    examples: ['joinstep test', 'joinstep test scenarios/ my-case.yaml', 'joinstep test --flink scenarios/'],
    operands: { kind: 'scenarios' },
    options: [FLINK, FLINK_VERSION],
    parse: (values, positionals) => {
      const flink = flinkOptions(values);
      if (!flink.ok) return flink.failed;
      return ok({ name: 'test', paths: positionals, ...(flink.flink !== undefined ? { flink: flink.flink } : {}) });
    },
  },
  {
    name: 'explain',
    usage: ['FILE [--query NAME] [--flink [--flink-version V]]'],
    summary: 'print the plan Flink would choose, and why: operators, keys, time attributes, state',
    details: ["With --flink, real Flink's own plan (its explainSql text with changelog modes) follows joinstep's."],
    examples: ['joinstep explain scenarios/temporal-eur-rate.yaml', 'joinstep explain scenarios/temporal-eur-rate.yaml --flink'],
    operands: { kind: 'scenarios' },
    options: [QUERY, FLINK, FLINK_VERSION],
    parse: (values, positionals) => {
      if (positionals.length !== 1) return fail('`explain` takes exactly one scenario file', 'joinstep explain scenarios/temporal-eur-rate.yaml');
      const flink = flinkOptions(values);
      if (!flink.ok) return flink.failed;
      const query = str(values['query']);
      return ok({ name: 'explain', file: positionals[0]!, ...(query ? { query } : {}), ...(flink.flink !== undefined ? { flink: flink.flink } : {}) });
    },
  },
  {
    name: 'flink',
    usage: ['FILE [--flink-version V] [--query NAME]', 'FILE --job DIR'],
    summary: 'run the scenario on real Apache Flink too and print both changelogs step by step',
    details: [
      'The first difference is marked >>; the final result and the emitted watermarks are compared too.',
      'Exit 0 when joinstep and Flink agree, 1 when they differ, 2 for a bad file or when real Flink',
      'cannot run here (Java 17+ and Maven are needed; the first run builds the harness), 3 when the',
      'scenario cannot be expressed on real Flink. --job DIR writes a Flink SQL script and data files',
      "that reproduce the scenario's result on a cluster through Flink's SQL client.",
      'See docs/flink-harness.md.',
    ],
    examples: ['joinstep flink scenarios/temporal-eur-rate.yaml', 'joinstep flink scenarios/temporal-eur-rate.yaml --job out/eur-job'],
    operands: { kind: 'scenarios' },
    options: [FLINK_VERSION, QUERY, { name: 'job', type: 'string', value: 'DIR', path: true, help: 'write a Flink SQL job (script, data files, expected result) into DIR instead' }],
    parse: (values, positionals) => {
      if (positionals.length !== 1) return fail('`flink` takes exactly one scenario file', 'joinstep flink scenarios/temporal-eur-rate.yaml');
      const query = str(values['query']);
      const job = str(values['job']);
      if (job === '') return fail('--job needs a directory', 'joinstep flink FILE --job out/job');
      const flinkVersion = RELEASED_VERSIONS.find((v) => v === str(values['flink-version']));
      return ok({ name: 'flink', file: positionals[0]!, ...(query ? { query } : {}), ...(flinkVersion ? { flinkVersion } : {}), ...(job !== undefined ? { job } : {}) });
    },
  },
  {
    name: 'record',
    usage: ['FILE --out FILE.cast [--keys "n n p"] [--size 100x30] [--pace 700ms] [--frames FILE] [--svg FILE] [--mono]'],
    summary: 'record the app, driven by a key script, as an asciicast (docs/recording.md)',
    examples: ['joinstep record scenarios/temporal-eur-rate.yaml --out demo.cast --svg demo.svg'],
    operands: { kind: 'scenarios' },
    options: [
      { name: 'out', short: 'o', type: 'string', value: 'FILE', path: true, help: 'the .cast file to write (required)' },
      { name: 'keys', type: 'string', value: 'KEYS', help: 'the keys to press, space-separated (default: step to the end)' },
      { name: 'size', type: 'string', value: 'COLSxROWS', help: 'the terminal size, from 40x10 to 1000x1000 (default 100x30)' },
      { name: 'pace', type: 'string', value: 'DURATION', help: 'time per key (default 700ms)' },
      { name: 'frames', type: 'string', value: 'FILE', path: true, help: 'also write every frame as text' },
      { name: 'svg', type: 'string', value: 'FILE', path: true, help: 'also write the last frame as an SVG picture' },
      MONO,
    ],
    parse: recordFromValues,
  },
  {
    name: 'practice',
    usage: ['FILE [--score-out FILE] [--mono]'],
    summary: "predict each step's rows before they show, then see Flink's answer and why; a score at the end",
    details: ['Asks before every step that emits or retracts rows, and before events marked ask: (docs/teaching.md).'],
    examples: [TEACH_EXAMPLES.practice],
    operands: { kind: 'scenarios' },
    options: [{ name: 'score-out', type: 'string', value: 'FILE', path: true, help: 'also write the score as JSON to this file' }, MONO],
    parse: practiceFromValues,
  },
  {
    name: 'diff',
    usage: ['FILE --flink-version A [B] [--query NAME]'],
    summary: 'the same events under two Flink releases, aligned by step, naming the rule that changed',
    details: ["With one version, compares it with the file's own flink-version."],
    examples: [TEACH_EXAMPLES.diff],
    operands: { kind: 'scenarios' },
    options: [{ name: 'flink-version', type: 'string', value: 'VERSION', choices: FLINK_VERSIONS, help: 'the release(s) to compare: --flink-version 2.1 2.2' }, QUERY],
    parse: diffFromValues,
  },
  {
    name: 'diagram',
    usage: ['FILE --svg OUT [--step N] [--mono] [--query NAME]'],
    summary: 'draw the run as an SVG: event time across, arrival down, the join watermark, late and emitted rows',
    examples: [TEACH_EXAMPLES.diagram],
    operands: { kind: 'scenarios' },
    options: [
      { name: 'svg', type: 'string', value: 'FILE', path: true, help: 'the SVG file to write (required)' },
      { name: 'step', type: 'string', value: 'N', help: 'the step to show as current (default: the last)' },
      MONO,
      QUERY,
    ],
    parse: diagramFromValues,
  },
  {
    name: 'help',
    usage: ['[COMMAND]'],
    summary: 'show the help of joinstep, or of one command',
    examples: ['joinstep help run'],
    operands: { kind: 'commands' },
    options: [],
    parse: (_values, positionals) => {
      if (positionals.length > 1) return fail('`help` takes at most one command', 'joinstep help run');
      const topic = positionals[0];
      return ok(topic === undefined ? { name: 'help' } : { name: 'help', topic });
    },
  },
  {
    name: 'completion',
    usage: ['bash|zsh'],
    summary: 'print a shell completion script (commands, options, .yaml files)',
    details: [
      'bash: eval "$(joinstep completion bash)"  (or save it as ~/.local/share/bash-completion/completions/joinstep)',
      'zsh:  source <(joinstep completion zsh)   (or save it as _joinstep in a folder of your $fpath)',
    ],
    operands: { kind: 'words', words: ['bash', 'zsh'] },
    options: [],
    parse: (_values, positionals) => {
      const shell = positionals[0];
      if (positionals.length !== 1 || (shell !== 'bash' && shell !== 'zsh')) return fail('`completion` takes one shell: bash or zsh', 'joinstep completion bash');
      return ok({ name: 'completion', shell });
    },
  },
];

/** The command invoked by this word, if it is one (the app has no word). */
export function commandNamed(word: string): CliCommand | undefined {
  return COMMANDS.find((c) => c.name === word && c.bare !== true);
}

/** The entry for `joinstep help TOPIC`: a command word, or `app`. */
export function helpTopic(word: string): CliCommand | undefined {
  return COMMANDS.find((c) => c.name === word);
}

export const APP_COMMAND: CliCommand = COMMANDS.find((c) => c.bare === true)!;

/** The words that name a command. */
export const COMMAND_WORDS: readonly string[] = COMMANDS.filter((c) => c.bare !== true).map((c) => c.name);

/** A command's options as `joinstep --help` lists them: its own, then help (and the version, for the app). */
export function optionsOf(command: CliCommand): readonly CliOption[] {
  return command.bare === true ? [...command.options, HELP_OPTION, VERSION_OPTION] : [...command.options, HELP_OPTION];
}
