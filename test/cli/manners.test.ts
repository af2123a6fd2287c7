/**
 * The command line's manners, run through the built CLI as a user would: help on every command,
 * the version from package.json, a "did you mean" for unknown commands and options, exit codes
 * documented, colours by NO_COLOR / FORCE_COLOR, and shell completion. Driven by the command
 * table, so a new command is held to the same manners.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_WORDS, COMMANDS, EXIT_CODES, optionsOf } from '../../src/cli/command-registry.js';
import { ensureBuilt } from '../e2e/tmux-helpers.js';
import { cli, ROOT } from './helpers.js';

beforeAll(ensureBuilt, 180_000);

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const EUR = join(ROOT, 'scenarios', 'temporal-eur-rate.yaml');
const ESC = '\x1b[';

describe('help', () => {
  it.each(COMMANDS.filter((c) => c.bare !== true).map((c) => [c.name, c.name, c] as const))('`joinstep %s --help`, `-h` and `joinstep help %s` print its usage, every option and the exit codes', (name, _again, c) => {
    const long = cli([name, '--help']);
    expect(long.status).toBe(0);
    expect(long.stderr).toBe('');
    expect(long.stdout.split('\n')[0]).toBe(`joinstep ${name} — ${c.summary}`);
    expect(long.stdout).toContain(`joinstep ${name} ${c.usage[0]}`);
    for (const o of optionsOf(c)) expect(long.stdout).toContain(`--${o.name}`);
    for (const [code] of EXIT_CODES) expect(long.stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
    expect(cli([name, '-h']).stdout).toBe(long.stdout);
    expect(cli(['help', name]).stdout).toBe(long.stdout);
  });

  it('--help wins over a line that would not parse, and over missing operands', () => {
    for (const args of [['run', '--help'], ['run', '--nonsense', '--help'], ['record', 'x.yaml', '-h'], ['explain', 'a', 'b', '--help']]) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout.startsWith(`joinstep ${args[0]} — `)).toBe(true);
    }
  });

  it('`joinstep --help`, `-h` and `joinstep help` list every command, the app options, exit codes and colour variables', () => {
    const r = cli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`joinstep ${PACKAGE_VERSION} — a stepping debugger for Apache Flink SQL joins`);
    for (const word of COMMAND_WORDS) expect(r.stdout).toMatch(new RegExp(`^  ${word} `, 'm'));
    for (const flag of ['--watch', '--mono', '--help', '--version', 'NO_COLOR', 'FORCE_COLOR']) expect(r.stdout).toContain(flag);
    for (const [code, what] of EXIT_CODES) expect(r.stdout).toMatch(new RegExp(`^  ${code} +${what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect(cli(['-h']).stdout).toBe(r.stdout);
    expect(cli(['help']).stdout).toBe(r.stdout);
    expect(cli(['help', 'app']).stdout).toBe(r.stdout);
  });

  it('`joinstep help` of something that is not a command: exit 2 and a did you mean', () => {
    const r = cli(['help', 'explian']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("joinstep: no help for 'explian'");
    expect(r.stderr).toContain('hint: did you mean `explain`?');
  });

  it('the README documents the same exit codes', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [code] of EXIT_CODES) expect(readme).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });
});

describe('output that cannot be written', () => {
  // /dev/full refuses every write with ENOSPC, as a full disk does: Linux has it.
  const full = existsSync('/dev/full') ? it : it.skip;
  full.each([
    ['run', [EUR]],
    ['run --result', ['--result', EUR]],
    ['explain', [EUR]],
  ] as const)('`joinstep %s > /dev/full`: one line and a hint on stderr, exit 74, no stack trace', (name, args) => {
    const command = name.split(' ')[0]!;
    const out = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'joinstep.mjs'), command, ...args], {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
        stdio: ['ignore', out, 'pipe'],
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(74);
      expect(r.stderr).toBe('joinstep: cannot write the output: no space left on device (ENOSPC)\nhint: free some space, or send the output to another place\n');
    } finally {
      closeSync(out);
    }
  });
});

describe('a file named on the command line that cannot be written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-out-'));
  it.each([
    ['a folder that does not exist', join(dir, 'missing', 'demo.cast'), 2, 'no such file or directory (ENOENT)', 'the folder does not exist: create it first, or choose another path'],
    ['a folder, not a file', dir, 2, 'illegal operation on a directory (EISDIR)', 'name a file, not a folder'],
  ] as const)('`record --out` to %s: the path, why, a hint, exit 2', (_what, out, status, why, hint) => {
    const r = cli(['record', EUR, '--out', out]);
    expect(r.status).toBe(status);
    expect(r.stderr).toBe(`joinstep: cannot write ${out}: ${why}\nhint: ${hint}\n`);
    expect(r.stdout).toBe('');
  });
  (existsSync('/dev/full') ? it : it.skip)('`record --out /dev/full` (a full disk): exit 74', () => {
    const r = cli(['record', EUR, '--out', '/dev/full']);
    expect(r.status).toBe(74);
    expect(r.stderr).toBe('joinstep: cannot write /dev/full: no space left on device (ENOSPC)\nhint: free some space, or write to another place\n');
  });
});

describe('an option value that starts with a dash', () => {
  it('`diagram --step -1` says to write --step=-1, not that the argument is ambiguous', () => {
    const r = cli(['diagram', EUR, '--svg', join(tmpdir(), 'never-written.svg'), '--step', '-1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('joinstep: --step takes a value, and -1 looks like an option: write --step=-1\nhint: see `joinstep help diagram`\n');
  });
});

describe('a recording sent to standard output', () => {
  (existsSync('/dev/stdout') ? it : it.skip)('`record --out /dev/stdout | cat`: stdout is the cast alone, the summary goes to stderr', () => {
    // Through a shell pipe, as a user sends it on (a socket, as a spawned child's stdout is, cannot be opened by path).
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${join(ROOT, 'bin', 'joinstep.mjs')}" record "${EUR}" --out /dev/stdout | cat`], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // asciicast v2: a header object, then one JSON array per event; nothing else.
    expect(JSON.parse(lines[0]!)).toMatchObject({ version: 2 });
    for (const line of lines.slice(1)) expect(Array.isArray(JSON.parse(line))).toBe(true);
    expect(r.stderr).toMatch(/^joinstep: recorded \d+ frames, 6 step changes, [\d.]+ s → \/dev\/stdout\n$/);
  });
});

describe('version', () => {
  it('`--version` and `-V` print the version of package.json', () => {
    for (const flag of ['--version', '-V']) {
      const r = cli([flag]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`joinstep ${PACKAGE_VERSION}\n`);
    }
  });

  it('the bundle carries the version itself: it needs no package.json beside it', () => {
    const bundle = readFileSync(join(ROOT, 'dist', 'cli.mjs'), 'utf8');
    expect(bundle).toContain(JSON.stringify(PACKAGE_VERSION));
    expect(bundle).not.toMatch(/typeof JOINSTEP_VERSION/);
  });
});

describe('did you mean', () => {
  it.each([
    ['rnu', 'run'],
    ['tset', 'test'],
    ['explian', 'explain'],
    ['recrod', 'record'],
    ['hlep', 'help'],
    ['completon', 'completion'],
  ])('an unknown command `%s` suggests `%s`, exit 2, with or without a file after it', (typo, meant) => {
    for (const args of [[typo], [typo, EUR]]) {
      const r = cli(args);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`joinstep: unknown command '${typo}'\nhint: did you mean \`${meant}\`?\n`);
    }
  });

  it('an unknown word far from any command lists the commands', () => {
    const r = cli(['frobnicate']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("joinstep: unknown command 'frobnicate'");
    expect(r.stderr).toContain(`commands: ${COMMAND_WORDS.join(', ')}`);
  });

  it('a file that happens to be named like a command typo is opened, not refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-manners-'));
    writeFileSync(join(dir, 'rnu'), readFileSync(EUR));
    const r = cli(['rnu'], { cwd: dir });
    expect(r.stderr).not.toContain('unknown command');
    // No terminal here: the app says it needs one (it got as far as opening the file).
    expect(r.stderr).toContain('needs a terminal');
  });

  // Every command's every long option, misspelt by swapping two letters: the table's own options come back.
  const misspelt = COMMANDS.flatMap((c) =>
    optionsOf(c)
      .filter((o) => o.name.length >= 4)
      .map((o) => [c.name, `--${o.name[1]}${o.name[0]}${o.name.slice(2)}`, `--${o.name}`, c.bare === true] as const),
  );
  it.each(misspelt)('`joinstep %s %s` suggests `%s`', (name, typo, meant, bare) => {
    const r = cli(bare ? [typo] : [name, typo]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`Unknown option '${typo}'`);
    expect(r.stderr).toContain(`hint: did you mean \`${meant}\`?`);
  });

  it('an option of another command says whose it is', () => {
    const r = cli(['explain', EUR, '--result']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown option '--result' for `joinstep explain`: it belongs to `joinstep run`");
    const app = cli([EUR, '--out', 'x.cast']);
    expect(app.status).toBe(2);
    expect(app.stderr).toContain('it belongs to `joinstep record`');
  });

  it('a value outside an option\'s choices suggests the nearest', () => {
    const r = cli(['run', EUR, '--format', 'jsno']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("joinstep: unknown --format 'jsno'\nhint: did you mean `json`?\n");
  });
});

describe('colours: NO_COLOR and FORCE_COLOR, the same rule for every command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-colour-'));
  const failing = join(dir, 'failing.yaml');
  writeFileSync(failing, readFileSync(EUR, 'utf8').replace(/"\+I\[o1, [^\]]*\]"/, '"+I[o1, nothing like this]"'));
  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'name: x\nsql: |\n  SELECT 1\nevnets: []\n');
  const env = (vars: Record<string, string>) => ({ env: { NO_COLOR: '', ...vars } });

  it('the failing fixture does fail (else the colour checks below see no FAIL)', () => {
    expect(cli(['test', failing]).status).toBe(1);
  });

  it('into a pipe: no colour by default; FORCE_COLOR=1 colours PASS, FAIL, error: and hint:', () => {
    const plain = cli(['test', EUR, failing], env({}));
    expect(plain.stdout).not.toContain(ESC);
    const forced = cli(['test', EUR, failing], env({ FORCE_COLOR: '1' }));
    expect(forced.stdout).toContain(`${ESC}32mPASS${ESC}39m ${EUR}`);
    expect(forced.stdout).toContain(`${ESC}31mFAIL${ESC}39m ${failing}`);
    const err = cli(['run', broken], env({ FORCE_COLOR: '1' }));
    expect(err.status).toBe(2);
    expect(err.stderr).toMatch(/broken\.yaml:\d+:\d+: \x1b\[1m\x1b\[31merror:\x1b\[39m\x1b\[22m /);
    expect(err.stderr).toContain(`${ESC}36mhint:${ESC}39m`);
    const badLine = cli(['rnu'], env({ FORCE_COLOR: '1' }));
    expect(badLine.stderr).toContain(`${ESC}36mhint:${ESC}39m`);
  });

  it('NO_COLOR=1 and FORCE_COLOR=0 take the colour away; FORCE_COLOR=1 wins over NO_COLOR=1', () => {
    const cases: Record<string, string>[] = [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }, { FORCE_COLOR: '0', NO_COLOR: '1' }];
    for (const vars of cases) {
      const r = cli(['test', EUR, failing], env(vars));
      expect(r.stdout, JSON.stringify(vars)).not.toContain(ESC);
      expect(cli(['explain', broken], env(vars)).stderr).not.toContain(ESC);
    }
    expect(cli(['test', EUR], env({ FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).toContain(ESC);
  });

  it("FORCE_COLOR never colours `run`'s or `explain`'s output: it is Flink's bytes and a plan, for scripts", () => {
    for (const args of [['run', EUR], ['run', EUR, '--result'], ['run', EUR, '--format', 'json'], ['explain', EUR]]) {
      expect(cli(args, env({ FORCE_COLOR: '1' })).stdout).toBe(cli(args).stdout);
    }
  });
});

describe('shell completion', () => {
  it('`completion bash` completes commands, options, option values and scenario files', () => {
    const script = cli(['completion', 'bash']);
    expect(script.status).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-complete-'));
    const scriptFile = join(dir, 'joinstep.bash');
    writeFileSync(scriptFile, script.stdout);
    for (const f of ['orders.yaml', 'other.yml', 'notes.txt']) writeFileSync(join(dir, f), '');
    // Completes a line as bash would: COMP_WORDS and COMP_CWORD set, then the function's answer.
    const complete = (...words: string[]): string[] => {
      const r = spawnSync('bash', ['-c', `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _joinstep; printf '%s\\n' "\${COMPREPLY[@]}"`, 'complete', scriptFile, 'joinstep', ...words], { cwd: dir, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '').sort();
    };
    expect(complete('r')).toEqual(['record', 'run']);
    expect(complete('')).toEqual([...COMMAND_WORDS, 'orders.yaml', 'other.yml'].sort());
    expect(complete('run', '--f')).toEqual(['--format']);
    expect(complete('run', '--format', '')).toEqual(['json', 'text']);
    expect(complete('run', 'o')).toEqual(['orders.yaml', 'other.yml']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh']);
    expect(complete('help', 'ex')).toEqual(['explain']);
    expect(complete('--')).toEqual(['--help', '--mono', '--version', '--watch']);
    expect(complete('record', 'x.yaml', '--out', 'n')).toEqual(['notes.txt']);
    for (const c of COMMANDS.filter((x) => x.bare !== true)) {
      const expected = optionsOf(c).flatMap((o) => [`--${o.name}`, ...(o.short === undefined ? [] : [`-${o.short}`])]).sort();
      expect(complete(c.name, '-'), c.name).toEqual(expected);
    }
  });

  const hasZsh = spawnSync('zsh', ['--version']).status === 0;
  if (!hasZsh) console.warn('note: zsh is not installed; the zsh completion script was not syntax-checked');
  it.skipIf(!hasZsh)('`completion zsh` is valid zsh that names every command and option', () => {
    const script = cli(['completion', 'zsh']);
    expect(script.status).toBe(0);
    expect(script.stdout.split('\n')[0]).toBe('#compdef joinstep');
    const check = spawnSync('zsh', ['-n'], { input: script.stdout, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    for (const c of COMMANDS) {
      if (c.bare !== true) expect(script.stdout).toContain(`'${c.name}:`);
      for (const o of optionsOf(c)) expect(script.stdout).toContain(`--${o.name}`);
    }
  });

  it('an unknown shell is bad input', () => {
    const r = cli(['completion', 'fish']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bash or zsh');
  });
});

describe('what was typed is echoed without its control characters', () => {
  it.each([
    ['an unknown command', ['\x1b]0;pwned\x07']],
    ['an unknown option', ['run', 'x.yaml', '--\x1b[2Jformat']],
    ['an unknown --format value', ['run', 'x.yaml', '--format', 'js\x9bon']],
    ['help on an unknown topic', ['help', 'r\x01un\x7f']],
  ])('%s', (_what, args) => {
    const r = cli(args);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(r.stderr).toMatch(/\\u00(1b|9b|01)/);
  });
});
