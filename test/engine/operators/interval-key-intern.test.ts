/**
 * The interval join's key interner (interval-key-intern.ts): it hands back a value equal to its
 * input, whatever it held before, and never holds more than its bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinKey } from '../../../src/engine/keys.js';
import { newInterner } from '../../../src/engine/operators/interval-key-intern.js';

describe('interval key interner', () => {
  it('returns an equal string for every key, across the resets of its bound', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 3 }), { maxLength: 200 }), fc.integer({ min: 1, max: 8 }), (keys, max) => {
        const i = newInterner(max);
        for (const k of keys) {
          expect(i.intern(k)).toBe(k);
          expect(i.size()).toBeLessThanOrEqual(max);
        }
      }),
    );
  });

  it('holds each distinct key once', () => {
    const i = newInterner(16);
    for (const k of ['a', 'b', 'a', `${'a'}`, 'c', 'b']) i.intern(k);
    expect(i.size()).toBe(3);
  });

  it('starts over when full, keeping the newest key', () => {
    const i = newInterner(2);
    i.intern('a');
    i.intern('b');
    expect(i.size()).toBe(2);
    i.intern('c');
    expect(i.size()).toBe(1);
    expect(i.intern('c')).toBe('c');
    expect(i.size()).toBe(1);
  });
});

describe('interval key interner, by row', () => {
  const valueArb = fc.oneof(fc.constantFrom(null, 0, -0, NaN, 1, true, false, 'd1', 's', ''), fc.string({ maxLength: 3 }), fc.integer({ min: -3, max: 3 }));
  it('gives joinKey of the key columns, across the resets of its bound', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(valueArb, valueArb), { maxLength: 200 }), fc.boolean(), fc.integer({ min: 1, max: 8 }), (rows, two, max) => {
        const i = newInterner(max);
        const idx = two ? [1, 0] : [1];
        for (const row of rows) {
          expect(i.keyOf(row, idx)).toBe(joinKey(row, idx));
          expect(i.size()).toBeLessThanOrEqual(3 * max);
        }
      }),
    );
  });
});
