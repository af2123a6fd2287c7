/**
 * The step-aligned comparison of joinstep's run with Flink's, and how it is printed: in order
 * within a step unless Flink names the step unordered (then a multiset, counted and said),
 * the first difference marked, control characters escaped.
 */
import { describe, expect, it } from 'vitest';
import { formatRunDiff } from '../../src/flink/diff-report.js';
import { parseResponse } from '../../src/flink/harness-client.js';
import type { SideRun } from '../../src/flink/joinstep-side.js';
import { diffRuns } from '../../src/flink/step-diff.js';

const run = (rows: [number, string][], result: string[], watermarks?: [number, number][]): SideRun => ({
  changelog: rows.map(([step, text]) => ({ step, text })),
  result,
  ...(watermarks !== undefined ? { watermarks: watermarks.map(([step, value]) => ({ step, value })) } : {}),
});

describe('diffRuns', () => {
  it('agrees when every step emits the same rows in the same order', () => {
    const a = run([[3, '+I[a]'], [5, '-U[a]'], [5, '+U[b]']], ['[b]'], [[5, 100]]);
    const d = diffRuns(a, a);
    expect(d.agree).toBe(true);
    expect(d.steps.map((s) => s.step)).toEqual([3, 5]);
    expect(d.firstDifference).toBeUndefined();
  });

  it('finds the first step that differs, even when the totals match', () => {
    const mine = run([[2, '+I[a]'], [4, '+I[b]']], ['[a]', '[b]']);
    const flink = run([[2, '+I[a]'], [3, '+I[b]']], ['[a]', '[b]']);
    const d = diffRuns(mine, flink);
    expect(d.agree).toBe(false);
    expect(d.firstDifference).toBe(3);
    expect(d.result.agree).toBe(true);
    expect(d.steps.filter((s) => !s.agree).map((s) => s.step)).toEqual([3, 4]);
  });

  it('compares order within a step unless Flink names the step unordered', () => {
    const mine = run([[7, '+I[a]'], [7, '+I[b]']], ['[a]', '[b]']);
    const flink = run([[7, '+I[b]'], [7, '+I[a]']], ['[a]', '[b]']);
    expect(diffRuns(mine, flink).agree).toBe(false);
    const loose = diffRuns(mine, flink, [7]);
    expect(loose.agree).toBe(true);
    expect(loose.unorderedCompared).toEqual([7]);
    expect(loose.steps[0]!.orderOnly).toBe(true);
  });

  it('an unordered step still differs when its rows are not the same multiset', () => {
    const mine = run([[7, '+I[a]'], [7, '+I[a]']], ['[a]', '[a]']);
    const flink = run([[7, '+I[a]'], [7, '+I[b]']], ['[a]', '[b]']);
    const d = diffRuns(mine, flink, [7]);
    expect(d.agree).toBe(false);
    expect(d.firstDifference).toBe(7);
  });

  it('compares the final result as a multiset and the watermarks step by step', () => {
    const mine = run([[1, '+I[a]']], ['[a]'], [[2, 100], [3, 200]]);
    const flink = run([[1, '+I[a]']], ['[a]'], [[2, 100], [3, 199]]);
    const d = diffRuns(mine, flink);
    expect(d.changelogAgrees).toBe(true);
    expect(d.watermarks?.agree).toBe(false);
    expect(d.watermarks?.firstDifference).toEqual({ step: 3, joinstep: [200], flink: [199] });
    expect(d.agree).toBe(false);
  });

  it('does not compare watermarks that Flink did not report', () => {
    const d = diffRuns(run([], [], [[1, 5]]), run([], []));
    expect(d.watermarks).toBeUndefined();
    expect(d.agree).toBe(true);
  });

  it('a different final result is a disagreement on its own', () => {
    const d = diffRuns(run([], ['[a]']), run([], ['[b]']));
    expect(d.result.agree).toBe(false);
    expect(d.agree).toBe(false);
  });
});

