/**
 * Lookup join, in the style of Flink's LookupJoinHarnessTest / DefaultLookupCacheTest: feed rows and
 * store writes at given processing times, assert the exact output (kinds included) and the trace.
 */
import { describe, expect, it } from 'vitest';
import type { LookupCacheConfig, Plan, TExpr } from '../../../src/planner/plan.js';
import { createLookupJoin, type LookupJoinState } from '../../../src/engine/joins/lookup/lookup-join.js';
import type { Collector, JoinOperator, TraceEvent, Why } from '../../../src/engine/types.js';
import type { Row, RowKind, SqlType } from '../../../src/values/types.js';

const STR: SqlType = { kind: 'STRING', nullable: true };
const INT: SqlType = { kind: 'INT', nullable: true };
const col = (index: number, name: string, type: SqlType = STR): TExpr => ({ k: 'col', index, name, type });
const MIN = 60_000;

function lookupPlan(opts: { joinType?: 'inner' | 'left'; cache?: LookupCacheConfig; residual?: TExpr } = {}): Plan {
  const orders = [
    { name: 'order_id', type: STR },
    { name: 'customer_id', type: STR },
    { name: 'amount', type: INT },
  ];
  const customers = [
    { name: 'customer_id', type: { ...STR, nullable: false } },
    { name: 'tier', type: STR },
    { name: 'min_amount', type: INT },
  ];
  const span = { start: 0, end: 0 };
  const base = {
    dropUpdateBefore: false,
    upsertKeys: [],
    stateTtlMs: 0,
    stateTtlSource: 'none' as const,
  };
  return {
    family: 'lookup',
    joinType: opts.joinType ?? 'inner',
    tables: [
      { name: 'orders', columns: orders.map((c) => ({ ...c, kind: 'physical' as const, span })), options: [], connector: 'kafka', nature: 'append', span },
      {
        name: 'customers',
        columns: customers.map((c) => ({ ...c, kind: 'physical' as const, span })),
        primaryKey: [0],
        options: [],
        connector: 'jdbc',
        nature: 'lookup',
        span,
        ...(opts.cache ? { lookupCache: opts.cache } : {}),
      },
    ],
    inputs: [
      { ...base, table: 'orders', alias: 'o', columns: orders, changelogMode: ['+I', '-U', '+U', '-D'] },
      { ...base, table: 'customers', alias: 'c', columns: customers, changelogMode: ['+I'] },
    ],
    keys: { left: [1], right: [0], nullSafe: [false] },
    ...(opts.residual ? { residual: opts.residual } : {}),
    lookup: { keys: [{ rightColumn: 0, left: col(1, 'customer_id') }], ...(opts.cache ? { cache: opts.cache } : {}) },
    project: [],
    output: { names: [], types: [], changelogMode: ['+I'], upsertKeys: [] },
    flinkVersion: '2.3',
    notes: [],
  };
}

interface Out {
  readonly rows: string[];
  readonly why: Why[];
  readonly trace: TraceEvent[];
}

class Harness {
  private state: LookupJoinState;
  readonly out: Out = { rows: [], why: [], trace: [] };
  constructor(private readonly op: JoinOperator<LookupJoinState>) {
    this.state = op.init();
  }
  private collector(): Collector {
    return {
      emit: (kind, joined, why) => {
        this.out.rows.push(`${kind}[${joined.map((v) => (v === null ? 'null' : String(v))).join(', ')}]`);
        this.out.why.push(why);
      },
      trace: (ev) => this.out.trace.push(ev),
      flag: () => undefined,
      tracing: true,
    };
  }
  write(at: number, kind: RowKind, row: Row): void {
    this.state = this.op.processStoreWrite!(this.state, kind, row, { procTime: at, watermark: 0 }, this.collector());
  }
  probe(at: number, kind: RowKind, row: Row): string[] {
    const before = this.out.rows.length;
    this.state = this.op.processElement(this.state, 0, kind, row, { procTime: at, watermark: 0 }, this.collector());
    return this.out.rows.slice(before);
  }
  get snapshot(): LookupJoinState {
    return this.state;
  }
}

