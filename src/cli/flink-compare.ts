/**
 * One query, joinstep against real Flink: both run, or both reject the SQL, or one rejects and the
 * other does not (a disagreement). The verdict carries the lines `joinstep flink` prints.
 */
import { formatDiagnostic } from '../scenario/diagnostic.js';
import type { Diagnostic, RejectedSql, Scenario } from '../scenario/types.js';
import { HarnessError, type FlinkHarness, type FlinkRunResult } from '../flink/harness-client.js';
import { HarnessPool } from '../flink/harness-pool.js';
import { writeErr } from './output.js';
import { formatRunDiff } from '../flink/diff-report.js';
import { joinstepRun, type SideRun } from '../flink/joinstep-side.js';
import { diffRuns, sameRejection } from '../flink/step-diff.js';
import { printable } from '../values/printable.js';
import { runtimeFailure } from './runtime-error.js';

export type FlinkVerdict = {
  readonly status: 'agree' | 'differ' | 'not-expressible';
  readonly lines: readonly string[];
  /** The first step whose rows differ, for a run that differs there. */
  readonly firstDifference?: number;
  /** One line for a summary table (docs/flink-harness.md): what differs, or why nothing could be compared. */
  readonly summary: string;
};

type Failed = Extract<FlinkRunResult, { ok: false }>;

/** Runs query `index` of a loaded scenario on both sides and compares them step by step. */
export async function compareQuery(harness: FlinkHarness, scenario: Scenario, index: number): Promise<FlinkVerdict> {
  const flink = await harness.run(scenario, 'run', index);
  let mine: SideRun | Diagnostic;
  try {
    mine = joinstepRun(scenario, index);
  } catch (error) {
    const diagnostic = runtimeFailure(scenario, error);
    if (diagnostic === undefined) throw error;
    mine = diagnostic;
  }
  const label = flink.ok ? `Flink ${flink.flinkVersion}` : `Flink ${harness.build.mavenVersion}`;
  if (!flink.ok) {
    if (flink.phase === 'plan') {
      return { status: 'differ', summary: `Flink rejects the query (${shortClass(flink.error.class)}: ${firstLineOf(flink.error.message)}); joinstep plans it`, lines: [`${label} rejects the query; joinstep plans it.`, ...flinkError(label, flink)] };
    }
    if ('message' in mine) {
      return { status: 'agree', summary: 'both fail while running', lines: ['Both fail while running:', ...joinstepError(mine), ...flinkError(label, flink)] };
    }
    return { status: 'differ', summary: `Flink fails while running (${shortClass(flink.error.class)}: ${firstLineOf(flink.error.message)})`, lines: [`${label} fails while running; joinstep runs to the end.`, ...flinkError(label, flink)] };
  }
  if (flink.notExpressible !== null) {
    return { status: 'not-expressible', summary: printable(flink.notExpressible), lines: [`not expressible on real Flink: ${printable(flink.notExpressible)}`] };
  }
  const header = pinnedLine(flink);
  if ('message' in mine) {
    return { status: 'differ', summary: `joinstep fails while running (${printable(mine.message)})`, lines: [header, `joinstep fails while running; ${label} runs to the end.`, ...joinstepError(mine)] };
  }
  const flinkSide: SideRun = { changelog: flink.changelog, result: flink.result, ...(flink.watermarks !== undefined ? { watermarks: flink.watermarks } : {}) };
  const diff = diffRuns(mine, flinkSide, flink.unorderedSteps);
  const verdict = diff.agree ? `joinstep and ${label} agree.` : `joinstep and ${label} DIFFER.`;
  const lines = [header, ...formatRunDiff(diff, label), verdict];
  if (diff.agree) return { status: 'agree', summary: diff.unorderedCompared.length > 0 ? `agrees (${diff.unorderedCompared.length} step(s) compared as a multiset)` : 'agrees', lines };
  return { status: 'differ', ...(diff.firstDifference !== undefined ? { firstDifference: diff.firstDifference } : {}), summary: summarize(diff), lines };
}

