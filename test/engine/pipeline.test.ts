// The per-input pipeline: ChangelogNormalize (processLastRowOnChangelog), filter, dedup, DropUpdateBefore.
import { describe, expect, it, vi } from 'vitest';
vi.mock('../../src/values/eval.js', async () => ({ compileExpr: (await import('./mock-eval.js')).miniCompile }));
import type { JoinOperator } from '../../src/engine/types.js';
import type { Plan } from '../../src/planner/plan.js';
import type { Row, RowKind } from '../../src/values/types.js';
import { call, col, CONFIG, ev, INT, input, lit, ordersRates, plan, scenario, STRING, table, TS } from './fixtures.js';
import { runSteps } from './helpers.js';
import { stateViewOf } from '../../src/engine/describe.js';

/** An operator that records what reaches it. */
function recorder(): { factory: (p: Plan) => JoinOperator<unknown>; seen: [number, RowKind, Row][] } {
  const seen: [number, RowKind, Row][] = [];
  const op: JoinOperator<null> = {
    init: () => null,
    processElement(s, side, kind, row) {
      seen.push([side, kind, row]);
      return s;
    },
    onWatermark: (s) => s,
    onProcessingTime: (s) => s,
    nextProcessingTimer: () => undefined,
    outputWatermarkDelay: 0,
    describe: () => stateViewOf('', []),
  };
  return { factory: () => op as JoinOperator<unknown>, seen };
}

const { orders } = ordersRates();
const rates = table({ name: 'rates', columns: [['k', STRING], ['ts', TS], ['v', INT]], watermarkOn: 1, primaryKey: [0], nature: 'upsert' });

function normalized(extra: Partial<Parameters<typeof input>[1]> = {}) {
  return plan(orders, rates, {}, [input(orders), input(rates, { changelogNormalize: { key: [0] }, changelogMode: ['+I', '-U', '+U', '-D'], ...extra })]);
}

describe('ChangelogNormalize', () => {
  it('first +U becomes +I; a changed row becomes -U old, +U new; -D sends the stored row', () => {
    const r = recorder();
    runSteps(
      scenario(normalized(), [ev.row('rates', ['EUR', 1, 10], '+U'), ev.row('rates', ['EUR', 2, 11], '+U'), ev.row('rates', ['EUR', null, null], '-D')]),
      r.factory,
    );
    expect(r.seen).toEqual([
      [1, '+I', ['EUR', 1, 10]],
      [1, '-U', ['EUR', 1, 10]],
      [1, '+U', ['EUR', 2, 11]],
      [1, '-D', ['EUR', 2, 11]],
    ]);
  });

  it('drops an identical update unless state TTL is on', () => {
    const r = recorder();
    runSteps(scenario(normalized(), [ev.row('rates', ['EUR', 1, 10]), ev.row('rates', ['EUR', 1, 10])]), r.factory);
    expect(r.seen).toHaveLength(1);
    const t = recorder();
    runSteps(scenario(normalized(), [ev.row('rates', ['EUR', 1, 10]), ev.row('rates', ['EUR', 1, 10])], { config: { ...CONFIG, stateTtlMs: 1000 } }), t.factory);
    expect(t.seen.map((s) => s[1])).toEqual(['+I', '-U', '+U']);
  });

  it('a delete of a key never seen emits nothing; -U is normalized to -D', () => {
    const r = recorder();
    runSteps(scenario(normalized(), [ev.row('rates', ['USD', null, null], '-D'), ev.row('rates', ['EUR', 1, 10]), ev.row('rates', ['EUR', 1, 10], '-U')]), r.factory);
    expect(r.seen).toEqual([
      [1, '+I', ['EUR', 1, 10]],
      [1, '-D', ['EUR', 1, 10]],
    ]);
  });

  it('with DropUpdateBefore no -U reaches the operator', () => {
    const r = recorder();
    runSteps(scenario(normalized({ dropUpdateBefore: true }), [ev.row('rates', ['EUR', 1, 10]), ev.row('rates', ['EUR', 2, 11])]), r.factory);
    expect(r.seen.map((s) => s[1])).toEqual(['+I', '+U']);
  });

  const gt5 = call('>', { kind: 'BOOLEAN', nullable: true }, col(2, INT), lit(5));
  const withVersion = (p: Plan, v: Plan['flinkVersion']): Plan => ({ ...p, flinkVersion: v });

  it('2.1+: the filter runs inside the normalize: an update leaving it deletes the stored row', () => {
    const r = recorder();
    runSteps(scenario(normalized({ filter: gt5 }), [ev.row('rates', ['EUR', 1, 10]), ev.row('rates', ['EUR', 2, 3]), ev.row('rates', ['EUR', 3, 12])]), r.factory);
    expect(r.seen).toEqual([
      [1, '+I', ['EUR', 1, 10]],
      [1, '-D', ['EUR', 1, 10]],
      [1, '+I', ['EUR', 3, 12]],
    ]);
  });

  it('2.1+: a first row failing the filter is not stored, so a later delete emits nothing', () => {
    const r = recorder();
    runSteps(scenario(normalized({ filter: gt5 }), [ev.row('rates', ['EUR', 1, 3]), ev.row('rates', ['EUR', null, null], '-D')]), r.factory);
    expect(r.seen).toEqual([]);
  });

  it('2.0: the filter is a Calc over the normalized changelog: the update leaves a lone -U', () => {
    const r = recorder();
    const p = withVersion(normalized({ filter: gt5 }), '2.0');
    runSteps(scenario(p, [ev.row('rates', ['EUR', 1, 10]), ev.row('rates', ['EUR', 2, 3])]), r.factory);
    expect(r.seen).toEqual([
      [1, '+I', ['EUR', 1, 10]],
      [1, '-U', ['EUR', 1, 10]],
    ]);
  });

  it('a CDC +U equal to the stored +I row: dropped from 2.2 (FLINK-38217), -U/+U before', () => {
    const cdcRates = table({ name: 'rates', columns: [['k', STRING], ['ts', TS], ['v', INT]], watermarkOn: 1, primaryKey: [0], nature: 'changelog' });
    const cdc = () => plan(orders, cdcRates, {}, [input(orders), input(cdcRates, { changelogNormalize: { key: [0] }, changelogMode: ['+I', '-U', '+U', '-D'] })]);
    const events = [ev.row('rates', ['EUR', 1, 10]), ev.row('rates', ['EUR', 1, 10], '+U')];
    const newer = recorder();
    runSteps(scenario(withVersion(cdc(), '2.2'), events), newer.factory);
    expect(newer.seen.map((s) => s[1])).toEqual(['+I']);
    const older = recorder();
    runSteps(scenario(withVersion(cdc(), '2.1'), events), older.factory);
    expect(older.seen.map((s) => s[1])).toEqual(['+I', '-U', '+U']);
  });

  it('upsert-kafka reads every value as +I, so its repeated row is dropped before 2.2 too', () => {
    const events = [ev.row('rates', ['EUR', 1, 10]), ev.row('rates', ['EUR', 1, 10], '+U')];
    const older = recorder();
    runSteps(scenario(withVersion(normalized(), '2.1'), events), older.factory);
    expect(older.seen.map((s) => s[1])).toEqual(['+I']);
  });
});