describe('lookup join without a cache', () => {
  it('reads the table as it is when each row is processed', () => {
    const h = new Harness(createLookupJoin(lookupPlan()));
    h.write(0, '+I', ['c1', 'silver', 0]);
    expect(h.probe(10, '+I', ['o1', 'c1', 5])).toEqual(['+I[o1, c1, 5, c1, silver, 0]']);
    h.write(20, '+U', ['c1', 'gold', 0]);
    expect(h.probe(30, '+I', ['o2', 'c1', 5])).toEqual(['+I[o2, c1, 5, c1, gold, 0]']);
    // A replay of o1 now sees gold: a lookup join is not repeatable.
    expect(h.probe(40, '+I', ['o1', 'c1', 5])).toEqual(['+I[o1, c1, 5, c1, gold, 0]']);
  });

  it('keeps the input row kind, and a -D looks the table up again', () => {
    const h = new Harness(createLookupJoin(lookupPlan({ joinType: 'left' })));
    h.write(0, '+I', ['c1', 'silver', 0]);
    expect(h.probe(1, '+I', ['o1', 'c1', 5])).toEqual(['+I[o1, c1, 5, c1, silver, 0]']);
    h.write(2, '+U', ['c1', 'gold', 0]);
    expect(h.probe(3, '+U', ['o1', 'c1', 6])).toEqual(['+U[o1, c1, 6, c1, gold, 0]']);
    // The retraction carries what the table holds now, not what was emitted before.
    h.write(4, '-D', ['c1', 'gold', 0]);
    expect(h.probe(5, '-D', ['o1', 'c1', 6])).toEqual(['-D[o1, c1, 6, null, null, null]']);
  });

  it('pads a LEFT join with nulls and emits nothing for an INNER join when nothing matches', () => {
    const left = new Harness(createLookupJoin(lookupPlan({ joinType: 'left' })));
    expect(left.probe(0, '+I', ['o1', 'c9', 1])).toEqual(['+I[o1, c9, 1, null, null, null]']);
    expect(left.out.why[0]!.rule).toBe('lookup.pad');
    const inner = new Harness(createLookupJoin(lookupPlan()));
    expect(inner.probe(0, '+I', ['o1', 'c9', 1])).toEqual([]);
  });

  it('skips the lookup when a key is null (Flink filters null lookup keys)', () => {
    const h = new Harness(createLookupJoin(lookupPlan({ joinType: 'left' })));
    h.write(0, '+I', ['c1', 'silver', 0]);
    expect(h.probe(1, '+I', ['o1', null, 1])).toEqual(['+I[o1, null, 1, null, null, null]']);
    expect(h.out.trace.some((e) => e.t === 'lookup')).toBe(false);
  });

  it('applies the residual condition to the fetched rows', () => {
    const residual: TExpr = { k: 'call', fn: '>=', type: { kind: 'BOOLEAN', nullable: true }, args: [col(2, 'amount', INT), col(5, 'min_amount', INT)] };
    const h = new Harness(createLookupJoin(lookupPlan({ joinType: 'left', residual })));
    h.write(0, '+I', ['c1', 'gold', 100]);
    expect(h.probe(1, '+I', ['o1', 'c1', 50])).toEqual(['+I[o1, c1, 50, null, null, null]']);
    expect(h.probe(2, '+I', ['o2', 'c1', 150])).toEqual(['+I[o2, c1, 150, c1, gold, 100]']);
  });
});

