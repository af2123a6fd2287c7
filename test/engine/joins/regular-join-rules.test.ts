/**
 * Rules of §5 that Flink's harness tests do not reach: several matches (order per flink-version,
 * Flink's HashMap order, replayed by a literal java.util.HashMap model), duplicates, unique-key layouts, NULL keys, residual conditions, TTL details,
 * reasons and the state description.
 */
import { describe, expect, it } from 'vitest';
import { createRegularJoin } from '../../../src/engine/joins/regular/regular-join.js';
import type { FlinkVersion, JoinType, StateLayout, TExpr } from '../../../src/planner/plan.js';
import { binaryRowHash } from '../../../src/engine/state/flink-map-order.js';
import { JavaHashMapModel } from './java-hash-map-model.js';
import { call, col, Harness, INT, planOf, STR } from './regular-join-harness.js';

/** The order a HashMap keyed by the orders rows (id, k, amount) iterates them after these puts. */
function ordersInMapOrder(...rows: [string, string, number][]): [string, string, number][] {
  const m = new JavaHashMapModel<[string, string, number]>((key) => {
    const [id, k, amount] = key.split('|');
    return binaryRowHash([id as string, k as string, Number(amount)], [STR, STR, INT]);
  });
  for (const r of rows) m.put(r.join('|'), r);
  return m.entries().map(([, r]) => r);
}

const NO_UK: StateLayout = { kind: 'InputSideHasNoUniqueKey' };

/** orders(id, k, amount) ⋈ rates(k, min) on k. */
function orders(joinType: JoinType, o: { version?: FlinkVersion; left?: StateLayout; right?: StateLayout; ttl?: [number, number]; residual?: TExpr; nullSafe?: boolean } = {}) {
  const plan = planOf({
    joinType,
    left: { alias: 'o', columns: [['id', STR], ['k', STR], ['amount', INT]], layout: o.left ?? NO_UK, ...(o.ttl ? { ttlMs: o.ttl[0] } : {}) },
    right: { alias: 'r', columns: [['k', STR], ['min', INT]], layout: o.right ?? NO_UK, ...(o.ttl ? { ttlMs: o.ttl[1] } : {}) },
    keys: [[1, 0]],
    ...(o.nullSafe ? { nullSafe: [true] } : {}),
    ...(o.residual ? { residual: o.residual } : {}),
    flinkVersion: o.version ?? '2.3',
  });
  return new Harness(createRegularJoin(plan), plan);
}

