/**
 * Command-line parsing on Node's own `util.parseArgs` (no dependency needed for this small
 * surface), driven by the command table (command-registry.ts): the table says which options each
 * command takes; this file finds the command, answers `--help` and `--version`, and turns
 * unknown commands and options into a "did you mean".
 */
import { existsSync } from 'node:fs';
import { suggestionHint } from '../scenario/did-you-mean.js';
import { APP_COMMAND, type CliCommand, commandNamed, COMMAND_WORDS, COMMANDS, optionsOf } from './command-registry.js';
import { parseOptions, type OptionSpec } from './parse-options.js';
import type { RecordCommand } from './record-args.js';
import type { TeachCommand } from './teach-args.js';
import type { FlinkVersion } from '../planner/plan.js';

export type Command =
  | { readonly name: 'help'; readonly topic?: string }
  | { readonly name: 'version' }
  | { readonly name: 'run'; readonly file: string; readonly format: 'text' | 'json'; readonly result: boolean; readonly query?: string }
  | { readonly name: 'test'; readonly paths: readonly string[]; readonly flink?: FlinkOptions }
  | { readonly name: 'explain'; readonly file: string; readonly query?: string; readonly flink?: FlinkOptions }
  | { readonly name: 'flink'; readonly file: string; readonly query?: string; readonly flinkVersion?: FlinkVersion; readonly job?: string }
  | { readonly name: 'app'; readonly paths: readonly string[]; readonly watch: boolean; readonly mono: boolean }
  | { readonly name: 'completion'; readonly shell: 'bash' | 'zsh' }
  | RecordCommand
  | TeachCommand;

/** `--flink` of `test` and `explain`: also on real Flink, at --flink-version or each file's own version. */
export interface FlinkOptions {
  readonly flinkVersion?: FlinkVersion;
}

export type ParsedCli =
  | { readonly ok: true; readonly command: Command }
  | { readonly ok: false; readonly message: string; readonly hint?: string };

/** The arguments before `--` (after it, everything is an operand). */
function flags(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

export function parseCli(argv: readonly string[]): ParsedCli {
  const first = argv[0];
  const named = first === undefined ? undefined : commandNamed(first);
  const command = named ?? APP_COMMAND;
  const rest = named === undefined ? argv : argv.slice(1);
  // --help wins over everything else on the line, even a line that would not parse.
  if (flags(rest).some((a) => a === '--help' || a === '-h')) return { ok: true, command: { name: 'help', topic: command.name } };
  if (named === undefined && first !== undefined && !first.startsWith('-')) {
    const unknown = unknownCommand(first);
    if (unknown !== undefined) return unknown;
  }
  const spec: OptionSpec = {};
  for (const o of optionsOf(command)) spec[o.name] = o.short === undefined ? { type: o.type } : { type: o.type, short: o.short };
  const parsed = parseOptions(rest, spec);
  if (!parsed.ok) return badOption(parsed.message, command);
  const { values, positionals } = parsed;
  if (values['version'] === true) return { ok: true, command: { name: 'version' } };
  const badChoice = checkChoices(values, command);
  if (badChoice !== undefined) return badChoice;
  return command.parse(values, positionals);
}

/**
 * A first word that is neither a command nor a file: a mistyped command (`joinstep rnu`), not a
 * scenario to open. A word that exists on disk, or looks like a path, is the app's to open.
 */
function unknownCommand(word: string): ParsedCli | undefined {
  if (existsSync(word)) return undefined;
  const hint = suggestionHint(word, COMMAND_WORDS, 'commands', 'joinstep has no commands');
  if (hint.startsWith('did you mean')) return { ok: false, message: `unknown command '${word}'`, hint };
  if (/[./\\]/.test(word)) return undefined;
  return { ok: false, message: `unknown command '${word}'`, hint: `${hint}; or give a scenario FILE or DIR to open the app (see \`joinstep --help\`)` };
}

/** Node's messages, with a "did you mean" for an unknown option, or the command it belongs to. */
function badOption(message: string, command: CliCommand): ParsedCli {
  const where = command.bare === true ? '`joinstep`' : `\`joinstep ${command.name}\``;
  const unknown = /^Unknown option '(-{1,2}[^']*)'/.exec(message)?.[1];
  if (unknown === undefined) return { ok: false, message, hint: command.bare === true ? 'see `joinstep --help`' : `see \`joinstep help ${command.name}\`` };
  const own = optionsOf(command).map((o) => `--${o.name}`);
  const owners = COMMANDS.filter((c) => c !== command && c.options.some((o) => `--${o.name}` === unknown || (o.short !== undefined && `-${o.short}` === unknown)));
  if (owners.length > 0 && !own.includes(unknown)) {
    const names = owners.map((c) => (c.bare === true ? '`joinstep FILE`' : `\`joinstep ${c.name}\``)).join(' and ');
    return { ok: false, message: `Unknown option '${unknown}' for ${where}: it belongs to ${names}`, hint: `see \`joinstep help ${owners[0]!.name}\`` };
  }
  const hint = unknown.startsWith('--') ? suggestionHint(unknown, own, `options of ${where}`, `${where} takes no options`) : `options of ${where}: ${own.join(', ')}`;
  return { ok: false, message: `Unknown option '${unknown}' for ${where}`, hint };
}

/** An option with a fixed set of values given another (`--format jsn`). */
function checkChoices(values: Readonly<Record<string, string | boolean | undefined>>, command: CliCommand): ParsedCli | undefined {
  for (const o of command.options) {
    const v = values[o.name];
    if (o.choices === undefined || typeof v !== 'string' || o.choices.includes(v)) continue;
    return { ok: false, message: `unknown --${o.name} '${v}'`, hint: suggestionHint(v, o.choices, `--${o.name} takes`, `--${o.name} takes no value`) };
  }
  return undefined;
}
