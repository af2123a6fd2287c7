// The sink: retract result (multiset), upsert result by primary key, SinkUpsertMaterializer (notes §7).
import { describe, expect, it, vi } from 'vitest';
vi.mock('../../src/values/eval.js', async () => ({ compileExpr: (await import('./mock-eval.js')).miniCompile }));
import { resultRows } from '../../src/engine/describe.js';
import type { JoinOperator } from '../../src/engine/types.js';
import { STEP_EMIT, STEP_RETRACT } from '../../src/engine/types.js';
import type { Plan, SinkPlan } from '../../src/planner/plan.js';
import { call, col, ev, INT, ordersRates, plan, scenario, STRING } from './fixtures.js';
import { runSteps } from './helpers.js';
import { stateViewOf } from '../../src/engine/describe.js';

/** Every left row is emitted as is, with its own kind: the sink sees exactly the script. */
const echo = (): JoinOperator<unknown> => ({
  init: () => null,
  processElement(s, _side, kind, row, _t, out) {
    out.emit(kind, row, { rule: 'echo', text: 'echo' });
    return s;
  },
  onWatermark: (s) => s,
  onProcessingTime: (s) => s,
  nextProcessingTimer: () => undefined,
  outputWatermarkDelay: 0,
  describe: () => stateViewOf('', []),
});

const { orders, rates } = ordersRates();
const types = [STRING, INT];
/** Output (k, v): orders columns k and id → here we feed ['k', ts, 'id'] and project k, ts. */
function sinkPlan(sink?: Partial<SinkPlan>, upsertKeys: number[][] = []): Plan {
  const base = plan(orders, rates, { project: [col(0), col(1, INT)] });
  return {
    ...base,
    output: { names: ['k', 'v'], types, changelogMode: ['+I', '-U', '+U', '-D'], upsertKeys },
    sink: sink === undefined ? undefined : { table: 'out', upsertMaterialize: false, columns: [{ name: 'k', type: STRING }, { name: 'v', type: INT }], ...sink },
  };
}

const row = (k: string, v: number, op: '+I' | '-U' | '+U' | '-D' = '+I') => ev.row('orders', [k, v, 'x'], op);

describe('retract result', () => {
  it('is a multiset: duplicates count, a retraction removes one', () => {
    const { ctx, final, recs } = runSteps(scenario(sinkPlan(), [row('a', 1), row('a', 1), row('b', 2), row('a', 1, '-D')]), echo);
    expect(resultRows(ctx, final)).toEqual(['[a, 1]', '[b, 2]']);
    expect(recs[3]!.flags & STEP_RETRACT).toBe(STEP_RETRACT);
    expect(recs[0]!.flags & STEP_EMIT).toBe(STEP_EMIT);
    expect(final.changelog.n).toBe(4);
  });

  it('the WHERE after the join drops rows before the sink', () => {
    const gt = call('>', { kind: 'BOOLEAN', nullable: true }, col(1, INT), { k: 'lit', value: 1, type: INT });
    const { ctx, final } = runSteps(scenario({ ...sinkPlan(), postFilter: gt }, [row('a', 1), row('b', 2)]), echo);
    expect(resultRows(ctx, final)).toEqual(['[b, 2]']);
  });
});

describe('upsert sink without materializer', () => {
  it('keeps the last row per primary key; -U deletes by key', () => {
    const { ctx, final } = runSteps(scenario(sinkPlan({ primaryKey: [0] }), [row('a', 1), row('a', 2, '+U'), row('b', 3), row('b', 3, '-U')]), echo);
    expect(resultRows(ctx, final)).toEqual(['[a, 2]']);
  });
});

describe('SinkUpsertMaterializer', () => {
  const sum = (events: ReturnType<typeof row>[], upsertKeys: number[][] = []) =>
    runSteps(scenario(sinkPlan({ primaryKey: [0], upsertMaterialize: true }, upsertKeys), events), echo);
  const lines = (r: ReturnType<typeof sum>) => r.recs.flatMap((x) => x.emitted.map((e) => `${e.kind}${JSON.stringify(e.row)}`));

  it('+I on an empty key, +U when rows are already live; never -U', () => {
    const r = sum([row('k', 1), row('k', 2)]);
    expect(lines(r)).toEqual(['+I["k",1]', '+U["k",2]']);
  });

  it('retracting an older live row emits nothing; the sink keeps the newest', () => {
    const r = sum([row('k', 1), row('k', 2), row('k', 1, '-U')]);
    expect(lines(r)).toEqual(['+I["k",1]', '+U["k",2]']);
    expect(resultRows(r.ctx, r.final)).toEqual(['[k, 2]']);
  });

  it('retracting the newest row re-emits the previous one as +U; the last one out is -D with its own values', () => {
    const r = sum([row('k', 1), row('k', 2), row('k', 2, '-U'), row('k', 1, '-D')]);
    expect(lines(r)).toEqual(['+I["k",1]', '+U["k",2]', '+U["k",1]', '-D["k",1]']);
    expect(resultRows(r.ctx, r.final)).toEqual([]);
  });

  it('a retraction of a row it does not hold is ignored', () => {
    const r = sum([row('k', 1), row('k', 9, '-D')]);
    expect(lines(r)).toEqual(['+I["k",1]']);
  });

  it('with an upsert key a new row replaces the one with the same upsert key in place', () => {
    // upsert key = column 1 (v): (k,1) then (k,1) again replaces, so a later -U of it empties the key
    const r = sum([row('k', 1), row('k', 1, '+U'), row('k', 1, '-U')], [[1]]);
    expect(lines(r)).toEqual(['+I["k",1]', '+U["k",1]', '-D["k",1]']);
  });
});