describe('regular join: several matches', () => {
  it('2.2+ interleaves -D/+I per matched row (FULL join, right row joins two padded left rows)', () => {
    const h = orders('full', { version: '2.2' });
    h.processElement1('+I', 'o1', 'k', 1).shouldEmit('+I[o1, k, 1, null, null]');
    h.processElement1('+I', 'o2', 'k', 2).shouldEmit('+I[o2, k, 2, null, null]');
    const [a, b] = ordersInMapOrder(['o1', 'k', 1], ['o2', 'k', 2]).map((r) => r.join(', '));
    h.processElement2('+I', 'k', 0).shouldEmit(`-D[${a}, null, null]`, `+I[${a}, k, 0]`, `-D[${b}, null, null]`, `+I[${b}, k, 0]`);
    h.processElement2('-D', 'k', 0).shouldEmit(`-D[${a}, k, 0]`, `+I[${a}, null, null]`, `-D[${b}, k, 0]`, `+I[${b}, null, null]`);
  });

  it('2.0/2.1 send all -D first, then all +I', () => {
    for (const version of ['2.0', '2.1'] as const) {
      const h = orders('full', { version });
      h.processElement1('+I', 'o1', 'k', 1);
      h.processElement1('+I', 'o2', 'k', 2);
      h.shouldEmit('+I[o1, k, 1, null, null]', '+I[o2, k, 2, null, null]');
      const [a, b] = ordersInMapOrder(['o1', 'k', 1], ['o2', 'k', 2]).map((r) => r.join(', '));
      h.processElement2('+I', 'k', 0).shouldEmit(`-D[${a}, null, null]`, `-D[${b}, null, null]`, `+I[${a}, k, 0]`, `+I[${b}, k, 0]`);
      h.processElement2('-D', 'k', 0).shouldEmit(`-D[${a}, k, 0]`, `-D[${b}, k, 0]`, `+I[${a}, null, null]`, `+I[${b}, null, null]`);
    }
  });

  it('LEFT join, a second right row for a matched left row emits only +I (count 1 -> 2)', () => {
    const h = orders('left');
    h.processElement1('+I', 'o1', 'k', 1).shouldEmit('+I[o1, k, 1, null, null]');
    h.processElement2('+I', 'k', 0).shouldEmit('-D[o1, k, 1, null, null]', '+I[o1, k, 1, k, 0]');
    h.processElement2('+I', 'k', 5).shouldEmit('+I[o1, k, 1, k, 5]');
    expect(h.describe(0).entries.map((e) => e.tags)).toEqual([['count=1', 'assoc=2']]);
    h.processElement2('-D', 'k', 0).shouldEmit('-D[o1, k, 1, k, 0]');
    h.processElement2('-U', 'k', 5).shouldEmit('-U[o1, k, 1, k, 5]', '+I[o1, k, 1, null, null]');
  });

  it('matches come in the HashMap order of the stored rows; a re-inserted row goes last in its bucket', () => {
    const h = orders('inner');
    const ids = ['z', 'a', 'm', 'b'];
    for (const id of ids) h.processElement1('+I', id, 'k', 1);
    const first = ordersInMapOrder(...ids.map((id): [string, string, number] => [id, 'k', 1]));
    h.processElement2('+I', 'k', 0).shouldEmit(...first.map((r) => `+I[${r.join(', ')}, k, 0]`));
    h.processElement1('-D', 'a', 'k', 1).shouldEmit('-D[a, k, 1, k, 0]');
    h.processElement1('+I', 'a', 'k', 1).shouldEmit('+I[a, k, 1, k, 0]');
    const after = ordersInMapOrder(...['z', 'm', 'b', 'a'].map((id): [string, string, number] => [id, 'k', 1]));
    h.processElement2('+U', 'k', 9).shouldEmit(...after.map((r) => `+U[${r.join(', ')}, k, 9]`));
  });

  it('the order is not arrival order: ten rows of one key come out as the HashMap iterates them', () => {
    const h = orders('inner');
    const rows = Array.from({ length: 10 }, (_, i): [string, string, number] => [`order-${i}`, 'k', i * 7]);
    for (const r of rows) h.processElement1('+I', ...r);
    const expected = ordersInMapOrder(...rows).map((r) => `+I[${r.join(', ')}, k, 0]`);
    expect(expected).not.toEqual(rows.map((r) => `+I[${r.join(', ')}, k, 0]`));
    h.processElement2('+I', 'k', 0).shouldEmit(...expected);
  });

  it('a map that grew keeps its capacity after retractions, and grows on from it when rows come back', () => {
    const h = orders('inner');
    const m = new JavaHashMapModel<[string, string, number]>((key) => {
      const [id, k, amount] = key.split('|');
      return binaryRowHash([id as string, k as string, Number(amount)], [STR, STR, INT]);
    });
    const row = (i: number): [string, string, number] => [`o${i}`, 'k', i];
    const probe = (kind: string, v: number): string[] => m.entries().map(([, r]) => `${kind}[${r.join(', ')}, k, ${v}]`);
    // 40 rows: Flink's map grows to 64 buckets; 34 retractions leave 6 rows in it.
    for (let i = 0; i < 40; i++) {
      h.processElement1('+I', ...row(i));
      m.put(row(i).join('|'), row(i));
    }
    for (let i = 3; i < 37; i++) {
      h.processElement1('-D', ...row(i));
      m.remove(row(i).join('|'));
    }
    const six = probe('+I', 0);
    // The same six rows put into a new map (16 buckets) would come out otherwise.
    const fresh = new JavaHashMapModel<[string, string, number]>((key) => binaryRowHash([key.split('|')[0] as string, 'k', Number(key.split('|')[2])], [STR, STR, INT]));
    for (const [key, r] of m.entries()) fresh.put(key, r);
    expect(fresh.entries().map(([, r]) => `+I[${r.join(', ')}, k, 0]`)).not.toEqual(six);
    h.processElement2('+I', 'k', 0).shouldEmit(...six);
    // Rows that come back join the shrunk map, which keeps its 64 buckets.
    for (const i of [5, 50, 51]) {
      h.processElement1('+I', ...row(i)).shouldEmit(`+I[${row(i).join(', ')}, k, 0]`);
      m.put(row(i).join('|'), row(i));
    }
    h.processElement2('+U', 'k', 1).shouldEmit(...probe('+U', 1));
  });
});