describe('filter, dedup and projection', () => {
  it('an append input filters before anything else and projects last', () => {
    const r = recorder();
    const filter = call('=', { kind: 'BOOLEAN', nullable: true }, col(2), lit('keep', STRING));
    const p = plan(orders, rates, {}, [input(orders, { filter, project: [col(2), col(0)] }), input(rates)]);
    runSteps(scenario(p, [ev.row('orders', ['a', 1, 'drop']), ev.row('orders', ['a', 1, 'keep'])]), r.factory);
    expect(r.seen).toEqual([[0, '+I', ['keep', 'a']]]);
  });

  it('ROW_NUMBER keep-last on rowtime keeps the newest row, -U/+U on replacement, drops older rows', () => {
    const r = recorder();
    const dedup = { deduplicate: { key: [0], orderBy: 1, keepLast: true }, changelogMode: ['+I', '-U', '+U'] as const };
    const p = plan(orders, rates, {}, [input(orders), input(rates, dedup)]);
    const plainRates = table({ name: 'rates', columns: [['k', STRING], ['ts', TS], ['v', INT]], watermarkOn: 1 });
    const p2 = { ...p, tables: [orders, plainRates] };
    runSteps(scenario(p2, [ev.row('rates', ['EUR', 10, 1]), ev.row('rates', ['EUR', 5, 2]), ev.row('rates', ['EUR', 20, 3])]), r.factory);
    expect(r.seen).toEqual([
      [1, '+I', ['EUR', 10, 1]],
      [1, '-U', ['EUR', 10, 1]],
      [1, '+U', ['EUR', 20, 3]],
    ]);
  });

  it('a deduplication feeding a consumer without -U (a versioned side) sends only +U', () => {
    const r = recorder();
    const dedup = { deduplicate: { key: [0], orderBy: 1, keepLast: true }, changelogMode: ['+I', '+U'] as const };
    const p = plan(orders, rates, {}, [input(orders), input(rates, dedup)]);
    const plainRates = table({ name: 'rates', columns: [['k', STRING], ['ts', TS], ['v', INT]], watermarkOn: 1 });
    runSteps(scenario({ ...p, tables: [orders, plainRates] }, [ev.row('rates', ['EUR', 10, 1]), ev.row('rates', ['EUR', 20, 3])]), r.factory);
    expect(r.seen).toEqual([
      [1, '+I', ['EUR', 10, 1]],
      [1, '+U', ['EUR', 20, 3]],
    ]);
  });
});
