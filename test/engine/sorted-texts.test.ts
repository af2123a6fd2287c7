/** The chunked sorted multiset under the result cursor: after any adds and removes, it reads as a sorted array would. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedTexts } from '../../src/engine/sorted-texts.js';

/** The plain model: one array, sorted after every change. */
function model(ops: readonly [boolean, string, number][]): string[] {
  const bag: string[] = [];
  for (const [add, text, times] of ops) {
    if (add) for (let i = 0; i < times; i++) bag.push(text);
    else
      for (let i = 0; i < times; i++) {
        const at = bag.indexOf(text);
        if (at >= 0) bag.splice(at, 1);
      }
    bag.sort();
  }
  return bag;
}

describe('SortedTexts', () => {
  // Few distinct texts and runs of copies, so that copies of one text span several chunks.
  const text = fc.oneof(fc.constantFrom('a', 'b', 'b ', 'ä', '', 'z'), fc.string({ maxLength: 3 }));
  const op = fc.tuple(fc.boolean(), text, fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 700 })));

  it('reads as the sorted array of what was added and not removed, whole and by windows', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.nat(), fc.nat(), (ops, a, b) => {
        const s = new SortedTexts();
        for (const [add, t, times] of ops) (add ? s.add(t, times) : s.remove(t, times));
        const expected = model(ops);
        expect(s.length).toBe(expected.length);
        expect(s.toArray()).toEqual(expected);
        const from = a % (expected.length + 2);
        const to = from + (b % 40);
        expect(s.slice(from, to)).toEqual(expected.slice(from, to));
      }),
      { numRuns: 300, seed: 16 },
    );
  });

  it('keeps thousands of single adds and removes in order', () => {
    const s = new SortedTexts();
    const kept: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const t = `r${(i * 7919) % 3001}`;
      s.add(t);
      kept.push(t);
      if (i % 3 === 0) {
        const gone = kept.splice((i * 31) % kept.length, 1)[0]!;
        s.remove(gone);
      }
    }
    expect(s.toArray()).toEqual(kept.sort());
  });
});
