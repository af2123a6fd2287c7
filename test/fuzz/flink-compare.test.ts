import { describe, expect, it } from 'vitest';
import { compareChangelog, compareResponses, type FlinkResponse } from '../../src/fuzz/flink-compare.js';
import type { JoinstepOutcome } from '../../src/fuzz/joinstep-run.js';
import type { Scenario } from '../../src/scenario/types.js';

const scenario = {} as Scenario;
const ran = (changelog: [number, string][], result: string[] = [], watermarks: { step: number; value: number }[] = []): JoinstepOutcome =>
  ({ kind: 'ran', scenario, changelog: changelog.map(([step, text]) => ({ step, op: text.slice(0, 2), text })), result, watermarks });
const flink = (changelog: [number, string][], extra: Partial<FlinkResponse> = {}): FlinkResponse =>
  ({ ok: true, changelog: changelog.map(([step, text]) => ({ step, op: text.slice(0, 2), text })), result: [], ...extra });

describe('comparing joinstep with Flink', () => {
  it('compares each step in order, and as a multiset only where Flink says its order is not deterministic', () => {
    const mine = [[3, '+I[a]'], [3, '+I[b]']] as [number, string][];
    const theirs = [[3, '+I[b]'], [3, '+I[a]']] as [number, string][];
    // the same rows in another order differ: Flink's orders (hash maps, timer heap) are modelled
    expect(compareResponses(ran(mine) as never, flink(theirs))).toEqual({ verdict: 'differ', detail: 'changelog at step 3: joinstep [+I[a]; +I[b]], Flink [+I[b]; +I[a]]' });
    expect(compareResponses(ran(mine) as never, flink(theirs, { unorderedSteps: [3] }))).toEqual({ verdict: 'agree', detail: '' });
    // another multiset is a disagreement whatever the order
    expect(compareResponses(ran(mine) as never, flink([[3, '+I[b]'], [3, '+I[c]']])).verdict).toBe('differ');
    expect(compareResponses(ran([[3, '+I[a]'], [3, '+I[a]']]) as never, flink([[3, '+I[a]']])).verdict).toBe('differ');
    // the same row one step later is a disagreement at the first step that differs
    expect(compareChangelog([{ step: 2, op: '+I', text: '+I[a]' }], [{ step: 3, op: '+I', text: '+I[a]' }], new Set()))
      .toBe('changelog at step 2: joinstep [+I[a]], Flink []');
  });

  it('reports a different final result or output watermark', () => {
    expect(compareResponses(ran([], ['[a]']) as never, flink([], { result: ['[b]'] })).detail).toBe('result: joinstep [[a]], Flink [[b]]');
    const w = compareResponses(ran([], [], [{ step: 2, value: 5 }]) as never, flink([], { watermarks: [{ step: 3, value: 5 }] }));
    expect(w).toEqual({ verdict: 'differ', detail: 'watermarks: joinstep 2:5, Flink 3:5' });
    // several emissions in one step, or a repeated value, compare by where the watermark ended up
    const same = compareResponses(ran([], [], [{ step: 2, value: 7 }]) as never, flink([], { watermarks: [{ step: 2, value: 5 }, { step: 2, value: 7 }, { step: 4, value: 7 }] }));
    expect(same.verdict).toBe('agree');
  });

  it('treats a query one side rejects and the other runs as a disagreement, never as not expressible', () => {
    const rejected: JoinstepOutcome = { kind: 'rejected', message: '12:3: Temporal Table Join requires primary key in versioned table, but no primary key can be found.' };
    expect(compareResponses(rejected as never, flink([])).verdict).toBe('differ');
    const planError = (message: string): FlinkResponse => ({ ok: false, phase: 'plan', error: { class: 'org.apache.flink.table.api.ValidationException', message } });
    expect(compareResponses(rejected as never, planError('Temporal Table Join requires primary key in versioned table, but no primary key can be found. The physical plan is: ...')).verdict).toBe('rejected');
    expect(compareResponses(rejected as never, planError('Processing-time temporal join is not supported yet.')).verdict).toBe('differ');
    expect(compareResponses(ran([]) as never, planError('anything')).verdict).toBe('differ');
    expect(compareResponses(ran([]) as never, { ok: true, notExpressible: 'uses a connector option the harness has no factory for' }).verdict).toBe('not-expressible');
    // a rejected query is sent to Flink: Flink running it is a disagreement
    expect(compareResponses(rejected as never, { ok: false, phase: 'run', error: { class: 'x', message: 'y' } }).verdict).toBe('differ');
  });
});
