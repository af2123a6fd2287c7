/**
 * `joinstep completion bash|zsh`: completion scripts written from the command table, so a new
 * command or option completes without touching this file. They complete command words, each
 * command's options (and the fixed values of `--format`), files for path options, and scenario
 * files (.yaml, .yml) and directories for operands.
 */
import { APP_COMMAND, type CliCommand, type CliOption, COMMANDS, optionsOf } from './command-registry.js';

const commandWords = (): CliCommand[] => COMMANDS.filter((c) => c.bare !== true);

/** Single-quoted for a shell: every `'` closed, escaped and reopened. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function optionWords(c: CliCommand): string {
  return optionsOf(c)
    .flatMap((o) => [`--${o.name}`, ...(o.short === undefined ? [] : [`-${o.short}`])])
    .join(' ');
}

/** What follows a string option: its fixed values, files, or nothing to offer. */
function bashValueCase(options: readonly CliOption[]): string[] {
  const lines: string[] = [];
  for (const o of options) {
    if (o.type !== 'string') continue;
    const names = [`--${o.name}`, ...(o.short === undefined ? [] : [`-${o.short}`])].join('|');
    if (o.choices !== undefined) lines.push(`      ${names}) COMPREPLY=($(compgen -W ${quoted(o.choices.join(' '))} -- "$cur")); return ;;`);
    else if (o.path === true) lines.push(`      ${names}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`);
    else lines.push(`      ${names}) return ;;`);
  }
  return lines;
}

function bashOperands(c: CliCommand): string {
  switch (c.operands.kind) {
    case 'scenarios':
      return '_joinstep_scenarios';
    case 'words':
      return `COMPREPLY=($(compgen -W ${quoted(c.operands.words.join(' '))} -- "$cur"))`;
    case 'commands':
      return `COMPREPLY=($(compgen -W ${quoted(commandWords().map((w) => w.name).join(' '))} -- "$cur"))`;
    case 'none':
      return ':';
  }
}

export function bashCompletion(): string {
  const all = COMMANDS;
  const words = commandWords().map((c) => c.name);
  const optionCases = all.map((c) => `    ${c.bare === true ? '""' : c.name}) opts=${quoted(optionWords(c))}; ;;`);
  const operandCases = all.map((c) => `    ${c.bare === true ? '""' : c.name}) ${bashOperands(c)} ;;`);
  const valueCases = all.map((c) => [`    ${c.bare === true ? '""' : c.name})`, '      case "$prev" in', ...bashValueCase(c.options), '      esac', '      ;;'].join('\n'));
  return `# joinstep completion for bash. Load it with:  eval "$(joinstep completion bash)"
# or save it as ~/.local/share/bash-completion/completions/joinstep

_joinstep_scenarios() {
  local IFS=$'\\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY+=($(compgen -d -- "$cur") $(compgen -f -X '!*.yaml' -- "$cur") $(compgen -f -X '!*.yml' -- "$cur"))
}

_joinstep() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" opts=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  # The command is the first word, when it is one; otherwise this is the app.
  if (( COMP_CWORD > 1 )); then
    case "\${COMP_WORDS[1]}" in
      ${words.join('|')}) cmd="\${COMP_WORDS[1]}" ;;
    esac
  fi
  case "$cmd" in
${valueCases.join('\n')}
  esac
  case "$cmd" in
${optionCases.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  if (( COMP_CWORD == 1 )); then
    COMPREPLY=($(compgen -W ${quoted(words.join(' '))} -- "$cur"))
  fi
  case "$cmd" in
${operandCases.join('\n')}
  esac
}

complete -F _joinstep joinstep
`;
}

/** One `_arguments` spec per option: `'--format[help]:format:(text json)'`, `'(-h --help)'{-h,--help}'[help]'`. */
function zshSpecs(c: CliCommand): string[] {
  return optionsOf(c).map((o) => {
    const help = `[${o.help.replaceAll('[', '(').replaceAll(']', ')')}]`;
    const value = o.type !== 'string' ? '' : `:${(o.value ?? 'value').toLowerCase()}:${o.choices !== undefined ? `(${o.choices.join(' ')})` : o.path === true ? '_files' : ' '}`;
    if (o.short === undefined) return quoted(`--${o.name}${help}${value}`);
    return `${quoted(`(-${o.short} --${o.name})`)}{-${o.short},--${o.name}}${quoted(`${help}${value}`)}`;
  });
}

function zshOperands(c: CliCommand): string {
  switch (c.operands.kind) {
    case 'scenarios':
      return quoted('*:scenario file:_files -g "*.(yaml|yml)"');
    case 'words':
      return quoted(`1:${c.name}:(${c.operands.words.join(' ')})`);
    case 'commands':
      return quoted(`1:command:(${commandWords().map((w) => w.name).join(' ')})`);
    case 'none':
      return '';
  }
}

export function zshCompletion(): string {
  const described = commandWords().map((c) => quoted(`${c.name}:${c.summary}`));
  const cases = commandWords().map((c) => `    ${c.name})\n      shift words; (( CURRENT-- ))\n      _arguments -s ${[...zshSpecs(c), zshOperands(c)].filter((s) => s !== '').join(' ')} ;;`);
  return `#compdef joinstep
# joinstep completion for zsh. Load it with:  source <(joinstep completion zsh)
# or save it as _joinstep in a folder of your $fpath

_joinstep() {
  local -a commands
  commands=(${described.join(' ')})
  if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
    _describe -t commands 'joinstep command' commands
    _files -g '*.(yaml|yml)'
    return
  fi
  case $words[2] in
${cases.join('\n')}
    *)
      _arguments -s ${[...zshSpecs(APP_COMMAND), zshOperands(APP_COMMAND)].join(' ')} ;;
  esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _joinstep "$@"
else
  compdef _joinstep joinstep
fi
`;
}
