/**
 * The robustness invariant for one scenario text (spec §8): loading never throws; a rejection is
 * a list of clean diagnostics inside the file; a scenario that loads runs without an exception
 * other than a user-level runtime error (which the CLI reports at its event); and all of it is
 * deterministic. `checkScenarioText` returns a list of violations (empty = fine), so a property
 * can print the mutant next to what went wrong.
 */
import { runScenario } from '../../src/engine/run.js';
import { createTimeline } from '../../src/engine/timeline.js';
import { formatExplain } from '../../src/planner/explain.js';
import { runtimeFailure } from '../../src/cli/runtime-error.js';
import { formatDiagnostic } from '../../src/scenario/diagnostic.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { Diagnostic, LoadResult, Scenario } from '../../src/scenario/types.js';
import { isKnownIssue } from './known-issues.js';

export const FILE = 'mutant.yaml';

const MAX_PARTITIONS_RUN = 1000;

/** Words that betray an internal value leaking into a message, unless the user wrote them. */
const LEAKS = ['undefined', '[object Object]', 'NaN', 'Infinity', 'internal error', 'internal:'];
const STACK = /\n\s+at |\bat .*\.(?:ts|js|mjs):\d+|TypeError|RangeError|ReferenceError|SyntaxError:/;

/**
 * Line lengths, lines ending at LF (a CRLF line's CR counts as its last column). A lone CR is not
 * a line end here, as for the yaml package's LineCounter, grep -n and most editors' line numbers.
 */
function lineLengths(text: string): number[] {
  return text.split('\n').map((l) => l.length);
}

export function diagnosticProblems(text: string, d: Diagnostic, file = FILE): string[] {
  const out: string[] = [];
  const lens = lineLengths(text);
  const shown = formatDiagnostic(d);
  if (d.file !== file) out.push(`file is ${d.file}`);
  if (!Number.isInteger(d.line) || d.line < 1 || d.line > lens.length) out.push(`line ${d.line} outside 1..${lens.length}`);
  else if (!Number.isInteger(d.col) || d.col < 1 || d.col > lens[d.line - 1]! + 1) out.push(`col ${d.col} outside 1..${lens[d.line - 1]! + 1} on line ${d.line}`);
  if (d.message.trim() === '') out.push('empty message');
  for (const word of LEAKS) {
    if (shown.includes(word) && !text.includes(word)) out.push(`message leaks "${word}"`);
  }
  if (STACK.test(shown)) out.push('message looks like a stack trace');
  // ESC, a bidi override or a zero-width character would act on (or hide in) the user's terminal
  if (/[\p{Cc}\p{Cf}\p{Cs}]/u.test(shown.replaceAll('\n', ''))) out.push(`message holds a raw invisible character ${JSON.stringify(shown)}`);
  return out.map((p) => `${p}: ${shown}`);
}

export interface Outcome {
  /** 'rejected' (diagnostics), 'ran' (changelog), or 'runtime-error' (a diagnostic at an event). */
  readonly kind: 'rejected' | 'ran' | 'runtime-error' | 'crashed';
  /** A stable text of everything observable, for the determinism check. */
  readonly signature: string;
  readonly problems: readonly string[];
}

function load(text: string): LoadResult | Error {
  try {
    return loadScenarioText(FILE, text);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function crash(where: string, error: Error): Outcome {
  return { kind: 'crashed', signature: '', problems: [`${where} threw ${error.name}: ${error.message}\n${error.stack ?? ''}`] };
}

function runAll(text: string, scenario: Scenario): Outcome {
  const lines: string[] = [];
  for (let q = 0; q < scenario.queries.length; q++) {
    // `joinstep explain` of a loaded scenario must not fail either
    try {
      lines.push(formatExplain(scenario.queries[q]!.plan, scenario.name));
    } catch (error) {
      return crash(`formatExplain (query ${q})`, error instanceof Error ? error : new Error(String(error)));
    }
    try {
      const out = runScenario(scenario, q);
      lines.push(`query ${q}`, ...out.lines, '--result', ...out.result, JSON.stringify(out.json));
      lines.push(...timelineEnd(scenario, q));
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      const d = runtimeFailure(scenario, e);
      if (d === undefined) return crash(`runScenario (query ${q})`, e);
      const problems = diagnosticProblems(text, d);
      return { kind: 'runtime-error', signature: formatDiagnostic(d), problems };
    }
  }
  return { kind: 'ran', signature: lines.join('\n'), problems: [] };
}

/** What the app shows at the last step (state of both sides, watermarks, result): the app's path. */
function timelineEnd(scenario: Scenario, q: number): string[] {
  const t = createTimeline(scenario, q);
  const last = t.length;
  t.at(last);
  return [
    '--timeline',
    ...t.result(last),
    JSON.stringify(t.describeState(last, 0)),
    JSON.stringify(t.describeState(last, 1)),
    JSON.stringify(t.describeWatermarks(last)),
  ];
}

function outcomeOnce(text: string): Outcome {
  const result = load(text);
  if (result instanceof Error) return crash('loadScenarioText', result);
  if (!result.ok) {
    const problems = result.diagnostics.length === 0 ? ['rejected without a diagnostic'] : result.diagnostics.flatMap((d) => diagnosticProblems(text, d));
    return { kind: 'rejected', signature: result.diagnostics.map(formatDiagnostic).join('\n'), problems };
  }
  // Known issue 'huge-partitions' (known-issues.ts): the loader takes any count and the engine is
  // O(P²) in it, so a mutant with millions of partitions would hang the suite instead of failing.
  if (Object.values(result.scenario.partitions).some((n) => n > MAX_PARTITIONS_RUN)) {
    return { kind: 'ran', signature: 'skipped: too many partitions to run', problems: [] };
  }
  return runAll(text, result.scenario);
}

/**
 * Loads (and runs) the text twice; violations of any invariant come back as text. Violations that
 * match a known, reported bug in a module this suite does not own are dropped unless `strict`.
 */
export function checkScenarioText(text: string, strict = false): Outcome {
  const outcome = checkTwice(text);
  return strict ? outcome : { ...outcome, problems: outcome.problems.filter((p) => !isKnownIssue(p)) };
}

function checkTwice(text: string): Outcome {
  const first = outcomeOnce(text);
  if (first.kind === 'crashed') return first;
  const second = outcomeOnce(text);
  if (second.signature !== first.signature) {
    return { ...first, problems: [...first.problems, `not deterministic:\n${first.signature}\n--- vs ---\n${second.signature}`] };
  }
  return first;
}

/** A readable failure report: the problems, then the mutant with line numbers. */
export function explainFailure(text: string, outcome: Outcome): string {
  const numbered = text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(3)}| ${JSON.stringify(l).slice(1, -1)}`)
    .join('\n');
  return `${outcome.problems.join('\n')}\n--- mutant ---\n${numbered}`;
}
