/**
 * `joinstep diff`: the golden outputs in test/golden/diff were written by hand from the version
 * rules (notes: FLINK-37955 output order, FLINK-39719 late probe rows), and the rows of each side
 * must be exactly the `expect:` changelog of the bundled scenario that runs those events under
 * that release: the diff cannot disagree with the checked scenarios.
 */
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/cli/scenario-files.js';
import { createTimeline } from '../../src/engine/timeline.js';
import type { FlinkVersion } from '../../src/planner/plan.js';
import { changedRules } from '../../src/planner/version-rules.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';
import { versionDiff, type VersionDiff } from '../../src/teach/version-diff.js';
import { sessionInfo } from '../../src/ui/session.js';
import { cli, ROOT } from '../cli/helpers.js';

async function load(file: string, flinkVersion?: FlinkVersion): Promise<Scenario> {
  const r = await loadScenarioFile(`${ROOT}/${file}`, flinkVersion === undefined ? {} : { flinkVersion });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.scenario;
}

async function diffOf(file: string, a: FlinkVersion, b: FlinkVersion): Promise<VersionDiff> {
  const [sa, sb] = [await load(file, a), await load(file, b)];
  const input = (s: Scenario, v: FlinkVersion) => ({ version: v, plan: s.queries[0]!.plan, timeline: createTimeline(s), outputTypes: sessionInfo(s).outputTypes });
  return versionDiff(input(sa, a), input(sb, b));
}

const eventsOf = (s: Scenario): string => JSON.stringify(s.events.map(({ note: _n, pos: _p, ask: _a, hint: _h, ...rest }) => rest));

describe('version diff against the bundled scenarios of each release', () => {
  it.each([
    ['scenarios/regular-full-join-2.1.yaml', '2.1', 'scenarios/regular-full-join.yaml', '2.3', 'FLINK-37955', [3]],
    ['scenarios/temporal-late-probe-2.3.yaml', '2.3', 'scenarios/temporal-late-probe-2.4.yaml', '2.4', 'FLINK-39719', [4, 7]],
  ] as const)('%s (%s) vs %s (%s)', async (fileA, va, fileB, vb, rule, differing) => {
    const [a, b] = [await load(fileA), await load(fileB)];
    // The two files hold the same events, so B's expect block is what A's events give under vb.
    expect(eventsOf(a)).toBe(eventsOf(b));
    const diff = await diffOf(fileA, va, vb);
    expect(diff.steps.flatMap((s) => s.a)).toEqual(a.expect?.changelog);
    expect(diff.steps.flatMap((s) => s.b)).toEqual(b.expect?.changelog);
    expect(diff.rules.map((r) => r.id)).toEqual([rule]);
    expect(diff.steps.filter((s) => !s.same).map((s) => s.step)).toEqual(differing);
  });

  it('names the late drop of the 2.4 run at the step the row arrives', async () => {
    const diff = await diffOf('scenarios/temporal-late-probe-2.3.yaml', '2.3', '2.4');
    const step4 = diff.steps[3]!;
    expect(step4.lateA).toEqual([]);
    expect(step4.lateB).toEqual(['+I[o1, EUR, 100.00, 2026-10-01T09:30]']);
  });

  it('finds no difference between two releases under the same rules', async () => {
    const diff = await diffOf('scenarios/regular-full-join.yaml', '2.2', '2.3');
    expect(diff.rules).toEqual([]);
    expect(diff.differing).toBe(0);
  });
});

describe('changedRules', () => {
  it('lists a rule only for the plans it applies to and the versions it separates', async () => {
    const outer = (await load('scenarios/regular-full-join.yaml')).queries[0]!.plan;
    const temporal = (await load('scenarios/temporal-eur-rate.yaml')).queries[0]!.plan;
    expect(changedRules(outer, '2.1', '2.2').map((r) => r.id)).toContain('FLINK-37955');
    expect(changedRules(outer, '2.2', '2.0').map((r) => r.id)).toContain('FLINK-37955');
    expect(changedRules(outer, '2.2', '2.3')).toEqual([]);
    expect(changedRules(temporal, '2.3', '2.4').map((r) => r.id)).toEqual(['FLINK-39719']);
    expect(changedRules(temporal, '2.1', '2.2')).toEqual([]);
  });
});

describe('joinstep diff (CLI)', () => {
  it.each([
    ['scenarios/regular-full-join-2.1.yaml', ['2.1', '2.2'], 'regular-full-join-2.1--2.2.txt'],
    ['scenarios/temporal-late-probe-2.3.yaml', ['2.3', '2.4'], 'temporal-late-probe-2.3--2.4.txt'],
  ])('%s %j matches its golden file', (file, versions, golden) => {
    const r = cli(['diff', file, '--flink-version', ...versions]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(readFileSync(`${ROOT}/test/golden/diff/${golden}`, 'utf8'));
  });

  it('with one version compares the file\'s own release with it', () => {
    const r = cli(['diff', 'scenarios/temporal-late-probe-2.3.yaml', '--flink-version', '2.4']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(readFileSync(`${ROOT}/test/golden/diff/temporal-late-probe-2.3--2.4.txt`, 'utf8'));
  });

  it.each([
    [['diff', 'scenarios/temporal-eur-rate.yaml'], 'needs --flink-version'],
    [['diff', 'scenarios/temporal-eur-rate.yaml', '--flink-version', '2.9', '2.4'], "unknown --flink-version '2.9'"],
    [['diff', 'scenarios/temporal-eur-rate.yaml', '--flink-version', '2.1', '2.2', '--svg', 'x'], "Unknown option '--svg' for `joinstep diff`"],
    [['diff', '--flink-version', '2.1', '2.2'], 'takes exactly one scenario file'],
  ])('%j is refused with a hint, exit 2', (args, message) => {
    const r = cli(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toMatch(/\nhint: /);
  });

  it('reports a scenario that does not load as FILE:LINE:COL, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-diff-'));
    writeFileSync(join(dir, 'bad.yaml'), 'name: x\nsql: "SELECT"\nevents: []\n');
    const r = cli(['diff', join(dir, 'bad.yaml'), '--flink-version', '2.1', '2.2']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+: error: /);
    expect(r.stderr).not.toContain('internal error');
  });

  const files = findScenarioFiles([`${ROOT}/scenarios`]).files;
  it.each(files.map((f) => [f.slice(ROOT.length)]))('runs on %s (2.0 against 2.4)', async (file) => {
    const r = cli(['diff', file, '--flink-version', '2.0', '2.4']);
    const loaded = await loadScenarioFile(`${ROOT}/${file}`);
    if (!loaded.ok) {
      // A scenario that expects a planning error gets its FILE:LINE:COL error here too.
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/:\d+:\d+: error: /);
      return;
    }
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^.*\nFlink 2\.0 → 2\.4: \d+ of \d+ steps differ\n/);
  });
});