/** A file whose SQL joinstep rejected: does Flink reject it too? */
export async function compareRejected(harness: FlinkHarness, rejected: RejectedSql, diagnostics: readonly Diagnostic[], index: number): Promise<FlinkVerdict> {
  const flink = await harness.run(rejected, 'plan', index);
  const mineLines = diagnostics.flatMap((d) => joinstepError(d));
  if (!flink.ok && flink.phase === 'plan') {
    const lines = [...mineLines, ...flinkError(`Flink ${harness.build.mavenVersion}`, flink)];
    if (sameRejection(diagnostics[0]?.message ?? '', flink.error.message, flink.error.rootCause)) return { status: 'agree', summary: 'both reject the query', lines: ['Both reject the query:', ...lines] };
    // joinstep is to give Flink's own error: another message teaches another rule
    return { status: 'differ', summary: 'both reject the query, with different messages', lines: ['Both reject the query, but Flink\'s message does not contain joinstep\'s first sentence:', ...lines] };
  }
  const mineFirst = printable(diagnostics[0]?.message ?? '');
  if (!flink.ok) {
    return { status: 'differ', summary: `joinstep rejects the query (${mineFirst}); Flink plans it`, lines: ['joinstep rejects the query; Flink plans it but fails to run it:', ...mineLines, ...flinkError(`Flink ${harness.build.mavenVersion}`, flink)] };
  }
  return {
    status: 'differ',
    summary: `joinstep rejects the query (${mineFirst}); Flink plans it`,
    lines: [`joinstep rejects the query; Flink ${flink.flinkVersion} plans it:`, ...mineLines, `Flink ${flink.flinkVersion}'s plan:`, ...flink.plan.split('\n').map((l) => `  ${printable(l)}`)],
  };
}

/** What differs first, in a few words: which step, and whether only the order of its rows. */
function summarize(diff: ReturnType<typeof diffRuns>): string {
  const first = diff.steps.find((s) => !s.agree);
  const parts: string[] = [];
  if (first !== undefined) {
    const sameRows = first.joinstep.length === first.flink.length && [...first.joinstep].sort().every((r, i) => r === [...first.flink].sort()[i]);
    parts.push(sameRows ? `step ${first.step}: the same ${first.flink.length} rows in another order` : `step ${first.step}: joinstep ${countRows(first.joinstep.length)}, Flink ${countRows(first.flink.length)}`);
  }
  if (!diff.result.agree) parts.push('final result differs');
  if (diff.watermarks !== undefined && !diff.watermarks.agree) parts.push(`watermarks differ at step ${diff.watermarks.firstDifference?.step}`);
  return parts.join('; ');
}

function countRows(n: number): string {
  return `${n} row${n === 1 ? '' : 's'}`;
}

function shortClass(name: string): string {
  return printable(name.slice(name.lastIndexOf('.') + 1));
}

function firstLineOf(text: string): string {
  const line = printable(text.split('\n')[0] ?? '');
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

function joinstepError(d: Diagnostic): string[] {
  return formatDiagnostic(d)
    .split('\n')
    .map((l, i) => (i === 0 ? `  joinstep: ${l}` : `            ${l}`));
}

export function flinkError(label: string, f: Failed): string[] {
  const lines = [`  ${label}: ${printable(f.error.class)}: ${firstLines(f.error.message)}`];
  if (f.error.rootCause !== undefined && f.error.rootCause !== f.error.message) lines.push(`    root cause: ${firstLines(f.error.rootCause)}`);
  return lines;
}

/** Flink's messages can run to a stack of causes; the first lines say what matters. */
function firstLines(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const head = lines.slice(0, 4).map(printable).join('\n      ');
  return lines.length > 4 ? `${head}\n      ...` : head;
}

function pinnedLine(f: Extract<FlinkRunResult, { ok: true }>): string {
  const pinned = Object.entries(f.pinnedConfig).map(([k, v]) => `${k}=${v}`);
  return `Flink ${f.flinkVersion}, pinned for determinism: ${pinned.length > 0 ? printable(pinned.join(', ')) : '(nothing)'}`;
}

/**
 * Runs `body` with the harness of Flink `minor`, started for this command and closed after it.
 * A harness that cannot be built or started, or that fails mid-run, is reported as
 * `joinstep: ...` plus its hint, exit 2.
 */
export async function withFlinkHarness(minor: string, body: (harness: FlinkHarness) => Promise<number>): Promise<number> {
  const pool = new HarnessPool();
  const report = (message: string, hint: string): number => {
    writeErr(`joinstep: ${message.split('\n').map(printable).join('\n')}\nhint: ${hint}\n`);
    return 2;
  };
  try {
    const entry = await pool.get(minor);
    return entry.ok ? await body(entry.harness) : report(entry.message, entry.hint);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    return report(error.message, error.hint);
  } finally {
    await pool.closeAll();
  }
}
