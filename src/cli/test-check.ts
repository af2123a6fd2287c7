/**
 * `joinstep test` on a scenario that loaded: run each query that has expectations and compare
 * its changelog (exact, in order) and final result (any order) with them.
 */
import { runScenario } from '../engine/run.js';
import type { RunOutput } from '../engine/run.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import type { Expectation, Scenario } from '../scenario/types.js';
import { diffLines, sameMultiset } from './diff.js';
import { runtimeFailure } from './runtime-error.js';

export type Verdict =
  | { readonly status: 'pass' }
  | { readonly status: 'skip' }
  | { readonly status: 'fail'; readonly details: readonly string[] };

/**
 * `progress`: a progress function for the run of each query (a long run shows it on stderr).
 * `ran`: the outputs of the queries already run (a streamed run, cli/run-streamed.ts) by index.
 */
export function checkRun(scenario: Scenario, progress?: (name: string) => ((done: number, total: number) => void) | undefined, ran?: ReadonlyMap<number, RunOutput>): Verdict {
  const expect = scenario.expect;
  if (expect === undefined) return { status: 'skip' };
  if (expect.queries === undefined) {
    const details = checkQuery(scenario, 0, expect, progress?.(scenario.queries[0]?.name ?? 'main'), ran?.get(0));
    return details.length === 0 ? { status: 'pass' } : { status: 'fail', details };
  }
  const checked = scenario.queries.map((q, i) => ({ name: q.name, index: i, expect: expect.queries?.[q.name] })).filter((q) => q.expect !== undefined);
  if (checked.length === 0) return { status: 'skip' };
  const details = checked.flatMap((q) => {
    const own = checkQuery(scenario, q.index, q.expect!, progress?.(scenario.queries[q.index]?.name ?? ''), ran?.get(q.index));
    return own.length === 0 ? [] : [`query ${q.name}:`, ...own.map((l) => `  ${l}`)];
  });
  return details.length === 0 ? { status: 'pass' } : { status: 'fail', details };
}

/** The failure lines for one query; none when it meets its expectation. */
/**
 * The queries checkRun would run, when none expects a planning error (whose verdict needs no
 * run); undefined otherwise, and for a file without expectations.
 */
export function queriesToRun(scenario: Scenario): readonly number[] | undefined {
  const expect = scenario.expect;
  if (expect === undefined) return undefined;
  if (expect.queries === undefined) return expect.error === undefined ? [0] : undefined;
  const checked = scenario.queries.flatMap((q, i) => (expect.queries?.[q.name] !== undefined ? [{ i, e: expect.queries[q.name]! }] : []));
  if (checked.length === 0 || checked.some((q) => q.e.error !== undefined)) return undefined;
  return checked.map((q) => q.i);
}

function checkQuery(scenario: Scenario, index: number, expect: Expectation, onStep?: (done: number, total: number) => void, ran?: RunOutput): string[] {
  if (expect.error !== undefined) {
    const plan = scenario.queries[index]?.plan;
    return [`expected planning to fail with: ${expect.error}`, `but it planned a ${plan?.family ?? '?'} ${plan?.joinType ?? ''} join`];
  }
  let output: RunOutput;
  try {
    output = ran ?? runScenario(scenario, index, onStep);
  } catch (error) {
    const diagnostic = runtimeFailure(scenario, error);
    if (diagnostic === undefined) throw error;
    return formatDiagnostic(diagnostic).split('\n');
  }
  const details: string[] = [];
  if (expect.changelog !== undefined && !sameSequence(expect.changelog, output.lines)) {
    details.push('changelog (- expected, + actual):', ...diffLines(expect.changelog, output.lines).map((l) => `  ${l}`));
  }
  if (expect.result !== undefined && !sameMultiset(expect.result, output.result)) {
    const sortedExpected = [...expect.result].sort();
    details.push('result (- expected, + actual, sorted):', ...diffLines(sortedExpected, output.result).map((l) => `  ${l}`));
  }
  return details;
}

function sameSequence(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}