describe('regular join: the stored row is pruned to the columns the query reads', () => {
  it('hashes only the read columns: SELECT o.id, r.min leaves amount out of the stored row', () => {
    // Flink projects the left input to (id, k) below the join, so the map key is a two-STRING row.
    const base = planOf({
      joinType: 'inner',
      left: { alias: 'o', columns: [['id', STR], ['k', STR], ['amount', INT]], layout: NO_UK },
      right: { alias: 'r', columns: [['k', STR], ['min', INT]], layout: NO_UK },
      keys: [[1, 0]],
      flinkVersion: '2.3',
    });
    const plan = { ...base, project: [col(0, STR, 'id'), col(4, INT, 'min')] };
    const h = new Harness(createRegularJoin(plan), plan);
    const rows = Array.from({ length: 10 }, (_, i): [string, string, number] => [`o${i}`, 'k', i * 1000 + 7]);
    for (const r of rows) h.processElement1('+I', ...r);
    const pruned = new JavaHashMapModel<[string, string, number]>((key) => {
      const [id, k] = key.split('|');
      return binaryRowHash([id as string, k as string], [STR, STR]);
    });
    for (const r of rows) pruned.put(r.join('|'), r);
    const expected = pruned.entries().map(([, r]) => `+I[${r.join(', ')}, k, 0]`);
    // The whole row would hash otherwise: the test tells the two apart.
    expect(expected).not.toEqual(ordersInMapOrder(...rows).map((r) => `+I[${r.join(', ')}, k, 0]`));
    h.processElement2('+I', 'k', 0).shouldEmit(...expected);
  });
});

describe('regular join: layouts', () => {
  it('InputSideHasNoUniqueKey counts duplicates: each copy is a match', () => {
    const h = orders('inner');
    h.processElement1('+I', 'o1', 'k', 1).processElement1('+I', 'o1', 'k', 1).shouldEmitNothing();
    expect(h.describe(0).entries).toEqual([{ key: 'k', row: '+I[o1, k, 1]', tags: ['count=2'] }]);
    h.processElement2('+I', 'k', 0).shouldEmit('+I[o1, k, 1, k, 0]', '+I[o1, k, 1, k, 0]');
    h.processElement1('-D', 'o1', 'k', 1).shouldEmit('-D[o1, k, 1, k, 0]');
    h.processElement2('+I', 'k', 7).shouldEmit('+I[o1, k, 1, k, 7]');
  });

  it('InputSideHasUniqueKey overwrites by unique key and removes by unique key', () => {
    const h = orders('inner', { left: { kind: 'InputSideHasUniqueKey', uniqueKey: [0] } });
    h.processElement1('+I', 'o1', 'k', 1).processElement1('+I', 'o2', 'k', 2);
    h.processElement1('+U', 'o1', 'k', 10); // same unique key o1: replaces the row, keeps its place
    expect(h.describe(0).entries.map((e) => e.row)).toEqual(['+I[o1, k, 10]', '+I[o2, k, 2]']);
    // keyed by the unique key (id): a one-STRING row
    const byKey = new JavaHashMapModel<string>((id) => binaryRowHash([id], [STR]));
    byKey.put('o1', '+I[o1, k, 10, k, 0]');
    byKey.put('o2', '+I[o2, k, 2, k, 0]');
    h.processElement2('+I', 'k', 0).shouldEmit(...byKey.entries().map(([, text]) => text));
    // removal goes by the unique key, whatever the other values of the retraction
    h.processElement1('-D', 'o1', 'k', 999).shouldEmit('-D[o1, k, 999, k, 0]');
    expect(h.describe(0).entries.map((e) => e.row)).toEqual(['+I[o2, k, 2]']);
  });

  it('JoinKeyContainsUniqueKey: retract clears the key whatever row is sent', () => {
    const h = orders('inner', { right: { kind: 'JoinKeyContainsUniqueKey', uniqueKey: [0] } });
    h.processElement2('+I', 'k', 1);
    h.processElement2('-D', 'k', 42); // not the stored row, still clears it
    expect(h.describe(1).entries).toEqual([]);
    h.processElement1('+I', 'o1', 'k', 1).shouldEmitNothing();
  });
});

