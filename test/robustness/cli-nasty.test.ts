/**
 * Nasty files through the built binary, as a user meets them (spec §8): exit 2, a clean
 * `FILE:LINE:COL: error:` diagnostic with the right position, never a stack trace; and
 * `joinstep run` whose reader goes away early exits quietly.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, SPEC_EXAMPLES, type CliResult } from '../cli/helpers.js';
import { ensureBuilt } from '../e2e/tmux-helpers.js';

const DIR = mkdtempSync(join(tmpdir(), 'joinstep-nasty-'));
const EXAMPLE = readFileSync(join(SPEC_EXAMPLES, 'eur-order-0930.yaml'), 'utf8');
const STACK = /\n\s+at |\b(?:TypeError|RangeError|ReferenceError|SyntaxError)\b|node:internal|\.m?js:\d+/;

function file(name: string, content: string | Buffer): string {
  const path = join(DIR, name);
  writeFileSync(path, content);
  return path;
}

/** The one-diagnostic shape: `PATH:LINE:COL: error: MESSAGE`, optionally `hint: ...`, nothing else. */
function expectCleanDiagnostic(r: CliResult, path: string): { line: number; col: number; message: string } {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr).not.toMatch(/undefined|\[object Object\]|NaN/);
  const lines = r.stderr.trimEnd().split('\n');
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const head = new RegExp(`^${escaped}:(\\d+):(\\d+): error: (\\S.*)$`).exec(lines[0] ?? '');
  expect(head, r.stderr).not.toBeNull();
  // every further line is another diagnostic or a hint
  for (const l of lines.slice(1)) expect(l, r.stderr).toMatch(new RegExp(`^(hint: \\S|${escaped}:\\d+:\\d+: error: \\S)`));
  return { line: Number(head![1]), col: Number(head![2]), message: head![3]! };
}

/** 1-based line and column of the first occurrence of `needle` in a LF-split text (a BOM is not a column). */
function positionOf(text: string, needle: string): { line: number; col: number } {
  const lines = text.replace(/^\ufeff/, '').split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  return { line: line + 1, col: lines[line]!.indexOf(needle) + 1 };
}

beforeAll(ensureBuilt, 180_000);

describe('nasty files given to joinstep run', () => {
  it('binary garbage', () => {
    // a fixed pseudo-random byte soup (a tiny LCG), so every run sees the same file
    let x = 12345;
    const bytes = Buffer.from(Array.from({ length: 4096 }, () => ((x = (x * 1103515245 + 12345) >>> 0) >>> 16) & 0xff));
    const path = file('garbage.yaml', bytes);
    expectCleanDiagnostic(cli(['run', path]), path);
  });

  it('an empty file', () => {
    const path = file('empty.yaml', '');
    const d = expectCleanDiagnostic(cli(['run', path]), path);
    expect(d).toMatchObject({ line: 1, col: 1 });
    expect(d.message).toContain('empty');
  });

  it('a directory given as FILE', () => {
    const path = join(DIR, 'a-dir.yaml');
    mkdirSync(path, { recursive: true });
    const d = expectCleanDiagnostic(cli(['run', path]), path);
    expect(d).toMatchObject({ line: 1, col: 1 });
    expect(d.message).toContain('directory');
  });

  it('a YAML list instead of a map', () => {
    const path = file('list.yaml', '- name: x\n- sql: y\n');
    const d = expectCleanDiagnostic(cli(['run', path]), path);
    expect(d).toMatchObject({ line: 1, col: 1 });
    expect(d.message).toContain('map');
  });

  it('a 1 MB file, with its mistake at the end', () => {
    const filler = Array.from({ length: 16_000 }, (_, i) => `  line ${i} ${'x'.repeat(50)}`).join('\n');
    const text = EXAMPLE.replace('date: 2026-10-01', `date: 2026-10-01\ndescription: |\n${filler}`).replace('amount: 100', 'amount: abc');
    expect(text.length).toBeGreaterThan(1_000_000);
    const path = file('big.yaml', text);
    const d = expectCleanDiagnostic(cli(['run', path]), path);
    expect(d).toMatchObject(positionOf(text, 'abc'));
  });

  it('CRLF line endings and a BOM: positions as for the LF file (a SQL error and a value error)', () => {
    const sqlError = EXAMPLE.replace('o.amount * r.usd_rate', 'o.amount * r.nosuch');
    const valueError = EXAMPLE.replace('amount: 100', 'amount: abc');
    for (const [name, text, needle] of [['sql', sqlError, 'nosuch'], ['value', valueError, 'abc']] as const) {
      const lf = file(`${name}-lf.yaml`, text);
      const crlf = file(`${name}-crlf-bom.yaml`, `\ufeff${text.replace(/\n/g, '\r\n')}`);
      const a = expectCleanDiagnostic(cli(['run', lf]), lf);
      const b = expectCleanDiagnostic(cli(['run', crlf]), crlf);
      expect(a).toMatchObject(positionOf(text, needle));
      expect(b).toEqual(a);
    }
  });

  // The loader strips the BOM before parsing; it used to count it as a column (1:2).
  it('a BOM does not shift the columns of line 1', () => {
    const path = file('bom-line1.yaml', `\ufeffnmae: x\r\nsql: |\r\n  SELECT 1\r\nevents: []\r\n`);
    const d = expectCleanDiagnostic(cli(['run', path]), path);
    expect(d).toMatchObject({ line: 1, col: 1 });
  });

  it('a file whose name is not UTF-8: listed by `test DIR`, and the hint says why it cannot be opened', () => {
    const dir = join(DIR, 'latin1-names');
    mkdirSync(dir, { recursive: true });
    // `café.yaml` in Latin-1: Node reads the name with U+FFFD in place of the lone 0xE9 byte.
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9]), Buffer.from('.yaml')]), EXAMPLE);
    const r = cli(['test', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).not.toMatch(STACK);
    expect(r.stdout).toContain('caf\ufffd.yaml:1:1: error: no such file');
    expect(r.stdout).toContain('hint: a name that is not UTF-8 (shown with \ufffd) cannot be opened by joinstep: rename the file');
  });

  it('a folder that cannot be listed (a path past PATH_MAX) is said and counted, and the other scenarios are still tested', () => {
    const dir = join(DIR, 'deep-tree');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ok.yaml'), EXAMPLE);
    // mkdir -p creates it level by level, relative to the last one; the whole path is over 4096 bytes.
    const long = Array.from({ length: 25 }, () => 'd'.repeat(200)).join('/');
    expect(spawnSync('mkdir', ['-p', long], { cwd: dir }).status).toBe(0);
    const r = cli(['test', dir]);
    expect(r.stdout + r.stderr).not.toMatch(STACK);
    expect(r.stderr).toMatch(/^joinstep: cannot list the folder .*d{200} \(ENAMETOOLONG\): its scenarios are not tested$/m);
    expect(r.stdout).toContain('PASS');
    expect(r.stdout.trimEnd().split('\n').pop()).toBe('1 passed, 1 failed');
    expect(r.status).toBe(1);
  });

  it('explain and test report the same nasty files the same way', () => {
    const path = file('list2.yaml', '[1, 2, 3]\n');
    expectCleanDiagnostic(cli(['explain', path]), path);
    const t = cli(['test', path]);
    expect(t.stderr + t.stdout).not.toMatch(STACK);
    expect(t.status).not.toBe(0);
  });
});