describe('lookup join with a partial cache', () => {
  const ttl5: LookupCacheConfig = { expireAfterWriteMs: 5 * MIN, cacheMissingKey: true, source: 'partial' };

  it('serves a stale value until expire-after-write passes (expiry inclusive)', () => {
    const h = new Harness(createLookupJoin(lookupPlan({ cache: ttl5 })));
    h.write(0, '+I', ['c1', 'silver', 0]);
    expect(h.probe(1 * MIN, '+I', ['o1', 'c1', 1])).toEqual(['+I[o1, c1, 1, c1, silver, 0]']);
    h.write(3 * MIN, '+U', ['c1', 'gold', 0]);
    // Updated two minutes ago, but the cache still holds silver.
    expect(h.probe(5 * MIN, '+I', ['o2', 'c1', 1])).toEqual(['+I[o2, c1, 1, c1, silver, 0]']);
    expect(h.out.why.at(-1)!.rule).toBe('lookup.hit');
    // Written at 1 min with a 5 min TTL: at 6 min the entry is expired (now - write >= ttl).
    expect(h.probe(6 * MIN, '+I', ['o3', 'c1', 1])).toEqual(['+I[o3, c1, 1, c1, gold, 0]']);
    expect(h.out.trace.filter((e) => e.t === 'cache' && e.op === 'expire')).toHaveLength(1);
    expect(h.snapshot.cache.stats).toEqual({ hits: 1, misses: 2, evictions: 0, expirations: 1 });
  });

  it('caches a missing key by default, and not with cache-missing-key = false', () => {
    const cached = new Harness(createLookupJoin(lookupPlan({ joinType: 'left', cache: ttl5 })));
    expect(cached.probe(0, '+I', ['o1', 'c9', 1])).toEqual(['+I[o1, c9, 1, null, null, null]']);
    cached.write(1, '+I', ['c9', 'new', 0]);
    expect(cached.probe(2, '+I', ['o2', 'c9', 1])).toEqual(['+I[o2, c9, 1, null, null, null]']);
    expect(cached.out.trace.some((e) => e.t === 'lookup' && e.result === 'miss-cached')).toBe(true);

    const uncached = new Harness(createLookupJoin(lookupPlan({ joinType: 'left', cache: { ...ttl5, cacheMissingKey: false } })));
    uncached.probe(0, '+I', ['o1', 'c9', 1]);
    uncached.write(1, '+I', ['c9', 'new', 0]);
    expect(uncached.probe(2, '+I', ['o2', 'c9', 1])).toEqual(['+I[o2, c9, 1, c9, new, 0]']);
  });

  it('counts max-rows in keys and evicts the least recently used key', () => {
    const h = new Harness(createLookupJoin(lookupPlan({ cache: { maxRows: 2, cacheMissingKey: true, source: 'partial' } })));
    for (const c of ['c1', 'c2', 'c3']) h.write(0, '+I', [c, 'silver', 0]);
    h.probe(1, '+I', ['o1', 'c1', 1]);
    h.probe(2, '+I', ['o2', 'c2', 1]);
    h.probe(3, '+I', ['o3', 'c1', 1]); // touch c1: c2 is now the least recently used
    h.probe(4, '+I', ['o4', 'c3', 1]);
    const evicted = h.out.trace.filter((e) => e.t === 'cache' && e.op === 'evict');
    expect(evicted).toHaveLength(1);
    expect(evicted[0]).toMatchObject({ key: '["c2"]' });
    expect(h.snapshot.cache.stats.evictions).toBe(1);
  });

  it('renews expire-after-access on every read', () => {
    const access: LookupCacheConfig = { expireAfterAccessMs: 2 * MIN, cacheMissingKey: true, source: 'partial' };
    const h = new Harness(createLookupJoin(lookupPlan({ cache: access })));
    h.write(0, '+I', ['c1', 'silver', 0]);
    h.probe(0, '+I', ['o1', 'c1', 1]);
    h.write(1, '+U', ['c1', 'gold', 0]);
    expect(h.probe(1.5 * MIN, '+I', ['o2', 'c1', 1])).toEqual(['+I[o2, c1, 1, c1, silver, 0]']);
    expect(h.probe(3 * MIN, '+I', ['o3', 'c1', 1])).toEqual(['+I[o3, c1, 1, c1, silver, 0]']);
    expect(h.probe(5 * MIN, '+I', ['o4', 'c1', 1])).toEqual(['+I[o4, c1, 1, c1, gold, 0]']);
  });

  it('never mutates the state it was given', () => {
    const op = createLookupJoin(lookupPlan({ cache: ttl5 }));
    const sink: Collector = { emit: () => undefined, trace: () => undefined, flag: () => undefined, tracing: true };
    const s0 = op.init();
    const s1 = op.processStoreWrite!(s0, '+I', ['c1', 'silver', 0], { procTime: 0, watermark: 0 }, sink);
    const frozen = JSON.stringify(s1);
    op.processElement(s1, 0, '+I', ['o1', 'c1', 1], { procTime: 1, watermark: 0 }, sink);
    expect(JSON.stringify(s1)).toBe(frozen);
    expect(JSON.stringify(s0)).toBe(JSON.stringify(op.init()));
  });
});
