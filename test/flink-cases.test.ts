/**
 * Fidelity audit: Flink's own operator tests and ITCases, turned into scenarios (test/flink-cases/,
 * sources in test/flink-cases/README.md), run through the built CLI as `joinstep test` runs them.
 *
 * Every case must pass except the known discrepancies listed below. Each of those is asserted to
 * STILL fail, so fixing one makes this test fail until it is removed from the list: the list can
 * only shrink. A scenario is never edited to match what joinstep prints; its `expect:` is Flink's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from './cli/helpers.js';

const DIR = 'test/flink-cases';

/**
 * Scenario file → why joinstep differs from Flink there (details in README.md, "Discrepancies").
 */
const KNOWN_DISCREPANCIES: Readonly<Record<string, string>> = {
  // (none: regular-itcase-left-join-on-row-key-non-equi-2.4.yaml was fixed, see the README)
};

interface TestRun {
  readonly verdicts: ReadonlyMap<string, 'PASS' | 'FAIL'>;
  readonly summary: string;
  readonly status: number | null;
  readonly stdout: string;
}

function runAll(): TestRun {
  const r = cli(['test', DIR]);
  const verdicts = new Map<string, 'PASS' | 'FAIL'>();
  for (const line of r.stdout.split('\n')) {
    const m = /^(PASS|FAIL) (.+)$/.exec(line);
    if (m) verdicts.set((m[2] ?? '').split('/').pop() ?? '', m[1] as 'PASS' | 'FAIL');
  }
  const summary = r.stdout.trim().split('\n').pop() ?? '';
  return { verdicts, summary, status: r.status, stdout: r.stdout };
}

const files = readdirSync(`${ROOT}/${DIR}`).filter((f) => f.endsWith('.yaml')).sort();

describe('Flink test cases as scenarios', () => {
  it('has 30+ cases, each with an expect block and a header naming its Flink source', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const f of files) {
      const text = readFileSync(`${ROOT}/${DIR}/${f}`, 'utf8');
      expect(text, f).toMatch(/^expect:/m);
      expect(text, f).toMatch(/^# (Source: apache\/flink |Derived|Release-dependent)/);
    }
  });

  it('lists every case in the README', () => {
    const readme = readFileSync(`${ROOT}/${DIR}/README.md`, 'utf8');
    for (const f of files) expect(readme, f).toContain(f);
    for (const f of Object.keys(KNOWN_DISCREPANCIES)) expect(files).toContain(f);
  });

  it('all pass except the known discrepancies, which still differ from Flink', () => {
    const run = runAll();
    expect([...run.verdicts.keys()].sort()).toEqual(files);
    const unexpectedFailures = files.filter((f) => run.verdicts.get(f) === 'FAIL' && !(f in KNOWN_DISCREPANCIES));
    const fixed = Object.keys(KNOWN_DISCREPANCIES).filter((f) => run.verdicts.get(f) === 'PASS');
    // A failure here prints the CLI's diff for the new failures.
    expect(unexpectedFailures, run.stdout).toEqual([]);
    // A discrepancy that passes now was fixed: take it off KNOWN_DISCREPANCIES and the README list.
    expect(fixed, 'fixed discrepancies: remove them from KNOWN_DISCREPANCIES').toEqual([]);
    const known = Object.keys(KNOWN_DISCREPANCIES).length;
    expect(run.summary).toBe(`${files.length - known} passed, ${known} failed`);
    expect(run.status).toBe(known > 0 ? 1 : 0);
  });
});
