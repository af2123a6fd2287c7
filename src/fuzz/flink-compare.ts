/**
 * Compares joinstep's outcome for one generated scenario with real Flink's, through the harness
 * client (src/flink/harness-client.ts, the protocol in docs/flink-harness.md).
 *
 * Rules of the comparison (each named in the verdict's detail):
 * - plan: a query one side rejects and the other plans is a disagreement; both rejecting agree
 *   when Flink's message contains the first sentence of joinstep's;
 * - changelog: the rows of each step, in order; for a step the harness lists in `unorderedSteps`
 *   as a multiset ("unordered-step"). A step with the same rows in another order differs: the
 *   orders Flink's hash maps and its timer heap give are modelled (state/flink-map-order.ts,
 *   state/timer-service.ts), so no order is forgiven;
 * - result: the final materialized rows, sorted;
 * - watermarks: the steps at which the join's output watermark advanced, and the values.
 */
import { sameRejection } from '../flink/step-diff.js';
import { FlinkHarness, flinkAvailable } from '../flink/harness-client.js';
import type { RejectedSql, Scenario } from '../scenario/types.js';
import type { FuzzCase, FuzzFlinkVersion } from './model.js';
import type { JoinstepOutcome, StepRow } from './joinstep-run.js';
import type { Verdict } from './summary.js';

/** The harness response (protocol "Response"), as far as the comparison reads it. */
export interface FlinkResponse {
  readonly ok: boolean;
  readonly phase?: 'plan' | 'run';
  readonly error?: { readonly class?: string; readonly message?: string; readonly rootCause?: string };
  readonly changelog?: readonly StepRow[];
  readonly result?: readonly string[];
  readonly watermarks?: readonly { readonly step: number; readonly value: number }[];
  readonly unorderedSteps?: readonly number[];
  readonly notExpressible?: string | null;
}

/** One JVM per Flink minor version, started on first use and reused for every scenario of that version. */
export interface HarnessLike {
  run(version: FuzzFlinkVersion, scenario: Scenario | RejectedSql): Promise<FlinkResponse>;
  close(): Promise<void>;
}

/** The real harness, or why it cannot be used here. */
export function loadHarness(): HarnessLike | string {
  const available = flinkAvailable();
  if (!available.ok) return `${available.message} (${available.hint})`;
  const started = new Map<string, Promise<FlinkHarness>>();
  return {
    async run(version, scenario) {
      let h = started.get(version);
      if (h === undefined) {
        h = FlinkHarness.start(version, { build: true });
        started.set(version, h);
      }
      return (await h).run(scenario, 'run');
    },
    async close() {
      const all = await Promise.allSettled(started.values());
      await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
    },
  };
}

