/**
 * The identity hash a cursor keeps (record-bucket.ts cursorHash): a step looks a row up and then
 * stores it, and the second use must get the hash of that same row under the side's layout, never
 * a hash kept for another row or from another key's read.
 */
import { describe, expect, it } from 'vitest';
import { Cursor, cursorHash, entryHash } from '../../../src/engine/state/record-bucket.js';
import type { SideSpec } from '../../../src/engine/state/record-state.js';

const spec: SideSpec = {
  side: 0,
  name: 'o',
  layout: { kind: 'InputSideHasNoUniqueKey' },
  outer: false,
  ttlMs: 0,
  types: [
    { kind: 'STRING', nullable: true },
    { kind: 'INT', nullable: true },
  ],
  keyIdx: [0],
};

describe('cursorHash', () => {
  it('is entryHash of the row asked for, for the same row, an equal row and a different one', () => {
    const c = new Cursor();
    c.clear('k1');
    const a = ['k1', 1];
    const b = ['k1', 2];
    expect(entryHash(spec, a)).not.toBe(entryHash(spec, b));
    expect(cursorHash(spec, c, a)).toBe(entryHash(spec, a));
    expect(cursorHash(spec, c, a)).toBe(entryHash(spec, a));
    expect(cursorHash(spec, c, b)).toBe(entryHash(spec, b));
    expect(cursorHash(spec, c, ['k1', 1])).toBe(entryHash(spec, a));
  });

  it('forgets the kept row when the cursor is cleared for another read', () => {
    const c = new Cursor();
    c.clear('k1');
    const a = ['k1', 1];
    cursorHash(spec, c, a);
    c.clear('k2');
    expect(c.hashed).toBeUndefined();
    // A hash planted for the row must not survive a clear either.
    c.hashed = a;
    c.h = 12345;
    c.clear('k1');
    expect(cursorHash(spec, c, a)).toBe(entryHash(spec, a));
  });
});
