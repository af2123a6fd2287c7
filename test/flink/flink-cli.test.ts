/**
 * The real-Flink commands where no Java is needed: their arguments, the message when Java or
 * Maven is missing (exit 2 with an install hint), a bad file (exit 2 before anything else), and
 * the job `--job` writes, or why it cannot.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { cli } from '../cli/helpers.js';

describe('parseCli: the Flink commands', () => {
  it('reads `flink FILE` with its options', () => {
    expect(parseCli(['flink', 'a.yaml'])).toEqual({ ok: true, command: { name: 'flink', file: 'a.yaml' } });
    expect(parseCli(['flink', 'a.yaml', '--flink-version', '2.1', '--query', 'q', '--job', 'out'])).toEqual({
      ok: true,
      command: { name: 'flink', file: 'a.yaml', query: 'q', flinkVersion: '2.1', job: 'out' },
    });
  });

  it('reads --flink on test and explain', () => {
    expect(parseCli(['test', '--flink', 'scenarios'])).toEqual({ ok: true, command: { name: 'test', paths: ['scenarios'], flink: {} } });
    expect(parseCli(['explain', 'a.yaml', '--flink', '--flink-version', '2.0'])).toEqual({ ok: true, command: { name: 'explain', file: 'a.yaml', flink: { flinkVersion: '2.0' } } });
    expect(parseCli(['test', 'scenarios'])).toEqual({ ok: true, command: { name: 'test', paths: ['scenarios'] } });
  });

  it('refuses what does not fit', () => {
    expect(parseCli(['flink'])).toMatchObject({ ok: false, message: '`flink` takes exactly one scenario file' });
    expect(parseCli(['flink', 'a.yaml', '--flink-version', '1.20'])).toMatchObject({ ok: false, message: "unknown --flink-version '1.20'", hint: '--flink-version takes: 2.0, 2.1, 2.2, 2.3' });
    expect(parseCli(['flink', 'a.yaml', '--flink-version', '2.1.2'])).toMatchObject({ ok: false, hint: 'did you mean `2.1`?' });
    expect(parseCli(['flink', 'a.yaml', '--flink'])).toMatchObject({ ok: false });
    expect(parseCli(['run', 'a.yaml', '--flink'])).toMatchObject({ ok: false, message: "Unknown option '--flink' for `joinstep run`: it belongs to `joinstep test` and `joinstep explain`" });
    expect(parseCli(['run', 'a.yaml', '--job', 'x'])).toMatchObject({ ok: false, message: "Unknown option '--job' for `joinstep run`: it belongs to `joinstep flink`" });
    expect(parseCli(['test', '--flink-version', '2.3'])).toMatchObject({ ok: false, message: '--flink-version goes with --flink' });
  });
});

describe('joinstep flink without Java', () => {
  const noJava = { JAVA_HOME: '/nonexistent', PATH: '/nonexistent' };

  it('says what is missing and how to install it, and exits 2', () => {
    const r = cli(['flink', 'scenarios/temporal-eur-rate.yaml'], { env: noJava });
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('joinstep: running real Flink needs Java 17 or newer, and `java` was not found');
    expect(r.stderr).toMatch(/^hint: install Java 17 or newer and Maven/m);
    expect(r.status).toBe(2);
  });

  it('test --flink and explain --flink say the same', () => {
    for (const args of [['test', '--flink', 'scenarios/temporal-eur-rate.yaml'], ['explain', 'scenarios/temporal-eur-rate.yaml', '--flink']]) {
      const r = cli(args, { env: noJava });
      expect(r.stderr).toContain('needs Java 17 or newer');
      expect(r.status).toBe(2);
    }
  });

  it('reports a bad file as a bad file (exit 2), before looking for Java', () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-flink-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'name: bad\nsql: |\n  CREATE TABLE a (k STRING) WITH (\'connector\' = \'kafka\');\n  SELECT * FROM a;\nevents:\n  - { to: a, row: { k: x, nope: 1 } }\n');
    const r = cli(['flink', file], { env: noJava });
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+: error: /);
    expect(r.stderr).not.toContain('Java');
    expect(r.status).toBe(2);
  });
});

describe('joinstep flink --job', () => {
  it('writes a SQL-client script, JSON-lines data and the expected result for insert-only, on-time data', () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-job-'));
    const r = cli(['flink', 'scenarios/temporal-eur-rate.yaml', '--job', dir], { env: { PATH: '/nonexistent' } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const script = readFileSync(join(dir, 'job.sql'), 'utf8');
    expect(script).toContain("SET 'table.local-time-zone' = 'UTC';");
    expect(script).toContain(`'connector' = 'filesystem', 'path' = '${dir}/data/orders', 'format' = 'json'`);
    expect(script).toContain("WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND");
    expect(script).toContain('PRIMARY KEY (currency) NOT ENFORCED');
    expect(script).toContain('JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r');
    expect(script).not.toContain('upsert-kafka');
    const orders = readFileSync(join(dir, 'data/orders/rows.json'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(orders).toEqual([{ order_id: 'o1', currency: 'EUR', amount: '100.00', order_time: '2026-10-01T09:30' }]);
    // 100 EUR at the 09:00 rate 1.10 (the 10:00 rate is not valid yet at 09:30).
    expect(readFileSync(join(dir, 'expected-result.txt'), 'utf8')).toBe('[o1, 2026-10-01T09:30, 110.000000]\n');
  });

  it('explains why a scenario is not expressible, and exits 3', () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-job-'));
    const lookup = cli(['flink', 'scenarios/lookup-cache-stale.yaml', '--job', dir]);
    expect(lookup.stderr).toContain('is not expressible as a Flink job of files because a lookup join asks an external store');
    expect(lookup.status).toBe(3);
    const deletes = cli(['flink', 'scenarios/semi-in.yaml', '--job', dir]);
    expect(deletes.stderr).toMatch(/because the row at line \d+ is -D: the job's files hold inserts only/);
    const ttl = cli(['flink', 'scenarios/regular-state-ttl.yaml', '--job', dir]);
    expect(ttl.stderr).toContain('its final result depends on the arrival script');
    expect(ttl.status).toBe(3);
  });
});