export interface Comparison {
  readonly verdict: Verdict;
  readonly detail: string;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

export async function compareWithFlink(harness: HarnessLike, c: FuzzCase, mine: JoinstepOutcome): Promise<Comparison> {
  if (mine.kind === 'crash' || mine.kind === 'invalid') return { verdict: 'crash', detail: `${mine.kind}: ${mine.message}` };
  // A query joinstep rejects is sent all the same: Flink accepting it is a disagreement to see.
  if (mine.kind === 'rejected' && mine.rejected === undefined) return { verdict: 'crash', detail: `joinstep rejected it (${mine.message}) but kept no SQL to send: a generator or loader bug` };
  const source = mine.kind === 'rejected' ? mine.rejected! : mine.scenario;
  let flink: FlinkResponse;
  try {
    flink = await harness.run(c.flinkVersion, source);
  } catch (error) {
    // A harness that dies or hangs is a failure of the comparison, never a pass.
    return { verdict: 'crash', detail: `harness failure: ${(error as Error).message}` };
  }
  return compareResponses(mine, flink);
}

/** The comparison itself, apart from the harness (unit-tested with hand-written responses). */
export function compareResponses(mine: Exclude<JoinstepOutcome, { kind: 'crash' | 'invalid' }>, flink: FlinkResponse): Comparison {
  if (flink.ok && typeof flink.notExpressible === 'string') return { verdict: 'not-expressible', detail: flink.notExpressible };
  const flinkText = squash(`${flink.error?.message ?? ''} ${flink.error?.rootCause ?? ''}`);
  if (mine.kind === 'rejected') {
    if (flink.ok) return { verdict: 'differ', detail: `plan: joinstep rejects (${mine.message}), Flink plans it` };
    if (flink.phase !== 'plan') return { verdict: 'differ', detail: `plan: joinstep rejects (${mine.message}), Flink fails at run time: ${flinkText}` };
    return sameRejection(mine.message, flink.error?.message ?? '', flink.error?.rootCause)
      ? { verdict: 'rejected', detail: '' }
      : { verdict: 'differ', detail: `plan: both reject, with other messages: joinstep "${mine.message}", Flink "${flinkText}"` };
  }
  if (!flink.ok) {
    if (flink.phase === 'run' && mine.kind === 'runtime-error') return { verdict: 'agree', detail: '' };
    return { verdict: 'differ', detail: `${flink.phase ?? 'plan'}: Flink fails (${flink.error?.class ?? ''}: ${flinkText}), joinstep ${mine.kind === 'ran' ? 'runs it' : `fails at run time: ${mine.message}`}` };
  }
  if (mine.kind === 'runtime-error') return { verdict: 'differ', detail: `run: joinstep fails at run time (${mine.message}), Flink runs it` };
  const changelog = compareChangelog(mine.changelog, flink.changelog ?? [], new Set(flink.unorderedSteps ?? []));
  if (changelog !== undefined) return { verdict: 'differ', detail: changelog };
  const a = [...mine.result].sort();
  const b = [...(flink.result ?? [])].sort();
  if (a.join('\n') !== b.join('\n')) return { verdict: 'differ', detail: `result: joinstep [${a.join('; ')}], Flink [${b.join('; ')}]` };
  if (flink.watermarks !== undefined) {
    const w = (xs: readonly { step: number; value: number }[]) => advances(xs).map((x) => `${x.step}:${x.value}`).join(' ');
    if (w(mine.watermarks) !== w(flink.watermarks)) return { verdict: 'differ', detail: `watermarks: joinstep ${w(mine.watermarks)}, Flink ${w(flink.watermarks)}` };
  }
  return { verdict: 'agree', detail: '' };
}

const byStep = (rows: readonly StepRow[]) => {
  const m = new Map<number, string[]>();
  for (const r of rows) m.set(r.step, [...(m.get(r.step) ?? []), r.text.startsWith(r.op) ? r.text : `${r.op}${r.text}`]);
  return m;
};

const sameMultiset = (x: readonly string[], y: readonly string[]) => [...x].sort().join('\n') === [...y].sort().join('\n');

/**
 * The first step whose rows differ, described; undefined when every step agrees (in order; as a
 * multiset where the harness lists the step as unordered).
 */
export function compareChangelog(mine: readonly StepRow[], flink: readonly StepRow[], unordered: ReadonlySet<number>): string | undefined {
  const a = byStep(mine);
  const b = byStep(flink);
  const steps = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  for (const s of steps) {
    const x = a.get(s) ?? [];
    const y = b.get(s) ?? [];
    const same = unordered.has(s) ? sameMultiset(x, y) : x.join('\n') === y.join('\n');
    if (!same) return `changelog at step ${s}${unordered.has(s) ? ' (unordered-step: compared as a multiset)' : ''}: joinstep [${x.join('; ')}], Flink [${y.join('; ')}]`;
  }
  return undefined;
}

/**
 * The output watermark as joinstep records it: per step, where it ended up, and only when it went
 * up. Flink may emit several watermarks within one step (or repeat one); those compare by the last.
 */
export function advances(xs: readonly { step: number; value: number }[]): { step: number; value: number }[] {
  const out: { step: number; value: number }[] = [];
  let high = -Infinity;
  for (const x of xs) {
    if (x.value <= high) continue;
    high = x.value;
    const last = out[out.length - 1];
    if (last !== undefined && last.step === x.step) last.value = x.value;
    else out.push({ step: x.step, value: x.value });
  }
  return out;
}
