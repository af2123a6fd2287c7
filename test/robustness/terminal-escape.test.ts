/**
 * Nothing from a scenario reaches a terminal raw, from any command (issue: terminal injection).
 * Every C0 control, DEL, every C1 control, NUL and the common escape sequences (CSI colour, OSC
 * title, cursor moves, screen clear, the one-byte C1 CSI) are fed through each command and each
 * message path of the built binary: values, names, notes, column names, query names, expected
 * lines, expected error texts, SQL tokens, file paths, key scripts. On stdout and stderr only a
 * line break may remain; `joinstep run` keeps Flink's exact bytes when stdout is not a terminal
 * (a pipe), and escapes them when it is (a fake TTY: `process.stdout.isTTY` set before start).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type CliResult } from '../cli/helpers.js';
import { ensureBuilt } from '../e2e/tmux-helpers.js';
import { printable, printableJson } from '../../src/values/printable.js';

const DIR = mkdtempSync(join(tmpdir(), 'joinstep-escape-'));

const C0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('');
const C1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)).join('');
/** Every C0 and C1 control, DEL (NUL among them), and the sequences a terminal acts on. */
const HOSTILE = `${C0}\x7f${C1}` + '\x1b[31mred\x1b[0m' + '\x1b]0;pwned\x07' + '\x1b[2J\x1b[H' + '\x1b[10A\x1b[5C' + '\x9b31m' + '\u202e\u2028';
/** What must never be on a terminal: C0 but the line break, DEL, C1, bidi overrides, line separators. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/;

/** `s` as a YAML double-quoted scalar, every invisible character written as a YAML escape. */
function yq(s: string): string {
  let out = '"';
  for (const c of s) {
    const n = c.codePointAt(0)!;
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (n < 0x20 || (n >= 0x7f && n <= 0x9f)) out += `\\x${n.toString(16).padStart(2, '0')}`;
    else if (n > 0x7e && /[\p{Cf}\p{Zl}]/u.test(c)) out += `\\u${n.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

function scenario(name: string, content: string): string {
  const path = join(DIR, name);
  writeFileSync(path, content);
  return path;
}

const TTY_PRELOAD = join(DIR, 'fake-tty.mjs');

/** The built CLI; with `tty`, stdout says it is a terminal (as `ls` asks, by isTTY). */
function cli(args: readonly string[], tty = false): CliResult {
  const preload = tty ? ['--import', pathToFileURL(TTY_PRELOAD).href] : [];
  const r = spawnSync(process.execPath, [...preload, `${ROOT}/bin/joinstep.mjs`, ...args], {
    cwd: DIR,
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectNoRaw(r: CliResult): void {
  expect(r.stdout, JSON.stringify(r.stdout)).not.toMatch(RAW);
  expect(r.stderr, JSON.stringify(r.stderr)).not.toMatch(RAW);
}

/** The hostile text as every message shows it: the terminal's bytes spelled out, nothing raw. */
const SHOWN = printable(HOSTILE);

const COL = `v${HOSTILE}`;
const DDL = [`CREATE TABLE l (k STRING, \`${COL}\` STRING) WITH ('connector' = 'datagen');`, "CREATE TABLE r (k STRING, w STRING) WITH ('connector' = 'datagen');"].join('\n');
const SQL = `${DDL}\nSELECT l.k, l.\`${COL}\`, r.w FROM l JOIN r ON l.k = r.k;`;
const EVENTS = `events:
  - { to: l, row: { k: a, ${yq(COL)}: ${yq(`val${HOSTILE}`)} }, note: ${yq(`note${HOSTILE}`)} }
  - { to: r, row: { k: a, w: ${yq(`line1\nline2\r\t${HOSTILE}`)} } }
`;
/** Values, a column name, the scenario name, a note, and an expected line that differs. */
const MAIN = () =>
  scenario('hostile.yaml', `name: ${yq(`N${HOSTILE}`)}\nsql: ${yq(SQL)}\n${EVENTS}expect:\n  changelog: [ ${yq(`+I[a, ${HOSTILE}, z]`)} ]\n`);

beforeAll(() => {
  writeFileSync(TTY_PRELOAD, "Object.defineProperty(process.stdout, 'isTTY', { value: true });\n");
  return ensureBuilt();
}, 180_000);

describe('the hostile text itself', () => {
  it('holds every C0 and C1 control, DEL and NUL', () => {
    for (let n = 0; n < 0x20; n++) expect(HOSTILE).toContain(String.fromCharCode(n));
    for (let n = 0x7f; n <= 0x9f; n++) expect(HOSTILE).toContain(String.fromCharCode(n));
  });

  it('is shown with every control spelled out, nothing raw, the visible text kept', () => {
    expect(SHOWN).not.toMatch(RAW);
    expect(SHOWN).toContain('\\u0000\\u0001');
    expect(SHOWN).toContain('\\b\\t\\n\\u000b\\f\\r');
    expect(SHOWN).toContain('\\u001b[31mred\\u001b[0m\\u001b]0;pwned\\u0007');
    expect(SHOWN).toContain('\\u007f\\u0080');
    expect(SHOWN).toContain('\\u009b31m\\u202e\\u2028');
  });

  it('JSON keeps the same value, every control written as \\uXXXX', () => {
    const json = printableJson({ [HOSTILE]: HOSTILE, 'a\\nb': 'c\\\\n' });
    expect(json).not.toMatch(RAW);
    expect(JSON.parse(json)).toEqual({ [HOSTILE]: HOSTILE, 'a\\nb': 'c\\\\n' });
    // No control by name (JSON's \n, \t): only \uXXXX; an escaped backslash before an n stays one.
    expect(json).not.toMatch(/(^|[^\\])(\\\\)*\\[bfnrt]/);
    expect(json).toContain('a\\\\nb');
    for (const n of [0x00, 0x0a, 0x1b, 0x7f, 0x85, 0x9b, 0x9f]) expect(json).toContain(`\\u${n.toString(16).padStart(4, '0')}`);
  });
});

describe('joinstep run', () => {
  it('to a pipe: Flink\'s exact bytes, as the print connector writes them', () => {
    const r = cli(['run', MAIN()]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`+I[a, val${HOSTILE}, line1\nline2\r\t${HOSTILE}]\n`);
  });

  it('to a terminal: every control escaped, one row per line', () => {
    const r = cli(['run', MAIN()], true);
    expect(r.status, r.stderr).toBe(0);
    expectNoRaw(r);
    expect(r.stdout).toBe(`+I[a, val${SHOWN}, line1\\nline2\\r\\t${SHOWN}]\n`);
  });

  it('--result to a terminal', () => {
    const r = cli(['run', '--result', MAIN()], true);
    expect(r.status, r.stderr).toBe(0);
    expectNoRaw(r);
    expect(r.stdout).toBe(`[a, val${SHOWN}, line1\\nline2\\r\\t${SHOWN}]\n`);
  });

  it('--format json, to a pipe and to a terminal: the same plain JSON, the exact values inside', () => {
    for (const tty of [false, true]) {
      const r = cli(['run', '--format', 'json', MAIN()], tty);
      expect(r.status, r.stderr).toBe(0);
      expectNoRaw(r);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      const o = JSON.parse(lines[0]!) as { row: Record<string, string> };
      expect(o.row[COL]).toBe(`val${HOSTILE}`);
      expect(o.row['w']).toBe(`line1\nline2\r\t${HOSTILE}`);
      expect(lines[0]).toContain('\\u0085\\u0086');
    }
  });

  it('a query name: headers escaped, the --query error too', () => {
    const path = scenario(
      'queries.yaml',
      `name: x\nsql: ${yq(DDL)}\nqueries:\n  first: "SELECT l.k, r.w FROM l JOIN r ON l.k = r.k"\n  plain: "SELECT l.k FROM l JOIN r ON l.k = r.k"\n${EVENTS}`,
    );
    const r = cli(['run', path], true);
    expect(r.status, r.stderr).toBe(0);
    expectNoRaw(r);
    expect(r.stdout.split('\n')[0]).toBe('-- first');
    // An argument cannot hold NUL; everything else can.
    const arg = HOSTILE.replace('\0', '');
    const bad = cli(['run', '--query', `nope${arg}`, path]);
    expect(bad.status).toBe(2);
    expectNoRaw(bad);
    expect(bad.stderr).toContain(`no query named 'nope${printable(arg)}'`);
    expect(bad.stderr).toContain('the queries are: first, plain');
    // A query name must be a word: a hostile one is a load error, shown escaped.
    const named = scenario('queries-bad.yaml', `name: x\nsql: ${yq(DDL)}\nqueries:\n  ${yq(`q${HOSTILE}`)}: "SELECT l.k FROM l JOIN r ON l.k = r.k"\n${EVENTS}`);
    const e = cli(['run', named], true);
    expect(e.status).toBe(2);
    expectNoRaw(e);
    expect(e.stderr).toContain(`query name \`q${SHOWN}\` must be a word`);
  });
});

describe('joinstep test', () => {
  it("a failed changelog: the expected line and the actual row, escaped, one per line", () => {
    const r = cli(['test', MAIN()]);
    expect(r.status).toBe(1);
    expectNoRaw(r);
    expect(r.stdout).toContain(`- +I[a, ${SHOWN}, z]`);
    expect(r.stdout).toContain(`+ +I[a, val${SHOWN}, line1\\nline2\\r\\t${SHOWN}]`);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');
  });

  it('an expected error text, when planning succeeds and when the file does not load', () => {
    const planned = scenario('expect-error.yaml', `name: x\nsql: ${yq(SQL)}\n${EVENTS}expect:\n  error: ${yq(`boom${HOSTILE}`)}\n`);
    const r1 = cli(['test', planned]);
    expect(r1.status).toBe(1);
    expectNoRaw(r1);
    expect(r1.stdout).toContain(`expected planning to fail with: boom${SHOWN}`);
    const broken = scenario('expect-error-broken.yaml', `name: x\nsql: "SELECT FROM"\nexpect:\n  error: ${yq(`boom${HOSTILE}`)}\n`);
    const r2 = cli(['test', broken]);
    expect(r2.status).toBe(1);
    expectNoRaw(r2);
    expect(r2.stdout).toContain(`expected an error containing: boom${SHOWN}`);
  });

  it('per-query expectations: a hostile expected line, and an expectation for a hostile query name', () => {
    const path = scenario(
      'queries-expect.yaml',
      `name: x\nsql: ${yq(DDL)}\nqueries:\n  first: "SELECT l.k, r.w FROM l JOIN r ON l.k = r.k"\n${EVENTS}expect:\n  queries:\n    first: { changelog: [ ${yq(`+I[${HOSTILE}]`)} ] }\n`,
    );
    const r = cli(['test', path]);
    expect(r.status).toBe(1);
    expectNoRaw(r);
    expect(r.stdout).toContain('query first:');
    expect(r.stdout).toContain(`- +I[${SHOWN}]`);
    const unknown = scenario(
      'queries-expect-unknown.yaml',
      `name: x\nsql: ${yq(DDL)}\nqueries:\n  first: "SELECT l.k, r.w FROM l JOIN r ON l.k = r.k"\n${EVENTS}expect:\n  queries:\n    ${yq(`q${HOSTILE}`)}: { changelog: [] }\n`,
    );
    const u = cli(['test', unknown]);
    expect(u.status).toBe(1);
    expectNoRaw(u);
    expect(u.stdout).toContain(`no query named \`q${SHOWN}\``);
  });

  it('a missing path and a file whose name holds controls', () => {
    const missing = cli(['test', join(DIR, `missing${HOSTILE.replace(/[\0/]/g, '')}.yaml`)]);
    expectNoRaw(missing);
    expect(missing.stderr).toContain('no such file or directory');
    const odd = scenario(`odd\x1b[31m\x07\x9b.yaml`, 'name: x\nsql: "SELECT FROM"\nexpect: { changelog: [] }\n');
    const r = cli(['test', odd]);
    expectNoRaw(r);
    expect(r.stdout).toContain('FAIL ');
    expect(r.stdout).toContain('odd\\u001b[31m\\u0007\\u009b.yaml');
  });
});

describe('joinstep explain', () => {
  it('the scenario name and the backtick-quoted column names', () => {
    const r = cli(['explain', MAIN()]);
    expect(r.status, r.stderr).toBe(0);
    expectNoRaw(r);
    expect(r.stdout.split('\n')[0]).toBe(`N${SHOWN}`);
    expect(r.stdout).toContain(`v${SHOWN}`);
  });
});

describe('errors, diagnostics and hints', () => {
  const cases: [string, () => string, string][] = [
    ['an unknown top-level key (and its did-you-mean)', () => scenario('key.yaml', `name: x\n${yq(`evnets${HOSTILE}`)}: []\nsql: "SELECT 1"\n`), `evnets${SHOWN}`],
    ['a bad value for an INT column', () => scenario('value.yaml', `name: x\nsql: "CREATE TABLE t (a INT) WITH ('connector' = 'datagen');\\nSELECT a FROM t;"\nevents:\n  - { to: t, row: { a: ${yq(`1${HOSTILE}`)} } }\n`), `1${SHOWN}`],
    ['an unknown column in an event', () => scenario('column.yaml', `name: x\nsql: "CREATE TABLE t (a INT) WITH ('connector' = 'datagen');\\nSELECT a FROM t;"\nevents:\n  - { to: t, row: { ${yq(`b${HOSTILE}`)}: 1 } }\n`), `b${SHOWN}`],
    ['an unknown table in an event', () => scenario('table.yaml', `name: x\nsql: "CREATE TABLE t (a INT) WITH ('connector' = 'datagen');\\nSELECT a FROM t;"\nevents:\n  - { to: ${yq(`t${HOSTILE}`)}, row: { a: 1 } }\n`), `t${SHOWN}`],
    ['an SQL token with controls in it', () => scenario('sql.yaml', `name: x\nsql: ${yq(`SELECT a FROM t WHERE ${HOSTILE.slice(1, 8)}`)}\n`), "the character '\\u0001'"],
    ['a quoted identifier the planner does not know', () => scenario('ident.yaml', `name: x\nsql: ${yq(`CREATE TABLE t (a INT) WITH ('connector' = 'datagen');\nSELECT \`x${HOSTILE}\` FROM t JOIN t AS u ON t.a = u.a;`)}\n`), `x${SHOWN}`],
    ['a bad time', () => scenario('time.yaml', `name: x\nsql: "CREATE TABLE t (a INT) WITH ('connector' = 'datagen');\\nSELECT a FROM t;"\nevents:\n  - { at: ${yq(`09:${HOSTILE}`)}, to: t, row: { a: 1 } }\n`), `09:${SHOWN}`],
    ['a bad config value', () => scenario('config.yaml', `name: x\nconfig: { table.exec.state.ttl: ${yq(`1${HOSTILE}`)} }\nsql: "SELECT 1"\n`), `1${SHOWN}`],
  ];
  for (const [what, make, shown] of cases) {
    it(`${what}: run, test, explain`, () => {
      const path = make();
      for (const cmd of ['run', 'explain', 'test']) {
        const r = cli([cmd, path], cmd === 'run');
        expect(r.status, `${cmd}: ${r.stderr}${r.stdout}`).not.toBe(0);
        expectNoRaw(r);
        expect(r.stderr + r.stdout, cmd).toContain(shown);
      }
    });
  }

  it('a file path with controls in the diagnostic head', () => {
    const path = scenario('bad\x1b]0;t\x07\x85.yaml', 'name: x\n');
    const r = cli(['run', path]);
    expect(r.status).toBe(2);
    expectNoRaw(r);
    expect(r.stderr).toContain('bad\\u001b]0;t\\u0007\\u0085.yaml:');
  });
});

describe('the app (joinstep FILE) before it starts', () => {
  it('a missing path and a file that does not load: stderr escaped', () => {
    const missing = cli([join(DIR, `nope\x1b]0;t\x07\x1b[2J.yaml`)], true);
    expect(missing.status).toBe(2);
    expectNoRaw(missing);
    expect(missing.stderr).toContain('nope\\u001b]0;t\\u0007\\u001b[2J.yaml');
    const bad = scenario('app-bad.yaml', `name: x\n${yq(`evnets${HOSTILE}`)}: []\nsql: "SELECT 1"\n`);
    const r = cli([bad], true);
    expect(r.status).toBe(2);
    expectNoRaw(r);
    expect(r.stderr).toContain(`evnets${SHOWN}`);
  });
});

describe('joinstep record', () => {
  it('marker labels, the title and the summary line are escaped', () => {
    const out = join(DIR, 'out\x1b[31m.cast');
    const r = cli(['record', MAIN(), '--out', out, '--keys', 'n n']);
    expect(r.status, r.stderr).toBe(0);
    expectNoRaw(r);
    expect(r.stdout).toContain('out\\u001b[31m.cast');
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
    const header = lines[0] as { title: string };
    expect(header.title).toBe(`N${SHOWN}`);
    const markers = (lines.slice(1) as [number, string, string][]).filter((e) => e[1] === 'm').map((e) => e[2]);
    expect(markers).toEqual([`step 1/2: note${SHOWN}`, expect.stringMatching(/^step 2\/2: /)]);
    for (const m of markers) expect(m).not.toMatch(RAW);
    // The frames: the app's own sequences only (SGR, cursor, erase), never the scenario's.
    for (const e of lines.slice(1) as [number, string, string][]) {
      if (e[1] !== 'o') continue;
      const rest = e[2].replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n/g, '');
      expect(rest).not.toMatch(RAW);
    }
  });

  it('a bad key script with controls in it', () => {
    const r = cli(['record', MAIN(), '--out', join(DIR, 'x.cast'), '--keys', `n "\x1b]0;t\x07`]);
    expect(r.status).toBe(2);
    expectNoRaw(r);
  });
});
