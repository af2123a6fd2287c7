/**
 * `joinstep test --flink`: a scenario's `expect:` block checked against real Flink as well. The
 * changelog is compared in order, except inside the steps the harness names as unordered (Flink's
 * own order there depends on its state layout), which are compared as multisets and counted in
 * the report line; the result as a multiset; `error:` must be a rejection by Flink's planner whose
 * message contains the expected text.
 */
import type { Expectation, LoadResult, RejectedSql, Scenario } from '../scenario/types.js';
import type { FlinkRunResult } from '../flink/harness-client.js';
import type { HarnessPool } from '../flink/harness-pool.js';
import { printable } from '../values/printable.js';
import { diffLines, sameMultiset } from './diff.js';

export type FlinkCheck =
  | { readonly status: 'pass'; readonly label: string; readonly note?: string }
  | { readonly status: 'skip'; readonly reason: string }
  | { readonly status: 'fail'; readonly label: string; readonly details: readonly string[] };

type Ran = Extract<FlinkRunResult, { ok: true }>;

export async function checkOnFlink(pool: HarnessPool, loaded: LoadResult): Promise<FlinkCheck> {
  const source: Scenario | RejectedSql | undefined = loaded.ok ? loaded.scenario : loaded.rejectedSql;
  if (source === undefined) return { status: 'skip', reason: 'the file does not load' };
  const expect = loaded.ok ? loaded.scenario.expect : loaded.expect;
  if (expect === undefined) return { status: 'skip', reason: 'no expect: block' };
  const entry = await pool.get(source.flinkVersion);
  if (!entry.ok) return { status: 'skip', reason: entry.message };
  const harness = entry.harness;
  const names = loaded.ok ? loaded.scenario.queries.map((q) => q.name) : (loaded.rejectedSql!.queries ?? [{ name: 'main' }]).map((q) => q.name);
  const checks = names
    .map((name, index) => ({ name, index, expect: expect.queries === undefined ? (index === 0 ? expect : undefined) : expect.queries[name] }))
    .filter((c): c is { name: string; index: number; expect: Expectation } => c.expect !== undefined);
  let label = `Flink ${harness.build.mavenVersion}`;
  const details: string[] = [];
  let unordered = 0;
  for (const c of checks) {
    const runnable = loaded.ok && c.expect.error === undefined;
    const r = await harness.run(source, runnable ? 'run' : 'plan', c.index);
    if (r.ok) label = `Flink ${r.flinkVersion}`;
    if (r.ok && r.notExpressible !== null) return { status: 'skip', reason: `not expressible on real Flink: ${printable(r.notExpressible)}` };
    const own = checkQuery(c.expect, r, runnable);
    unordered += own.unordered;
    if (own.details.length > 0) details.push(...(checks.length > 1 || expect.queries !== undefined ? [`query ${c.name}:`, ...own.details.map((l) => `  ${l}`)] : own.details));
  }
  if (details.length > 0) return { status: 'fail', label, details };
  return unordered > 0 ? { status: 'pass', label, note: `${unordered} step${unordered === 1 ? '' : 's'} compared as a multiset (Flink's order there depends on its state layout)` } : { status: 'pass', label };
}

function checkQuery(expect: Expectation, r: FlinkRunResult, ran: boolean): { details: string[]; unordered: number } {
  if (expect.error !== undefined) {
    if (!r.ok && r.phase === 'plan') {
      const text = `${r.error.message}\n${r.error.rootCause ?? ''}`;
      if (text.includes(expect.error)) return { details: [], unordered: 0 };
      return { details: [`rejects the query, but its message does not contain: ${expect.error}`, `its message: ${printable(r.error.class)}: ${firstLine(r.error.message)}`], unordered: 0 };
    }
    return { details: [`expected planning to fail with: ${expect.error}`, r.ok ? 'but Flink plans the query' : `but Flink fails while running it: ${firstLine(r.error.message)}`], unordered: 0 };
  }
  if (!r.ok) return { details: [`${r.phase === 'plan' ? 'rejects the query' : 'fails while running'}: ${printable(r.error.class)}: ${firstLine(r.error.message)}`], unordered: 0 };
  if (!ran) return { details: [], unordered: 0 };
  const details: string[] = [];
  let unordered = 0;
  if (expect.changelog !== undefined) {
    const cmp = changelogMatches(expect.changelog, r);
    unordered = cmp.unordered;
    if (!cmp.ok) details.push('changelog (- expected, + Flink):', ...diffLines(expect.changelog, r.changelog.map((c) => c.text)).map((l) => `  ${printable(l)}`));
  }
  if (expect.result !== undefined && !sameMultiset(expect.result, r.result)) {
    details.push('result (- expected, + Flink, sorted):', ...diffLines([...expect.result].sort(), [...r.result].sort()).map((l) => `  ${printable(l)}`));
  }
  return { details, unordered };
}

/**
 * The expected lines against Flink's, in order, except within a step Flink names as unordered:
 * the expected lines are cut into Flink's steps by Flink's row counts, and such a step's slice
 * is compared as a multiset. `unordered` counts those steps that held more than one row.
 */
export function changelogMatches(expected: readonly string[], r: Ran): { ok: boolean; unordered: number } {
  const rows = r.changelog;
  if (expected.length !== rows.length) return { ok: false, unordered: 0 };
  const free = new Set(r.unorderedSteps);
  let unordered = 0;
  let i = 0;
  while (i < rows.length) {
    const step = rows[i]!.step;
    let j = i;
    while (j < rows.length && rows[j]!.step === step) j++;
    const want = expected.slice(i, j);
    const got = rows.slice(i, j).map((c) => c.text);
    if (free.has(step) && j - i > 1) {
      unordered++;
      if (!sameMultiset(want, got)) return { ok: false, unordered };
    } else if (!want.every((w, k) => w === got[k])) return { ok: false, unordered };
    i = j;
  }
  return { ok: true, unordered };
}

function firstLine(text: string): string {
  return printable(text.split('\n')[0] ?? '');
}
