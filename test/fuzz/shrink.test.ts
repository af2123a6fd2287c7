import { describe, expect, it } from 'vitest';
import { generateCase } from '../../src/fuzz/generate.js';
import type { FuzzCase, FuzzEvent } from '../../src/fuzz/model.js';
import { columnCandidates, partitionCandidates, shrinkCase } from '../../src/fuzz/shrink.js';
import { renderCase } from '../../src/fuzz/render.js';
import { runJoinstep } from '../../src/fuzz/joinstep-run.js';

const row = (to: string, k: string, partition?: number): FuzzEvent => ({ kind: 'row', to, op: '+I', row: { id: '1', k, v: 1, w: 'x' }, ...(partition !== undefined ? { partition } : {}) });

/** A regular join case with the given events and partitions (built from a generated one). */
function withEvents(events: FuzzEvent[], partitions: Record<string, number> = { l: 1, r: 1 }): FuzzCase {
  const base = generateCase(3, { family: 'regular', flinkVersion: '2.3' });
  return { ...base, events, partitions };
}

describe('the shrinker', () => {
  it('drops every event the failure does not need (greedy delta debugging)', async () => {
    const events = [row('l', 'a'), row('r', 'c'), row('l', 'b'), row('r', 'b'), row('l', 'c'), { kind: 'advance', ms: 1000 } as FuzzEvent, row('r', 'a'), row('l', 'a')];
    // "fails" while an l row with key b comes before an r row with key b
    const fails = (c: FuzzCase) => {
      const i = c.events.findIndex((e) => e.kind === 'row' && e.to === 'l' && e.row.k === 'b');
      return i >= 0 && c.events.slice(i + 1).some((e) => e.kind === 'row' && e.to === 'r' && e.row.k === 'b');
    };
    const small = await shrinkCase(withEvents(events), fails);
    expect(small.events.map((e) => (e.kind === 'row' ? `${e.to} ${String(e.row.k)}` : e.kind))).toEqual(['l b', 'r b']);
    // the payload column w went too: the predicate does not need it
    expect(small.events.every((e) => e.kind === 'row' && !('w' in e.row))).toBe(true);
  });

  it('keeps the case when nothing smaller fails, and stops at its budget', async () => {
    const c = withEvents([row('l', 'a'), row('r', 'a')]);
    // "fails" only with every event and every column (the case may have droppable columns besides w)
    const width = (x: FuzzCase) => x.tables.reduce((n, t) => n + t.columns.length, 0);
    expect(await shrinkCase(c, (x) => x.events.length === 2 && width(x) === width(c))).toEqual(c);
    let calls = 0;
    await shrinkCase(withEvents(Array.from({ length: 40 }, (_, i) => row('l', String(i)))), () => {
      calls++;
      return false;
    }, { budget: 5 });
    expect(calls).toBe(5);
  });

  it('reduces partitions and moves the events of a dropped partition to a remaining one', async () => {
    const c = withEvents([row('l', 'a', 3), row('r', 'a', 1), { kind: 'watermark', table: 'l', partition: 2 }], { l: 4, r: 2 });
    const [toOne] = partitionCandidates(c);
    expect(toOne?.partitions).toEqual({ l: 1, r: 2 });
    expect(toOne?.events[0]).toEqual(row('l', 'a'));
    expect(toOne?.events[2]).toEqual({ kind: 'watermark', table: 'l' });
    const small = await shrinkCase(c, () => true);
    expect(small.partitions).toEqual({ l: 1, r: 1 });
    expect(small.events).toEqual([]);
  });

  it('drops a droppable column from its table, the SELECT list and the rows, and the result still loads', async () => {
    const c = withEvents([row('l', 'a'), row('r', 'a')]);
    const candidates = columnCandidates(c);
    expect(candidates.length).toBeGreaterThan(0);
    const first = candidates[0]!;
    const dropped = c.tables.flatMap((t) => t.columns.map((col) => `${t.name}.${col.name}`))
      .filter((ref) => !first.tables.flatMap((t) => t.columns.map((col) => `${t.name}.${col.name}`)).includes(ref));
    expect(dropped).toHaveLength(1);
    expect(first.select.some((s) => s.reads.includes(dropped[0]!))).toBe(false);
    const shrunk = await shrinkCase(c, (x) => runJoinstep('x.yaml', renderCase(x)).kind === 'ran');
    expect(shrunk.tables.flatMap((t) => t.columns).some((col) => col.droppable)).toBe(false);
    expect(runJoinstep('x.yaml', renderCase(shrunk)).kind).toBe('ran');
  });
});
