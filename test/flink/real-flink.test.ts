/**
 * joinstep against real Apache Flink, through the harness in flink-harness/. Runs when Java 17+
 * and Maven are present (the first run builds the harness, minutes when Maven's repository is
 * cold); otherwise every test here is reported as skipped with the reason. JOINSTEP_REQUIRE_FLINK=1
 * (set by .ci/run) turns that skip into a failure.
 *
 * Flink 2.3 checks every row of the agreement table in docs/flink-harness.md; 2.0–2.2 a sample.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareQuery } from '../../src/cli/flink-compare.js';
import { harnessDir } from '../../src/flink/harness-build.js';
import { flinkAvailable } from '../../src/flink/harness-client.js';
import { HarnessPool } from '../../src/flink/harness-pool.js';
import type { FlinkVersion } from '../../src/planner/plan.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { cli } from '../cli/helpers.js';
import { REPO_ROOT } from '../paths.js';
import { agreementCell, namedVersion, parseAgreementTable } from './agreement-table.js';
import { foldPrinted, runJobOnMiniCluster } from './mini-cluster.js';

const BUILD_TIMEOUT = 20 * 60_000;

function skipReason(): string | undefined {
  const available = flinkAvailable();
  if (!available.ok) return available.message;
  try {
    harnessDir();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return undefined;
}

const reason = skipReason();
const TABLE = parseAgreementTable(readFileSync(join(REPO_ROOT, 'docs/flink-harness.md'), 'utf8'));
const abs = (file: string): string => join(REPO_ROOT, file);

if (reason !== undefined) {
  describe('real Flink', () => {
    if (process.env['JOINSTEP_REQUIRE_FLINK'] === '1') {
      it('must run here (JOINSTEP_REQUIRE_FLINK=1)', () => {
        throw new Error(`real Flink cannot run: ${reason}`);
      });
    } else {
      console.warn(`real-Flink tests SKIPPED: ${reason} (JOINSTEP_REQUIRE_FLINK=1 makes this a failure)`);
      it.skip(`SKIPPED: ${reason}`, () => undefined);
    }
  });
} else {
  describe('the agreement table of docs/flink-harness.md', () => {
    it('has one row for every bundled scenario and test/flink-cases file', async () => {
      const { yamlFiles } = await import('../paths.js');
      const files = yamlFiles([abs('scenarios'), abs('test/flink-cases')]).map((f) => f.slice(REPO_ROOT.length + 1)).sort();
      expect(TABLE.map((r) => r.file).sort()).toEqual(files);
    });
  });

  describe('real Flink 2.3: every row of the agreement table holds', () => {
    const pool = new HarnessPool();
    beforeAll(async () => {
      const entry = await pool.get('2.3');
      if (!entry.ok) throw new Error(`${entry.message}\n${entry.hint}`);
    }, BUILD_TIMEOUT);
    afterAll(() => pool.closeAll());

    it.each(TABLE.map((r) => [r.file, r] as const))('%s', async (file, row) => {
      expect(await agreementCell(pool, abs(file), '2.3')).toBe(row.on23);
    }, 120_000);
  });

  describe('real Flink 2.0–2.2: a sample', () => {
    const pool = new HarnessPool();
    afterAll(() => pool.closeAll());
    const named = TABLE.filter((r) => /^2\.[012]: /.test(r.named));
    it.each(named.map((r) => [r.file, r] as const))('%s on the version it names', async (file, row) => {
      const minor = namedVersion(abs(file));
      expect(`${minor}: ${await agreementCell(pool, abs(file), minor)}`).toBe(row.named);
    }, BUILD_TIMEOUT);

    it.each(['scenarios/temporal-eur-rate.yaml', 'scenarios/regular-left-join-padding.yaml', 'scenarios/interval-shipments-30min.yaml'])('%s agrees on Flink 2.0', async (file) => {
      const loaded = await loadScenarioFile(abs(file), { flinkVersion: '2.0' as FlinkVersion });
      if (!loaded.ok) throw new Error(loaded.diagnostics[0]?.message);
      const entry = await pool.get('2.0');
      if (!entry.ok) throw new Error(`${entry.message}\n${entry.hint}`);
      const verdict = await compareQuery(entry.harness, loaded.scenario, 0);
      expect(verdict.lines.join('\n')).toContain('agree');
      expect(verdict.status).toBe('agree');
    }, BUILD_TIMEOUT);
  });

  describe('the commands, as a user runs them', () => {
    beforeAll(async () => {
      // Built once here, so that the command-line runs below do not all wait for one build.
      const pool = new HarnessPool();
      const entry = await pool.get('2.3');
      await pool.closeAll();
      if (!entry.ok) throw new Error(entry.message);
    }, BUILD_TIMEOUT);

    it('`joinstep flink` prints both changelogs and exits 0 when they agree', () => {
      const r = cli(['flink', 'scenarios/temporal-eur-rate.yaml'], { timeout: 180_000 });
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^\s+6\s+\+I\[o1, 2026-10-01T09:30, 110\.000000\]\s+\| \+I\[o1, 2026-10-01T09:30, 110\.000000\]$/m);
      expect(r.stdout).toContain('joinstep and Flink 2.3.0 agree.');
      expect(r.status).toBe(0);
    }, 200_000);

    it('`joinstep flink` exits 1 on a file the table says differs, and marks the first difference', () => {
      const row = TABLE.find((r) => /^differs: step \d+/.test(r.on23) && namedVersion(abs(r.file)) === '2.3');
      if (row === undefined) return; // nothing differs any more: nothing to show
      const r = cli(['flink', row.file], { timeout: 180_000 });
      expect(r.stdout).toMatch(/^>>/m);
      expect(r.stdout).toContain('DIFFER');
      expect(r.status).toBe(1);
    }, 200_000);

    it('`joinstep flink` shows both rejections when joinstep and Flink both reject the query', () => {
      const r = cli(['flink', 'scenarios/regular-upsert-sink-append.yaml'], { timeout: 180_000 });
      expect(r.stdout).toContain('Both reject the query:');
      expect(r.stdout).toMatch(/joinstep: scenarios\/regular-upsert-sink-append\.yaml:\d+:\d+: error: /);
      expect(r.stdout).toMatch(/Flink 2\.3\.0: org\.apache\.flink\.table\.api\.\w+Exception: /);
      expect(r.status).toBe(0);
    }, 200_000);

    it('`joinstep explain --flink` prints Flink\'s own plan after joinstep\'s', () => {
      const r = cli(['explain', 'scenarios/temporal-eur-rate.yaml', '--flink'], { timeout: 180_000 });
      expect(r.status).toBe(0);
      expect(r.stdout.indexOf("== joinstep's plan")).toBe(0);
      expect(r.stdout).toContain("== Flink 2.3.0's plan");
      expect(r.stdout).toMatch(/TemporalJoin\(/);
      expect(r.stdout).toMatch(/changelogMode=\[I/);
    }, 200_000);

    it('`joinstep test --flink` checks the expect: block on both sides and ends with the count', () => {
      const r = cli(['test', '--flink', 'scenarios/temporal-eur-rate.yaml', 'test/flink-cases/lookup-left.yaml'], { timeout: 180_000 });
      expect(r.stdout).toContain('PASS scenarios/temporal-eur-rate.yaml (joinstep and Flink 2.3.0)');
      expect(r.stdout.trim().split('\n').at(-1)).toBe('2 passed, 0 failed');
      expect(r.status).toBe(0);
    }, 200_000);

    it('`joinstep test --flink` says which side failed', () => {
      const row = TABLE.find((r) => r.on23.startsWith('differs: Flink rejects'));
      if (row === undefined) return;
      const r = cli(['test', '--flink', row.file], { timeout: 180_000 });
      expect(r.stdout).toContain(`FAIL ${row.file}`);
      expect(r.stdout).toMatch(/^ {2}joinstep: passed$/m);
      expect(r.stdout).toMatch(/^ {2}Flink 2\.3\.0:$/m);
      expect(r.stdout).toContain('0 passed, 1 failed');
      expect(r.status).toBe(1);
    }, 200_000);

    it.each(['scenarios/temporal-eur-rate.yaml', 'scenarios/interval-trade-confirmations.yaml'])('`joinstep flink %s --job` reproduces the result on a MiniCluster', async (file) => {
      const dir = mkdtempSync(join(tmpdir(), 'joinstep-job-'));
      const written = cli(['flink', file, '--job', dir]);
      expect(written.status).toBe(0);
      const ran = await runJobOnMiniCluster('2.3', join(dir, 'job.sql'));
      expect(ran.stderr).not.toContain('RunSqlScript:');
      expect(ran.status).toBe(0);
      const expected = readFileSync(join(dir, 'expected-result.txt'), 'utf8').split('\n').filter((l) => l !== '');
      expect(expected.length).toBeGreaterThan(0);
      expect(foldPrinted(ran.stdout.split('\n'))).toEqual(expected);
    }, BUILD_TIMEOUT);
  });
}
