/**
 * The interval and temporal operators change their state in place inside a transient edit
 * (edit.ts). That must be invisible: a run inside edits (a new one after every kept snapshot, as
 * the timeline does at checkpoints) emits exactly what a fully persistent run emits, and every
 * snapshot kept along the way still describes the same state after the run went on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newEdit, useEdit, type Edit } from '../../../src/engine/collections/edit.js';
import { createOperator } from '../../../src/engine/joins/registry.js';
import type { Collector, JoinOperator, OpTime } from '../../../src/engine/types.js';
import { STEP_EXPIRE, STEP_LATE_DROP, WM_MIN } from '../../../src/engine/types.js';
import type { JoinType, TimeAttrKind } from '../../../src/planner/plan.js';
import { makePlan } from './interval-temporal-harness.js';

type Ev = { k: 'row'; side: 0 | 1; key: string; t: number; v: string } | { k: 'wm'; to: number } | { k: 'proc'; by: number };

const evArb: fc.Arbitrary<Ev> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant('row' as const), side: fc.constantFrom(0 as const, 1 as const), key: fc.constantFrom('a', 'b', 'c'), t: fc.integer({ min: 0, max: 60 }), v: fc.constantFrom('x', 'y') }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('wm' as const), to: fc.integer({ min: 0, max: 70 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('proc' as const), by: fc.integer({ min: 1, max: 15 }) }) },
);

interface Config {
  family: 'interval' | 'temporal';
  joinType: JoinType;
  timeKind: TimeAttrKind;
}

const configArb: fc.Arbitrary<Config> = fc.oneof(
  fc.record({ family: fc.constant('interval' as const), joinType: fc.constantFrom<JoinType>('inner', 'left', 'right', 'full'), timeKind: fc.constantFrom<TimeAttrKind>('rowtime', 'proctime') }),
  fc.record({ family: fc.constant('temporal' as const), joinType: fc.constantFrom<JoinType>('inner', 'left'), timeKind: fc.constant<TimeAttrKind>('rowtime') }),
);

function operatorFor(c: Config): JoinOperator<unknown> {
  const plan = makePlan({
    family: c.family,
    joinType: c.joinType,
    keyIdx: 1,
    timeKind: c.timeKind,
    ...(c.family === 'interval' ? { interval: { lowerMs: -10, upperMs: 5, minCleanupMs: 0 } } : { stateTtlMs: 40 }),
  });
  return createOperator(plan);
}

interface RunResult {
  readonly log: string[];
  readonly kept: { readonly state: unknown; readonly time: OpTime; readonly described: string }[];
  readonly final: string;
}

function describeAll(op: JoinOperator<unknown>, s: unknown, time: OpTime): string {
  return JSON.stringify([op.describe(s, 0, time), op.describe(s, 1, time), op.nextProcessingTimer(s)]);
}

/** Runs the events; with `editEvery`, inside edits, keeping a snapshot before each new edit. */
function run(c: Config, events: readonly Ev[], editEvery: number | null): RunResult {
  const op = operatorFor(c);
  const log: string[] = [];
  const out: Collector = {
    emit: (kind, row, why) => log.push(`${kind}${JSON.stringify(row)} ${why.rule}`),
    trace: () => undefined,
    // What the bulk run's step flags record: one flag per expired row and per late drop.
    flag: (f) => {
      if ((f & STEP_EXPIRE) !== 0) log.push('state.expire');
      if ((f & STEP_LATE_DROP) !== 0) log.push('drop.late');
    },
    tracing: false,
  };
  const kept: { state: unknown; time: OpTime; described: string }[] = [];
  let s = op.init();
  let wm = WM_MIN;
  let proc = 0;
  let edit: Edit | null = editEvery === null ? null : newEdit();
  events.forEach((e, i) => {
    const time = (): OpTime => ({ procTime: proc, watermark: wm });
    if (editEvery !== null && i % editEvery === 0) {
      kept.push({ state: s, time: time(), described: describeAll(op, s, time()) });
      edit = newEdit();
    }
    const prev = useEdit(edit);
    try {
      if (e.k === 'row') s = op.processElement(s, e.side, '+I', [e.t, e.key, e.v], time(), out);
      else if (e.k === 'wm' && e.to > wm) {
        wm = e.to;
        s = op.onWatermark(s, time(), out);
      } else if (e.k === 'proc') {
        proc += e.by;
        s = op.onProcessingTime(s, time(), out);
      }
    } finally {
      useEdit(prev);
    }
  });
  return { log, kept, final: describeAll(op, s, { procTime: proc, watermark: wm }) };
}

describe('interval / temporal operators under transient edits', () => {
  it('emit the same as a persistent run, and never change a kept snapshot', () => {
    fc.assert(
      fc.property(configArb, fc.array(evArb, { maxLength: 120 }), fc.integer({ min: 1, max: 12 }), (c, events, every) => {
        const persistent = run(c, events, null);
        const edited = run(c, events, every);
        expect(edited.log).toEqual(persistent.log);
        expect(edited.final).toEqual(persistent.final);
        const op = operatorFor(c);
        for (const k of edited.kept) expect(describeAll(op, k.state, k.time)).toEqual(k.described);
      }),
      { numRuns: 300 },
    );
  });
});
