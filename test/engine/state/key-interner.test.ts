/**
 * The key interner (state/key-interner.ts). Bounded (the interval and temporal joins'): it hands
 * back a value equal to its input, whatever it held before (also as V8's internalized instance,
 * which those joins take), and never holds more than its bound. Unbounded (the
 * record store's): a row's key found from its value must be exactly the key string keys.ts
 * joinKey builds, one instance and one id per distinct key, whichever way (by string, by row
 * value, one column or several) the key was first seen.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Row, Value } from '../../../src/values/types.js';
import { joinKey } from '../../../src/engine/keys.js';
import { KeyInterner } from '../../../src/engine/state/key-interner.js';

describe('key interner, bounded', () => {
  it('returns an equal string for every key, across the resets of its bound', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 3 }), { maxLength: 200 }), fc.integer({ min: 1, max: 8 }), (keys, max) => {
        const i = new KeyInterner(max);
        for (const k of keys) {
          expect(i.intern(k)).toBe(k);
          expect(i.size).toBeLessThanOrEqual(max);
        }
      }),
    );
  });

  it('holds each distinct key once', () => {
    const i = new KeyInterner(16);
    for (const k of ['a', 'b', 'a', `${'a'}`, 'c', 'b']) i.intern(k);
    expect(i.size).toBe(3);
  });

  it('starts over when full, keeping the newest key', () => {
    const i = new KeyInterner(2);
    i.intern('a');
    i.intern('b');
    expect(i.size).toBe(2);
    i.intern('c');
    expect(i.size).toBe(1);
    expect(i.intern('c')).toBe('c');
    expect(i.size).toBe(1);
  });
});

describe('key interner, handing out internalized keys (the string-keyed joins\')', () => {
  it('returns an equal string for every key, property-like names included', () => {
    const special = ['', '0', '123', '4294967295', '-0', '1e3', 'NaN', '__proto__', 'constructor', 'toString', 'length'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...special), fc.string({ maxLength: 3 })), { maxLength: 200 }), fc.integer({ min: 1, max: 8 }), (keys, max) => {
        const i = new KeyInterner(max, true);
        for (const k of keys) {
          expect(i.intern(k)).toBe(k);
          expect(i.size).toBeLessThanOrEqual(max);
        }
      }),
    );
  });

  it('gives joinKey of the key columns', () => {
    const i = new KeyInterner(4, true);
    for (const row of [['a', 1], ['__proto__', 2], [0, 3], ['a', 4], [null, 5], ['', 6]] as Row[]) {
      expect(i.keyOfRow(row, [0])).toBe(joinKey(row, [0]));
      expect(i.keyOfRow(row, [1, 0])).toBe(joinKey(row, [1, 0]));
    }
  });
});

describe('key interner, bounded, by row', () => {
  const valueArb = fc.oneof(fc.constantFrom(null, 0, -0, NaN, 1, true, false, 'd1', 's', ''), fc.string({ maxLength: 3 }), fc.integer({ min: -3, max: 3 }));
  it('gives joinKey of the key columns, across the resets of its bound', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(valueArb, valueArb), { maxLength: 200 }), fc.boolean(), fc.integer({ min: 1, max: 8 }), (rows, two, max) => {
        const i = new KeyInterner(max);
        const idx = two ? [1, 0] : [1];
        for (const row of rows) {
          expect(i.keyOfRow(row, idx)).toBe(joinKey(row, idx));
          expect(i.size).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});

const value: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom<Value>('1', 1, -0, 0, null, true, false, 'a', '', 1.5, 'k1'),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
);

describe('key interner, unbounded', () => {
  it('keyOfRow equals joinKey, with one id and one instance per key, mixed with idOf', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(value, { minLength: 2, maxLength: 2 }), fc.constantFrom<number[]>([0], [1], [0, 1], [1, 0]), fc.boolean()), { maxLength: 60 }), (steps) => {
        const index = new KeyInterner();
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
    const index = new KeyInterner();
    const a = index.keyOfRow(['1'], [0]);
    const b = index.keyOfRow([1], [0]);
    expect(a).not.toBe(b);
    expect(index.keyOfRow([-0], [0])).toBe(index.keyOfRow([0], [0]));
    expect(index.keyOfRow([null], [0])).toBe(joinKey([null], [0]));
  });
});
