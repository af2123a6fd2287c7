import { describe, expect, it } from 'vitest';
import { isAccumulate } from '../src/values/types.js';

describe('row kinds', () => {
  it('classifies accumulate and retract messages', () => {
    expect(['+I', '-U', '+U', '-D'].map((k) => isAccumulate(k as never))).toEqual([true, false, true, false]);
  });
});
