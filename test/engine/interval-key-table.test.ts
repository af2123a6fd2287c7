/**
 * The string table of the interval key interner (interval-key-table.ts) against a Map: the same
 * answers for any strings (empty, long, non-ASCII, lone surrogates), across growth and clears.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringTable } from '../../src/engine/operators/interval-key-table.js';

type Op = { k: 'put'; s: string; v: number } | { k: 'get'; s: string } | { k: 'clear' };

const strArb = fc.oneof(fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('', 'k1', 'k10', 'k01', '\ud800', 'x'.repeat(700)));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('put' as const), s: strArb, v: fc.integer() }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('get' as const), s: strArb }) },
  { weight: 1, arbitrary: fc.constant({ k: 'clear' as const }) },
);

describe('interval key string table', () => {
  it('answers as a Map does', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), (ops) => {
        const t = new StringTable<number>();
        const m = new Map<string, number>();
        for (const op of ops) {
          if (op.k === 'clear') {
            t.clear();
            m.clear();
          } else if (op.k === 'get') {
            expect(t.get(op.s)).toBe(m.get(op.s));
          } else if (!m.has(op.s)) {
            t.add(op.s, op.v);
            m.set(op.s, op.v);
          }
          expect(t.size).toBe(m.size);
        }
        for (const [s, v] of m) expect(t.get(s)).toBe(v);
      }),
    );
  });

  it('grows past its first sizes', () => {
    const t = new StringTable<number>();
    for (let i = 0; i < 5000; i++) t.add(`key-${i}`, i);
    for (let i = 0; i < 5000; i++) expect(t.get(`key-${i}`)).toBe(i);
    expect(t.get('key-5000')).toBeUndefined();
    expect(t.size).toBe(5000);
  });
});
