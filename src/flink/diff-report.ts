/**
 * The text `joinstep flink FILE` prints: both changelogs side by side, step by step, the first
 * difference marked `>>`, then the verdicts on the final result and the emitted watermarks.
 * Rows come from a scenario (and from Flink): control characters are escaped for the terminal.
 */
import { WM_MAX, WM_MIN } from '../engine/types.js';
import { printable } from '../values/printable.js';
import { formatTimestamp } from '../values/time.js';
import type { RunDiff, StepDiff } from './step-diff.js';

/** The widest the joinstep column gets before long rows simply run past it. */
const MAX_COLUMN = 64;

export function formatRunDiff(diff: RunDiff, flinkLabel: string): string[] {
  const out: string[] = [];
  const width = Math.min(MAX_COLUMN, Math.max('joinstep'.length, ...diff.steps.flatMap((s) => s.joinstep.map((r) => printable(r).length))));
  const stepWidth = Math.max(4, ...diff.steps.map((s) => String(s.step).length));
  out.push(`   ${'step'.padStart(stepWidth)}  ${'joinstep'.padEnd(width)}  | ${flinkLabel}`);
  if (diff.steps.length === 0) out.push(`   ${''.padStart(stepWidth)}  ${'(no rows)'.padEnd(width)}  | (no rows)`);
  for (const s of diff.steps) {
    const lines = Math.max(s.joinstep.length, s.flink.length);
    for (let i = 0; i < lines; i++) {
      const mark = i > 0 ? '  ' : marker(s, diff.firstDifference);
      const step = i === 0 ? String(s.step) : '';
      out.push(`${mark} ${step.padStart(stepWidth)}  ${printable(s.joinstep[i] ?? '').padEnd(width)}  | ${printable(s.flink[i] ?? '')}`);
    }
  }
  out.push('');
  out.push(...changelogVerdict(diff));
  out.push(...resultVerdict(diff));
  out.push(...watermarkVerdict(diff));
  return out;
}

function marker(s: StepDiff, first: number | undefined): string {
  if (s.step === first) return '>>';
  if (!s.agree) return ' !';
  if (s.unordered) return ' ~';
  return '  ';
}

function changelogVerdict(diff: RunDiff): string[] {
  const rows = diff.steps.reduce((n, s) => n + s.flink.length, 0);
  const out: string[] = [];
  if (diff.changelogAgrees) out.push(`changelog: agrees (${rows} row${rows === 1 ? '' : 's'} in ${diff.steps.length} step${diff.steps.length === 1 ? '' : 's'})`);
  else {
    const differing = diff.steps.filter((s) => !s.agree).length;
    out.push(`changelog: DIFFERS — first difference at step ${diff.firstDifference} (marked >>; ${differing} step${differing === 1 ? '' : 's'} differ, marked !)`);
    if (diff.steps.every((s) => s.agree || sameRows(s.joinstep, s.flink))) {
      out.push(
        `  every differing step holds the same rows in another order: an order of Flink's that joinstep does not reproduce (its hash maps' and its timer heap's are modelled; please report the scenario)`,
      );
    }
  }
  const n = diff.unorderedCompared.length;
  if (n > 0) {
    const reordered = diff.steps.filter((s) => s.orderOnly).length;
    out.push(
      `  ${n} step${n === 1 ? '' : 's'} compared as a multiset, not in order (marked ~): Flink's order of rows within ${n === 1 ? 'it' : 'them'} depends on its state layout: step${n === 1 ? '' : 's'} ${diff.unorderedCompared.join(', ')}` +
        (reordered > 0 ? `; in ${reordered} of them joinstep printed the same rows in another order` : ''),
    );
  }
  return out;
}

function sameRows(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

function resultVerdict(diff: RunDiff): string[] {
  const r = diff.result;
  if (r.agree) return [`result: agrees (${r.flink.length} row${r.flink.length === 1 ? '' : 's'})`];
  const out = ['result: DIFFERS (- joinstep only, + Flink only)'];
  const theirs = [...r.flink];
  for (const row of r.joinstep) {
    const at = theirs.indexOf(row);
    if (at >= 0) theirs.splice(at, 1);
    else out.push(`  - ${printable(row)}`);
  }
  for (const row of theirs) out.push(`  + ${printable(row)}`);
  return out;
}

function watermarkVerdict(diff: RunDiff): string[] {
  const w = diff.watermarks;
  if (w === undefined) return ['watermarks: not compared (the harness reported none)'];
  if (w.agree) return [`watermarks: agree (${w.count} emitted by the join)`];
  const d = w.firstDifference!;
  return [`watermarks: DIFFER — at step ${d.step}: joinstep emitted ${listMarks(d.joinstep)}, Flink ${listMarks(d.flink)}`];
}

function listMarks(values: readonly number[]): string {
  return values.length === 0 ? 'none' : values.map(watermarkText).join(', ');
}

/** A watermark as the scenario's times read (UTC wall clock), or the end/start of time. */
export function watermarkText(ms: number): string {
  if (ms >= WM_MAX) return 'max';
  if (ms <= WM_MIN) return 'min';
  return formatTimestamp(ms, 3);
}
