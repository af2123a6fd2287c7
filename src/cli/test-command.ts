/**
 * `joinstep test [FILE|DIR ...]`: runs every scenario that has an `expect:` block, prints a diff
 * for each failure and ends with `N passed, N failed` (spec §6); exit 1 if any failed.
 */
import { existsSync } from 'node:fs';
import { runScenario } from '../engine/run.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { Expectation, LoadResult, Scenario } from '../scenario/types.js';
import type { Command } from './args.js';
import { diffLines, sameMultiset } from './diff.js';
import { writeErr, writeOut } from './output.js';
import { runtimeFailure } from './runtime-error.js';
import { findScenarioFiles } from './scenario-files.js';

type Verdict =
  | { readonly status: 'pass' }
  | { readonly status: 'skip' }
  | { readonly status: 'fail'; readonly details: readonly string[] };

export async function testCommand(cmd: Extract<Command, { name: 'test' }>): Promise<number> {
  const paths = cmd.paths.length > 0 ? cmd.paths : [existsSync('scenarios') ? 'scenarios' : '.'];
  const { files, missing } = findScenarioFiles(paths);
  for (const path of missing) writeErr(`joinstep: no such file or directory: ${path}\n`);
  let passed = 0;
  let failed = missing.length;
  let skipped = 0;
  for (const file of files) {
    const verdict = checkScenario(await loadScenarioFile(file));
    if (verdict.status === 'skip') {
      skipped++;
      continue;
    }
    if (verdict.status === 'pass') {
      passed++;
      writeOut(`PASS ${file}\n`);
    } else {
      failed++;
      writeOut(`FAIL ${file}\n${verdict.details.map((l) => `  ${l}`).join('\n')}\n`);
    }
  }
  if (skipped > 0) writeOut(`(${skipped} file${skipped === 1 ? '' : 's'} without an expect: block skipped)\n`);
  writeOut(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

function checkScenario(loaded: LoadResult): Verdict {
  if (!loaded.ok) {
    const expected = loaded.expect?.error;
    const messages = loaded.diagnostics.map((d) => formatDiagnostic(d));
    if (expected !== undefined && loaded.diagnostics.some((d) => d.message.includes(expected))) return { status: 'pass' };
    const head = expected === undefined ? ['the scenario does not load:'] : [`expected an error containing: ${expected}`, 'got:'];
    return { status: 'fail', details: [...head, ...messages.flatMap((m) => m.split('\n'))] };
  }
  const expect = loaded.scenario.expect;
  if (expect === undefined) return { status: 'skip' };
  if (expect.error !== undefined) {
    const plan = loaded.scenario.queries[0]?.plan;
    return {
      status: 'fail',
      details: [`expected planning to fail with: ${expect.error}`, `but it planned a ${plan?.family ?? '?'} ${plan?.joinType ?? ''} join`],
    };
  }
  return compareRun(loaded.scenario, expect);
}

function compareRun(scenario: Scenario, expect: Expectation): Verdict {
  let output: ReturnType<typeof runScenario>;
  try {
    output = runScenario(scenario, 0);
  } catch (error) {
    const diagnostic = runtimeFailure(scenario, error);
    if (diagnostic === undefined) throw error;
    return { status: 'fail', details: formatDiagnostic(diagnostic).split('\n') };
  }
  const details: string[] = [];
  if (expect.changelog !== undefined && !sameSequence(expect.changelog, output.lines)) {
    details.push('changelog (- expected, + actual):', ...diffLines(expect.changelog, output.lines).map((l) => `  ${l}`));
  }
  if (expect.result !== undefined && !sameMultiset(expect.result, output.result)) {
    const sortedExpected = [...expect.result].sort();
    details.push('result (- expected, + actual, sorted):', ...diffLines(sortedExpected, output.result).map((l) => `  ${l}`));
  }
  return details.length === 0 ? { status: 'pass' } : { status: 'fail', details };
}

function sameSequence(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}
