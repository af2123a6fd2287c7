/**
 * KeyIndex (operators/join-key-index.ts): a row's key found from its value must be exactly the
 * key string keys.ts joinKey builds, one instance and one id per distinct key, whichever way
 * (by string, by row value, one column or several) the key was first seen.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { joinKey } from '../../../src/engine/keys.js';
import { KeyIndex } from '../../../src/engine/operators/join-key-index.js';
import type { Row, Value } from '../../../src/values/types.js';

const value: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom<Value>('1', 1, -0, 0, null, true, false, 'a', '', 1.5, 'k1'),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
);

describe('KeyIndex', () => {
  it('keyOfRow equals joinKey, with one id and one instance per key, mixed with idOf', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(value, { minLength: 2, maxLength: 2 }), fc.constantFrom<number[]>([0], [1], [0, 1], [1, 0]), fc.boolean()), { maxLength: 60 }), (steps) => {
        const index = new KeyIndex();
        const seen = new Map<string, { id: number; instance: string }>();
        for (const [vals, idx, byString] of steps) {
          const row = vals as Row;
          const want = joinKey(row, idx);
          const id = byString ? index.idOf(want) : index.idOf(index.keyOfRow(row, idx));
          const key = index.keyOf(id);
          expect(key).toBe(want);
          const first = seen.get(want);
          if (first === undefined) seen.set(want, { id, instance: key });
          else {
            expect(id).toBe(first.id);
            expect(Object.is(key, first.instance)).toBe(true);
          }
          if (!byString) expect(index.keyOfRow(row, idx)).toBe(want);
        }
        expect(new Set([...seen.values()].map((s) => s.id)).size).toBe(seen.size);
      }),
      { numRuns: 300 },
    );
  });

  it('tells the string "1" from the number 1, and 0 from -0 not at all', () => {
    const index = new KeyIndex();
    const a = index.keyOfRow(['1'], [0]);
    const b = index.keyOfRow([1], [0]);
    expect(a).not.toBe(b);
    expect(index.keyOfRow([-0], [0])).toBe(index.keyOfRow([0], [0]));
    expect(index.keyOfRow([null], [0])).toBe(joinKey([null], [0]));
  });
});
