import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { cli, ROOT, SPEC_EXAMPLES } from './helpers.js';

const example = (name: string) => join(SPEC_EXAMPLES, name);

describe('joinstep run', () => {
  it('prints the spec example changelog in the print connector format', () => {
    const r = cli(['run', example('eur-order-0930.yaml')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('+I[o1, 2026-10-01T09:30, 110.000000]\n');
  });

  it('prints every column type as Flink prints it', () => {
    const r = cli(['run', example('print-format.yaml')]);
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      '+I[x, 7, 9000000000, 1.50, true, 0.1, 2026-10-01T09:30, 2026-10-01T09:30:15.250Z, null]',
      '+I[x, -7, 0, 12.34, false, 1.0E10, 2026-10-01T09:30:15.250, 2026-10-01T09:30:00Z, null]',
    ]);
  });

  it('prints one JSON object per line with --format json', () => {
    const r = cli(['run', example('manual-watermarks-epoch.yaml'), '--format', 'json']);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { op: string; row: Record<string, unknown>; step: number });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.op).toBe('+I');
    expect(lines[0]!.row).toEqual({ ts: '3', k: 'k1', p: 'x', r_ts: '2', r_p: 'v2' });
    // The row is released by the 7th event (the r watermark to 5).
    expect(lines[0]!.step).toBe(7);
  });

  it('prints the materialized result with --result', () => {
    const r = cli(['run', example('eur-order-0930.yaml'), '--result']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('[o1, 2026-10-01T09:30, 110.000000]\n');
  });

  it('writes a long result whole, into a file and into a pipe, across its chunks', () => {
    // 3,000 rows of about 40 characters and one of 40,000: several chunks, and a line longer than one.
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-long-'));
    const rows = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ k: `k${i % 7}`, x: i === 1234 ? 'y'.repeat(40_000) : `o${i}` }));
    writeFileSync(join(dir, 'orders.jsonl'), rows.join('\n') + '\n');
    writeFileSync(join(dir, 'rates.jsonl'), Array.from({ length: 7 }, (_, i) => JSON.stringify({ k: `k${i}`, v: i })).join('\n') + '\n');
    const file = join(dir, 'long.yaml');
    const text = [
      'name: long result',
      'sql: |',
      "  CREATE TABLE orders (k STRING, x STRING) WITH ('connector' = 'kafka', 'format' = 'json');",
      "  CREATE TABLE rates (k STRING, v INT) WITH ('connector' = 'kafka', 'format' = 'json');",
      '  SELECT o.k, o.x, r.v FROM orders AS o JOIN rates AS r ON o.k = r.k;',
      'events:',
      '  - { replay: rates.jsonl, to: rates }',
      '  - { replay: orders.jsonl, to: orders }',
      '',
    ].join('\n');
    writeFileSync(file, text);
    const loaded = loadScenarioText(file, text);
    if (!loaded.ok) throw new Error(`the scenario does not load: ${loaded.diagnostics[0]?.message}`);
    const output = runScenario(loaded.scenario, 0);
    const expected = { result: output.result.join('\n') + '\n', run: output.lines.join('\n') + '\n' };
    expect(output.result.length).toBe(3000);
    for (const [what, args] of [['result', ['--result']], ['run', []]] as const) {
      const piped = cli(['run', file, ...args]);
      expect(piped.status).toBe(0);
      expect(piped.stdout === expected[what], `${what} into a pipe`).toBe(true);
      const out = join(dir, `${what}.txt`);
      const fd = openSync(out, 'w');
      const r = spawnSync(process.execPath, [join(ROOT, 'bin/joinstep.mjs'), 'run', file, ...args], { stdio: ['ignore', fd, 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
      closeSync(fd);
      expect(r.status).toBe(0);
      expect(readFileSync(out, 'utf8') === expected[what], `${what} into a file`).toBe(true);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a planner rejection as FILE:LINE:COL with exit 2 and no stack trace', () => {
    const r = cli(['run', example('error-no-primary-key.yaml')]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error-no-primary-key\.yaml:\d+:\d+: error: .*Temporal Table Join requires primary key in versioned table/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a missing file at 1:1 with exit 2', () => {
    const r = cli(['run', 'no/such/file.yaml']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^no\/such\/file\.yaml:1:1: error: /);
  });

  it('rejects unknown options with a hint', () => {
    const r = cli(['run', example('eur-order-0930.yaml'), '--formt', 'json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--formt');
    expect(r.stderr).toContain('hint:');
  });
});

describe('joinstep test', () => {
  it('passes the spec examples and ends with the summary line', () => {
    const r = cli(['test', SPEC_EXAMPLES]);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('4 passed, 0 failed');
    expect(r.status).toBe(0);
  });

  it('prints a diff and exits 1 when a changelog differs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-test-'));
    const file = join(dir, 'wrong.yaml');
    writeFileSync(
      file,
      [
        'name: wrong expectation',
        'sql: |',
        "  CREATE TABLE a (id STRING, v INT) WITH ('connector' = 'kafka');",
        "  CREATE TABLE b (id STRING, w INT) WITH ('connector' = 'kafka');",
        '  SELECT a.id, a.v, b.w FROM a JOIN b ON a.id = b.id;',
        'events:',
        '  - { to: a, row: { id: x, v: 1 } }',
        '  - { to: b, row: { id: x, w: 2 } }',
        'expect:',
        '  changelog: [ "+I[x, 1, 3]" ]',
        '',
      ].join('\n'),
    );
    const r = cli(['test', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('FAIL');
    expect(r.stdout).toContain('- +I[x, 1, 3]');
    expect(r.stdout).toContain('+ +I[x, 1, 2]');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');
  });
});

describe('joinstep explain', () => {
  it('names the operator family, join type, keys and changelog modes', () => {
    const r = cli(['explain', example('eur-order-0930.yaml')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/temporal/);
    expect(r.stdout).toMatch(/left/i);
    expect(r.stdout).toContain('currency');
    expect(r.stdout).toMatch(/\+I/);
  });
});