describe('formatRunDiff', () => {
  it('prints both changelogs side by side and marks the first difference', () => {
    const mine = run([[2, '+I[a]'], [4, '+I[b]']], ['[a]', '[b]']);
    const flink = run([[2, '+I[a]'], [4, '+I[c]']], ['[a]', '[c]']);
    const text = formatRunDiff(diffRuns(mine, flink), 'Flink 2.3.0');
    expect(text[0]).toMatch(/step\s+joinstep\s+\| Flink 2\.3\.0$/);
    expect(text.find((l) => l.startsWith('>>'))).toMatch(/^>>\s+4\s+\+I\[b\]\s+\| \+I\[c\]$/);
    expect(text.filter((l) => l.startsWith('>>'))).toHaveLength(1);
    expect(text).toContain('changelog: DIFFERS — first difference at step 4 (marked >>; 1 step differ, marked !)');
    expect(text).toContain('  - [b]');
    expect(text).toContain('  + [c]');
    expect(text.join('\n')).not.toContain('same rows in another order');
  });

  it('says when every differing step holds the same rows in another order', () => {
    const mine = run([[5, '+I[a]'], [22, '+I[o0]'], [22, '+I[o1]'], [22, '+I[o2]']], ['[a]', '[o0]', '[o1]', '[o2]']);
    const flink = run([[5, '+I[a]'], [22, '+I[o0]'], [22, '+I[o2]'], [22, '+I[o1]']], ['[a]', '[o0]', '[o1]', '[o2]']);
    const text = formatRunDiff(diffRuns(mine, flink), 'Flink 2.3.0').join('\n');
    expect(text).toContain('changelog: DIFFERS — first difference at step 22');
    expect(text).toContain('every differing step holds the same rows in another order');
    expect(text).toContain("an order of Flink's that joinstep does not reproduce");
    // One step with other rows: the order note would mislead, so it is not printed.
    const other = run([[5, '+I[b]'], [22, '+I[o0]'], [22, '+I[o2]'], [22, '+I[o1]']], ['[b]', '[o0]', '[o1]', '[o2]']);
    expect(formatRunDiff(diffRuns(mine, other), 'Flink').join('\n')).not.toContain('same rows in another order');
  });

  it('says how many steps were compared as a multiset, and names them', () => {
    const mine = run([[7, '+I[a]'], [7, '+I[b]'], [9, '+I[c]']], ['[a]', '[b]', '[c]']);
    const flink = run([[7, '+I[b]'], [7, '+I[a]'], [9, '+I[c]']], ['[a]', '[b]', '[c]']);
    const text = formatRunDiff(diffRuns(mine, flink, [7, 9]), 'Flink 2.3.0').join('\n');
    expect(text).toContain('1 step compared as a multiset, not in order (marked ~)');
    expect(text).toContain('step 7; in 1 of them joinstep printed the same rows in another order');
    expect(text).toMatch(/^ ~\s+7 /m);
  });

  it('escapes control characters from the scenario', () => {
    const rows = run([[1, '+I[a\u001b[31mred]']], ['[a\u001b[31mred]']);
    const text = formatRunDiff(diffRuns(rows, rows), 'Flink').join('\n');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('a\\u001b[31mred');
  });
});

describe('parseResponse', () => {
  it('reads a run answer, turning Long.MAX_VALUE into joinstep\'s end-of-input watermark', () => {
    const r = parseResponse(
      '{"id":"r1","ok":true,"flinkVersion":"2.3.0","plan":"p","pinnedConfig":{"a":"b"},"changelog":[{"step":3,"op":"+I","text":"+I[x]"}],"result":["[x]"],"watermarks":[{"step":4,"value":9223372036854775807}],"unorderedSteps":[3],"notExpressible":null}',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.watermarks).toEqual([{ step: 4, value: Number.MAX_SAFE_INTEGER }]);
    expect(r.unorderedSteps).toEqual([3]);
    expect(r.changelog).toEqual([{ step: 3, op: '+I', text: '+I[x]' }]);
  });

  it('reads a rejection with its class, message and root cause', () => {
    const r = parseResponse('{"id":"r2","ok":false,"phase":"plan","error":{"class":"org.apache.flink.table.api.ValidationException","message":"m","rootCause":"c"}}');
    expect(r).toEqual({ id: 'r2', ok: false, phase: 'plan', error: { class: 'org.apache.flink.table.api.ValidationException', message: 'm', rootCause: 'c' } });
  });

  it('refuses an answer of the wrong shape instead of guessing', () => {
    expect(() => parseResponse('{"id":"r1","ok":true,"changelog":[{"text":"+I[x]"}]}')).toThrow(/step/);
    expect(() => parseResponse('{"id":"r1"}')).toThrow(/ok/);
    expect(() => parseResponse('not json')).toThrow();
  });
});