describe('regular join: NULL keys and residual conditions', () => {
  it('a NULL key never matches, but the row is stored and an outer row is padded', () => {
    const h = orders('left');
    h.processElement2('+I', null, 0).shouldEmitNothing();
    h.processElement1('+I', 'o1', null, 1).shouldEmit('+I[o1, null, 1, null, null]');
    expect(h.describe(0).entries.map((e) => e.row)).toEqual(['+I[o1, null, 1]']);
    h.processElement2('+I', null, 5).shouldEmitNothing();
    h.processElement1('-D', 'o1', null, 1).shouldEmit('-D[o1, null, 1, null, null]');
  });

  it('IS NOT DISTINCT FROM keys match NULLs', () => {
    const h = orders('inner', { nullSafe: true });
    h.processElement2('+I', null, 0);
    h.processElement1('+I', 'o1', null, 1).shouldEmit('+I[o1, null, 1, null, 0]');
  });

  it('the residual is part of the match condition, for outer joins too', () => {
    // o.amount > r.min over the joined row (o: 0..2, r: 3..4)
    const residual = call('>', col(2, INT, 'amount'), col(4, INT, 'min'));
    const h = orders('left', { residual });
    h.processElement1('+I', 'o1', 'k', 5).shouldEmit('+I[o1, k, 5, null, null]');
    h.processElement2('+I', 'k', 10).shouldEmitNothing(); // 5 > 10 is false: no match, o1 stays padded
    h.processElement2('+I', 'k', 1).shouldEmit('-D[o1, k, 5, null, null]', '+I[o1, k, 5, k, 1]');
    h.processElement1('+I', 'o2', 'k', 20).shouldEmit('+I[o2, k, 20, k, 10]', '+I[o2, k, 20, k, 1]');
    const t = h.takeTraces().filter((e) => e.t === 'no-match');
    expect(t.length).toBeGreaterThan(0);
  });
});

describe('regular join: TTL, reasons and description', () => {
  it('expired entries are absent, traced, and never retracted; describe shows expiry', () => {
    const h = orders('left', { ttl: [1000, 500] });
    h.setStateTtlProcessingTime(100);
    h.processElement1('+I', 'o1', 'k', 1).shouldEmit('+I[o1, k, 1, null, null]');
    const d = h.describe(0);
    expect(d.layout).toContain('InputSideHasNoUniqueKey');
    expect(d.layout).toContain('TTL 1000 ms');
    expect(d.entries).toEqual([{ key: 'k', row: '+I[o1, k, 1]', tags: ['count=1', 'assoc=0'], expiresAt: 1100, expiryDomain: 'proc' }]);
    h.setStateTtlProcessingTime(1099);
    h.processElement2('+I', 'k', 0).shouldEmit('-D[o1, k, 1, null, null]', '+I[o1, k, 1, k, 0]');
    // the association update was a write: o1 now lives until 2099
    expect(h.describe(0).entries[0]?.expiresAt).toBe(2099);
    h.takeTraces();
    h.setStateTtlProcessingTime(1599); // r expired at 1099 + 500 <= 1599
    h.processElement1('+I', 'o2', 'k', 2).shouldEmit('+I[o2, k, 2, null, null]');
    expect(h.takeTraces().some((e) => e.t === 'state.expire' && e.side === 1)).toBe(true);
    h.setStateTtlProcessingTime(2099);
    // r's own entry expired, and o1 (last written 1099) expires now: o1 is never retracted. The
    // retraction is matched against what is alive on the left, o2, which never joined r: Flink
    // sends a -D for a row it never emitted, and o2's association count goes 0 -> -1 (the code's
    // "this should never happen" branch, reachable with TTL).
    h.processElement2('-D', 'k', 0).shouldEmit('-D[o2, k, 2, k, 0]');
    expect(h.describe(0).entries).toEqual([{ key: 'k', row: '+I[o2, k, 2]', tags: ['count=1', 'assoc=-1'], expiresAt: 3099, expiryDomain: 'proc' }]);
  });

  it('describe tags an expired entry that no access has dropped yet', () => {
    const h = orders('inner', { ttl: [10, 10] });
    h.processElement1('+I', 'o1', 'k', 1);
    h.setStateTtlProcessingTime(10);
    expect(h.describe(0).entries[0]?.tags).toEqual(['count=1', 'expired']);
  });

  it('every emission carries a reason with its rule and rows', () => {
    const h = orders('left');
    h.processElement1('+I', 'o1', 'k', 1);
    h.processElement2('+I', 'k', 0);
    h.processElement2('-D', 'k', 0);
    expect(h.emitted.map((e) => e.why.rule)).toEqual(['pad', 'unpad', 'match', 'retract-match', 'repad']);
    for (const e of h.emitted) {
      expect(e.why.text.length).toBeGreaterThan(10);
      expect(e.why.rows?.length).toBeGreaterThan(0);
    }
    expect(h.emitted[2]?.why.rows).toEqual(['r +I[k, 0]', 'o +I[o1, k, 1]']);
  });

  it('traces every state change', () => {
    const h = orders('left');
    h.processElement1('+I', 'o1', 'k', 1);
    h.processElement2('+I', 'k', 0);
    const kinds = h.takeTraces().map((e) => e.t);
    expect(kinds).toEqual(['no-match', 'state.add', 'state.add', 'match', 'state.update']);
  });
});

