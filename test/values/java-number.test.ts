import { describe, expect, it } from 'vitest';
import { javaDoubleToString, javaFloatToString } from '../../src/values/java-number.js';

describe('Java Double.toString', () => {
  it.each([
    [1.1, '1.1'],
    [100, '100.0'],
    [1e10, '1.0E10'],
    [1e-4, '1.0E-4'],
    [0.001, '0.001'],
    [0.1, '0.1'],
    [-2.5, '-2.5'],
    [1234567, '1234567.0'],
    [9999999.999, '9999999.999'],
    [1e7, '1.0E7'],
    [12345678, '1.2345678E7'],
    [0.1 + 0.2, '0.30000000000000004'],
    [123456789012, '1.23456789012E11'],
    [0, '0.0'],
    [-0, '-0.0'],
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
    [Number.MAX_VALUE, '1.7976931348623157E308'],
    [Number.MIN_VALUE, '4.9E-324'],
    [1e23, '1.0E23'],
    [0.00099, '9.9E-4'],
  ])('%s → %s', (x, want) => {
    expect(javaDoubleToString(x)).toBe(want);
  });
});

describe('Java Float.toString', () => {
  it.each([
    [1.1, '1.1'],
    [0.1, '0.1'],
    [100, '100.0'],
    [1e10, '1.0E10'],
    [3.4028235e38, '3.4028235E38'],
    [1.4e-45, '1.4E-45'],
    [16777216, '1.6777216E7'],
    [0.3, '0.3'],
  ])('%s → %s', (x, want) => {
    expect(javaFloatToString(Math.fround(x))).toBe(want);
  });
});

describe('properties', () => {
  it('reads back as the same double, scientific exactly outside [1e-3, 1e7)', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const s = javaDoubleToString(x);
        expect(Object.is(Number(s), x)).toBe(true);
        const a = Math.abs(x);
        if (x !== 0) expect(s.includes('E')).toBe(a < 1e-3 || a >= 1e7);
        expect(s).toMatch(/^-?\d+\.\d+(E-?\d+)?$/);
      }),
      { numRuns: 3000 },
    );
  });
});
