/**
 * Deep equality for engine values whose layout is not their content: two changelog versions are
 * equal when they hold the same rows, whichever shared segments hold them (changelog.ts); two map
 * versions when they hold the same keys and equal values, whichever histories hold them (pmap.ts);
 * two timer queues when their heaps hold the same timers in the same places, whichever operation
 * logs hold them (timer-service.ts).
 */
import { expect } from 'vitest';
import type { Tester, TesterContext } from '@vitest/expect';
import { Changelog, clEquals } from '../../src/engine/changelog.js';
import { PMap, pmEquals } from '../../src/engine/collections/pmap.js';
import { TimerQueue, timerQueuesEqual } from '../../src/engine/state/timer-service.js';

expect.addEqualityTesters([
  (a: unknown, b: unknown): boolean | undefined => {
    const ca = a instanceof Changelog;
    const cb = b instanceof Changelog;
    if (!ca && !cb) return undefined;
    return ca && cb && clEquals(a, b);
  },
  function pmapEquality(this: TesterContext, a: unknown, b: unknown, testers: Tester[]): boolean | undefined {
    const ma = a instanceof PMap;
    const mb = b instanceof PMap;
    if (!ma && !mb) return undefined;
    return ma && mb && pmEquals(a, b, (x, y) => this.equals(x, y, testers));
  },
  (a: unknown, b: unknown): boolean | undefined => {
    const ta = a instanceof TimerQueue;
    const tb = b instanceof TimerQueue;
    if (!ta && !tb) return undefined;
    return ta && tb && timerQueuesEqual(a, b);
  },
]);