describe('regular join 2.4: a +U replacing a stored row by unique key (JoinITCase non-equi, FLINK-40841)', () => {
  /** orders(id, k, amount) LEFT JOIN lines(k, lid, min) ON k AND o.amount > l.min; lines unique on lid. */
  function lines(version: FlinkVersion) {
    const plan = planOf({
      joinType: 'left',
      left: { alias: 'o', columns: [['id', STR], ['k', STR], ['amount', INT]], layout: NO_UK },
      right: { alias: 'l', columns: [['k', STR], ['lid', STR], ['min', INT]], layout: { kind: 'InputSideHasUniqueKey', uniqueKey: [1] } },
      keys: [[1, 0]],
      // joined row: o 0..2, l 3..5
      residual: call('>', col(2, INT, 'amount'), col(5, INT, 'min')),
      flinkVersion: version,
    });
    return new Harness(createRegularJoin(plan), plan);
  }
  const assocOf = (h: ReturnType<typeof lines>): readonly (readonly string[])[] => h.describe(0).entries.map((e) => e.tags);

  it('a lost match retracts the old joined row and re-pads; a gained one un-pads; a kept one only sends +I', () => {
    const h = lines('2.4');
    h.processElement1('+I', 'o1', 'k', 5).shouldEmit('+I[o1, k, 5, null, null, null]');
    h.processElement2('+I', 'k', 'l1', 1).shouldEmit('-D[o1, k, 5, null, null, null]', '+I[o1, k, 5, k, l1, 1]');
    // 5 > 9 is false: the replaced l1 (min 1) matched o1, the new one does not
    h.processElement2('+U', 'k', 'l1', 9).shouldEmit('-D[o1, k, 5, k, l1, 1]', '+I[o1, k, 5, null, null, null]');
    expect(assocOf(h)).toEqual([['count=1', 'assoc=0']]);
    // the replaced l1 (min 9) did not match, the new one does
    h.processElement2('+U', 'k', 'l1', 2).shouldEmit('-D[o1, k, 5, null, null, null]', '+I[o1, k, 5, k, l1, 2]');
    expect(assocOf(h)).toEqual([['count=1', 'assoc=1']]);
    // both match: the count is unchanged, so the later delete re-pads
    h.processElement2('+U', 'k', 'l1', 3).shouldEmit('+I[o1, k, 5, k, l1, 3]');
    expect(assocOf(h)).toEqual([['count=1', 'assoc=1']]);
    h.processElement2('-D', 'k', 'l1', 3).shouldEmit('-D[o1, k, 5, k, l1, 3]', '+I[o1, k, 5, null, null, null]');
  });

  it('a lost match with another match left only retracts the joined row (count 2 -> 1)', () => {
    const h = lines('2.4');
    h.processElement1('+I', 'o1', 'k', 5).shouldEmit('+I[o1, k, 5, null, null, null]');
    h.processElement2('+I', 'k', 'l1', 1).processElement2('+I', 'k', 'l2', 2);
    h.shouldEmit('-D[o1, k, 5, null, null, null]', '+I[o1, k, 5, k, l1, 1]', '+I[o1, k, 5, k, l2, 2]');
    expect(assocOf(h)).toEqual([['count=1', 'assoc=2']]);
    h.processElement2('+U', 'k', 'l1', 7).shouldEmit('-D[o1, k, 5, k, l1, 1]');
    expect(assocOf(h)).toEqual([['count=1', 'assoc=1']]);
    h.processElement2('-D', 'k', 'l2', 2).shouldEmit('-D[o1, k, 5, k, l2, 2]', '+I[o1, k, 5, null, null, null]');
  });

  it('2.3 keeps the older rule: the lost match is not retracted', () => {
    const h = lines('2.3');
    h.processElement1('+I', 'o1', 'k', 5).shouldEmit('+I[o1, k, 5, null, null, null]');
    h.processElement2('+I', 'k', 'l1', 1).shouldEmit('-D[o1, k, 5, null, null, null]', '+I[o1, k, 5, k, l1, 1]');
    h.processElement2('+U', 'k', 'l1', 9).shouldEmitNothing();
    expect(assocOf(h)).toEqual([['count=1', 'assoc=1']]);
  });
});
