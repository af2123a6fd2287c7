/**
 * Deep equality for engine values whose layout is not their content: two changelog versions are
 * equal when they hold the same rows, whichever shared segments hold them (changelog.ts).
 */
import { expect } from 'vitest';
import { Changelog, clEquals } from '../../src/engine/changelog.js';

expect.addEqualityTesters([
  (a: unknown, b: unknown): boolean | undefined => {
    const ca = a instanceof Changelog;
    const cb = b instanceof Changelog;
    if (!ca && !cb) return undefined;
    return ca && cb && clEquals(a, b);
  },
]);