describe('the app without a terminal', () => {
  it.each([
    ['a nasty file', () => file('list3.yaml', '- a\n')],
    ['a good file', () => join(SPEC_EXAMPLES, 'eur-order-0930.yaml')],
    ['a directory of scenarios', () => join(ROOT, 'scenarios')],
  ])('%s: exit 2 with a message on stderr, never a stack trace or escape codes', (_what, path) => {
    const r = cli([path()]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).not.toBe('');
    expect(r.stderr).not.toMatch(STACK);
    // no alternate screen, no cursor hiding: nothing was drawn
    expect(r.stderr).not.toContain('\x1b[');
  });
});

describe('joinstep run with stdout closed early', () => {
  // ~300 KB of output, well over a pipe's 64 KB buffer: the writer does meet the closed pipe
  const rows = Array.from({ length: 1500 }, (_, i) => `  - { to: a, row: { k: x, v: ${i} } }`);
  const big = [
    'name: a long changelog',
    'sql: |',
    "  CREATE TABLE a (k STRING, v INT) WITH ('connector' = 'kafka');",
    "  CREATE TABLE b (k STRING, w STRING) WITH ('connector' = 'kafka');",
    '  SELECT a.k, a.v, b.w FROM a JOIN b ON a.k = b.k;',
    'events:',
    `  - { to: b, row: { k: x, w: ${'w'.repeat(200)} } }`,
    ...rows,
    '',
  ].join('\n');

  it.each([[[] as string[]], [['--format', 'json']]])('`| head -1` (%j): one line out, nothing on stderr, exit 0', (extra) => {
    const path = file('long.yaml', big);
    const args = ['run', path, ...extra].map((a) => `'${a}'`).join(' ');
    // PIPESTATUS[0] is joinstep's own exit status, not head's
    const r = spawnSync('bash', ['-c', `node bin/joinstep.mjs ${args} | head -1; exit "\${PIPESTATUS[0]}"`], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stdout).toMatch(/^(\+I\[x, 0, w{200}\]|\{"op":"\+I")/);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('stdout closed before the start: exits quietly', () => {
    const path = file('long2.yaml', big);
    const r = spawnSync('bash', ['-c', `node bin/joinstep.mjs run '${path}' >&-`], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
