/**
 * Scenario and data files that are not regular files: a pipe (`joinstep run <(make-scenario)`),
 * a FIFO, a device such as /dev/zero. Their size is unknown to `stat`, so they are read in
 * bounded chunks (src/scenario/read-bounded.ts); and data files named by an absolute path.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioFile, loadScenarioText } from '../../src/scenario/load.js';
import { readAtMost } from '../../src/scenario/read-bounded.js';

const dir = mkdtempSync(join(tmpdir(), 'joinstep-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EUR = readFileSync(new URL('../../scenarios/temporal-eur-rate.yaml', import.meta.url), 'utf8');
const linux = existsSync('/dev/zero') && existsSync('/dev/fd') ? it : it.skip;

/** A FIFO that a child process fills with `text` once opened. */
async function fifoOf(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await new Promise<void>((done, fail) => spawn('mkfifo', [path]).on('exit', (code) => (code === 0 ? done() : fail(new Error(`mkfifo ${code}`)))));
  const file = join(dir, `${name}.src`);
  writeFileSync(file, text);
  spawn('sh', ['-c', `cat "${file}" > "${path}"`], { stdio: 'ignore' });
  return path;
}

describe('files whose size stat cannot tell', () => {
  linux('a scenario read from a FIFO loads as the same file would', async () => {
    const r = await loadScenarioFile(await fifoOf('eur.fifo', EUR));
    const plain = loadScenarioText('eur.yaml', EUR);
    expect(r.ok && plain.ok).toBe(true);
    if (r.ok && plain.ok) expect(r.scenario.events.length).toBe(plain.scenario.events.length);
  });

  linux('/dev/zero as a scenario: not text, said at once instead of read for ever', async () => {
    const r = await loadScenarioFile('/dev/zero');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message}`)).toEqual(['/dev/zero:1:1: not a UTF-8 text file']);
  });

  linux('a read stops past the limit, and at a NUL byte', () => {
    // /dev/urandom has no end: the read must stop at max + 1 bytes or at its first NUL.
    const random = readAtMost('/dev/urandom', 100_000);
    expect(random.length).toBeLessThanOrEqual(100_001);
    expect(random.length === 100_001 || random.includes(0)).toBe(true);
    // max + 1 bytes, so the caller can tell a file over the limit.
    expect(readAtMost('/dev/zero', 10).length).toBe(11);
    // A NUL ends the read after its chunk (1 MiB), however high the limit.
    expect(readAtMost('/dev/zero', 1e9).length).toBe(1 << 20);
  });

  linux('a data file that is a device: not text, said at its place in the scenario', async () => {
    const text = EUR.replace(/events:[\s\S]*?(\nexpect:|$)/, 'events:\n  - replay:\n      - { file: /dev/zero, to: orders }\n    format: jsonl\n$1');
    writeFileSync(join(dir, 'dev.yaml'), text);
    const r = await loadScenarioFile(join(dir, 'dev.yaml'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics.map((d) => d.message)).toEqual(['data file /dev/zero holds a NUL byte (line 1): it is not a text file']);
  });
});

describe('data files by absolute path, and keys of the whole replay', () => {
  const rows = '{"order_id":"o1","currency":"EUR","amount":100,"order_time":"2026-10-01 09:30:00"}\n';

  it('an absolute path is used as written, not joined to the scenario folder', () => {
    const data = join(dir, 'abs-orders.jsonl');
    writeFileSync(data, rows);
    const text = EUR.replace(/events:[\s\S]*?(\nexpect:|$)/, `events:\n  - { replay: ${JSON.stringify(data)}, to: orders }\n$1`);
    const r = loadScenarioText(join(dir, 'elsewhere', 'abs.yaml'), text.replace(/\nexpect:[\s\S]*$/, '\n'));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.col}: ${d.message}`).join('\n'));
    expect(r.scenario.events.length).toBe(1);
  });

  it('`format:` written on one file is told where it goes', () => {
    const text = EUR.replace(/events:[\s\S]*$/, 'events:\n  - replay:\n      - { file: data/orders.dat, to: orders, format: jsonl }\n');
    const r = loadScenarioText(join(dir, 'fmt.yaml'), text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostics.map((d) => d.message)).toContain('`format` applies to the whole replay, not to one of its files');
      expect(r.diagnostics.every((d) => !d.message.startsWith('unknown replay file key'))).toBe(true);
    }
  });
});
