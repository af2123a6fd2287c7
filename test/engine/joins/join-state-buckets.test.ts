/**
 * Join-state buckets: a join key's entries are a small array while few and a map by entry id once
 * many (state/record-state.ts). The switch must not change matches, their arrival order, duplicates'
 * counts, unique-key overwrites or retractions.
 */
import { describe, it } from 'vitest';
import { leftJoinHarness } from './regular-join-harness.js';

describe('join-state buckets across the small -> map switch', () => {
  it('no unique key: 80 rows of one key (with duplicates and retractions) match in arrival order', () => {
    const h = leftJoinHarness();
    const model: [number, string][] = [];
    for (let i = 0; i < 80; i++) {
      const id = i % 60; // ids 0..19 arrive twice: counted copies
      h.processElement2('+I', 'hot', id, `v${id}`);
      if (!model.some(([m]) => m === id)) model.push([id, `v${id}`]);
    }
    // retract one copy of 5 and both copies of 7: 5 keeps its place, 7 is gone
    h.processElement2('-D', 'hot', 5, 'v5');
    h.processElement2('-D', 'hot', 7, 'v7');
    h.processElement2('-D', 'hot', 7, 'v7');
    h.emitted = [];
    h.processElement1('+I', 'hot', 1000, 'probe');
    const expected = model
      .filter(([id]) => id !== 7)
      .flatMap(([id, v]) => Array.from({ length: id < 20 && id !== 5 ? 2 : 1 }, () => `+I[hot, 1000, probe, hot, ${id}, ${v}]`));
    h.shouldEmit(...expected);
  });

  it('unique key: an overwrite moves the row to the end, in small and large buckets alike', () => {
    for (const n of [5, 70]) {
      const h = leftJoinHarness({ kind: 'InputSideHasUniqueKey', uniqueKey: [1] });
      for (let id = 0; id < n; id++) h.processElement2('+I', 'hot', id, `a${id}`);
      h.processElement2('+U', 'hot', 2, 'b2');
      h.processElement2('-D', 'hot', 3, 'whatever');
      h.emitted = [];
      h.processElement1('+I', 'hot', 1000, 'probe');
      const ids = [...Array.from({ length: n }, (_, i) => i).filter((i) => i !== 2 && i !== 3), 2];
      h.shouldEmit(...ids.map((id) => `+I[hot, 1000, probe, hot, ${id}, ${id === 2 ? 'b2' : `a${id}`}]`));
    }
  });
});

describe('join-state buckets: shared logs and the switch to a map at 512 entries', () => {
  it('no unique key: 600 rows of one key, duplicates and retractions on both sides of the switch', () => {
    const h = leftJoinHarness();
    const model: [number, number][] = []; // id, copies
    const add = (id: number) => {
      h.processElement2('+I', 'hot', id, `v${id}`);
      const m = model.find(([x]) => x === id);
      if (m === undefined) model.push([id, 1]);
      else m[1]++;
    };
    const retract = (id: number) => {
      h.processElement2('-D', 'hot', id, `v${id}`);
      const at = model.findIndex(([x]) => x === id);
      const m = model[at] as [number, number];
      if (m[1] > 1) m[1]--;
      else model.splice(at, 1);
    };
    for (let id = 0; id < 300; id++) add(id);
    add(3);
    retract(4);
    for (let id = 300; id < 600; id++) add(id);
    add(500);
    retract(3);
    retract(3);
    retract(550);
    add(4);
    h.emitted = [];
    h.processElement1('+I', 'hot', 1000, 'probe');
    const expected = model.flatMap(([id, n]) => Array.from({ length: n }, () => `+I[hot, 1000, probe, hot, ${id}, v${id}]`));
    h.shouldEmit(...expected);
  });
});
