/**
 * Join-state buckets: a join key's entries are a small array while few and a map by entry id once
 * many (state/record-state.ts). The switch must not change matches, their order (Flink's HashMap
 * order, replayed here by a literal model of java.util.HashMap), duplicates' counts, unique-key
 * overwrites or retractions.
 */
import { describe, it } from 'vitest';
import { binaryRowHash } from '../../../src/engine/state/flink-map-order.js';
import { JavaHashMapModel } from './java-hash-map-model.js';
import { INT, STR, leftJoinHarness } from './regular-join-harness.js';

/** A model of the right side's map keyed by whole rows (hot, id, v): key = `id|v`. */
function wholeRowMap(): JavaHashMapModel<number> {
  return new JavaHashMapModel((key) => {
    const [id, v] = key.split('|');
    return binaryRowHash(['hot', Number(id), v as string], [STR, INT, STR]);
  });
}

describe('join-state buckets across the small -> map switch', () => {
  it('no unique key: 80 rows of one key (with duplicates and retractions) match in HashMap order', () => {
    const h = leftJoinHarness();
    const model = wholeRowMap();
    for (let i = 0; i < 80; i++) {
      const id = i % 60; // ids 0..19 arrive twice: counted copies
      h.processElement2('+I', 'hot', id, `v${id}`);
      model.put(`${id}|v${id}`, (model.get(`${id}|v${id}`) ?? 0) + 1);
    }
    // retract one copy of 5 and both copies of 7: 5 keeps its place, 7 is gone
    h.processElement2('-D', 'hot', 5, 'v5');
    model.put('5|v5', 1);
    h.processElement2('-D', 'hot', 7, 'v7');
    h.processElement2('-D', 'hot', 7, 'v7');
    model.remove('7|v7');
    h.emitted = [];
    h.processElement1('+I', 'hot', 1000, 'probe');
    const expected = model.entries().flatMap(([key, n]) => {
      const [id, v] = key.split('|');
      return Array.from({ length: n }, () => `+I[hot, 1000, probe, hot, ${id}, ${v}]`);
    });
    h.shouldEmit(...expected);
  });

  it('unique key: an overwrite keeps its place in the map, in small and large buckets alike', () => {
    for (const n of [5, 70]) {
      const h = leftJoinHarness({ kind: 'InputSideHasUniqueKey', uniqueKey: [1] });
      // keyed by the unique key's projection: a one-INT row
      const model = new JavaHashMapModel<string>((id) => binaryRowHash([Number(id)], [INT]));
      for (let id = 0; id < n; id++) {
        h.processElement2('+I', 'hot', id, `a${id}`);
        model.put(String(id), `a${id}`);
      }
      h.processElement2('+U', 'hot', 2, 'b2');
      model.put('2', 'b2');
      h.processElement2('-D', 'hot', 3, 'whatever');
      model.remove('3');
      h.emitted = [];
      h.processElement1('+I', 'hot', 1000, 'probe');
      h.shouldEmit(...model.entries().map(([id, v]) => `+I[hot, 1000, probe, hot, ${id}, ${v}]`));
    }
  });
});

describe('join-state buckets: shared logs and the switch to a map at 512 entries', () => {
  it('no unique key: 600 rows of one key, duplicates and retractions on both sides of the switch', () => {
    const h = leftJoinHarness();
    const model = wholeRowMap(); // id|v -> copies
    const add = (id: number) => {
      h.processElement2('+I', 'hot', id, `v${id}`);
      model.put(`${id}|v${id}`, (model.get(`${id}|v${id}`) ?? 0) + 1);
    };
    const retract = (id: number) => {
      h.processElement2('-D', 'hot', id, `v${id}`);
      const n = model.get(`${id}|v${id}`) as number;
      if (n > 1) model.put(`${id}|v${id}`, n - 1);
      else model.remove(`${id}|v${id}`);
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
    const expected = model.entries().flatMap(([key, n]) => {
      const [id, v] = key.split('|');
      return Array.from({ length: n }, () => `+I[hot, 1000, probe, hot, ${id}, ${v}]`);
    });
    h.shouldEmit(...expected);
  });
});
