/** `joinstep --help` and `joinstep help COMMAND`, written from the command table. */
import { APP_COMMAND, type CliCommand, type CliOption, COMMANDS, EXIT_CODES, optionsOf } from './command-registry.js';

const INDENT = '  ';
const COLUMN = 26;

/** `left` and `right` in two columns; a long `left` puts `right` on the next line. */
function row(left: string, right: string): string {
  const l = `${INDENT}${left}`;
  return l.length < COLUMN ? `${l.padEnd(COLUMN)}${right}` : `${l}\n${' '.repeat(COLUMN)}${right}`;
}

function optionLeft(o: CliOption): string {
  const long = `--${o.name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
  return o.short === undefined ? `    ${long}` : `-${o.short}, ${long}`;
}

function usageLines(c: CliCommand): string[] {
  const prefix = c.bare === true ? 'joinstep' : `joinstep ${c.name}`;
  return c.usage.map((u) => `${INDENT}${prefix} ${u}`);
}

const CODE_WIDTH = Math.max(...EXIT_CODES.map(([code]) => String(code).length));
const EXIT_SECTION = ['Exit status:', ...EXIT_CODES.map(([code, what]) => `${INDENT}${String(code).padEnd(CODE_WIDTH)}  ${what}`)];

const ENV_SECTION = [
  'Environment:',
  row('NO_COLOR=1', 'no colours, in every command and the app (https://no-color.org)'),
  row('FORCE_COLOR=1', 'colours even when the output is not a terminal; FORCE_COLOR=0: never'),
];

/** The whole CLI: the app, every command, the exit codes and the colour variables. */
export function mainHelp(version: string): string {
  const commands = COMMANDS.filter((c) => c.bare !== true);
  return [
    `joinstep ${version} — a stepping debugger for Apache Flink SQL joins`,
    '',
    'Usage:',
    ...usageLines(APP_COMMAND),
    ...commands.map((c) => `${INDENT}joinstep ${c.name} ${c.usage[0] ?? ''}`.trimEnd()),
    '',
    'Commands:',
    row('(none) FILE|DIR', APP_COMMAND.summary),
    ...commands.map((c) => row(c.name, c.summary)),
    '',
    'Options:',
    ...optionsOf(APP_COMMAND).map((o) => row(optionLeft(o), o.help)),
    '',
    ...EXIT_SECTION,
    '',
    ...ENV_SECTION,
    '',
    '`joinstep help COMMAND` (or `joinstep COMMAND --help`) shows a command\'s options.',
    'Scenario format: docs/scenario-format.md. Errors read FILE:LINE:COL: error: MESSAGE, with a hint.',
    '',
  ].join('\n');
}

/** One command: usage, what it does, its options, examples and the exit codes. */
export function commandHelp(c: CliCommand): string {
  const examples = c.examples ?? [];
  return [
    `joinstep ${c.bare === true ? '' : `${c.name} `}— ${c.summary}`,
    '',
    'Usage:',
    ...usageLines(c),
    ...(c.details === undefined ? [] : ['', ...c.details]),
    '',
    'Options:',
    ...optionsOf(c).map((o) => row(optionLeft(o), o.choices === undefined ? o.help : `${o.help} (${o.choices.join(', ')})`)),
    ...(examples.length === 0 ? [] : ['', 'Examples:', ...examples.map((e) => `${INDENT}${e}`)]),
    '',
    ...EXIT_SECTION,
    '',
  ].join('\n');
}
