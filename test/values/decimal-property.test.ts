import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as D from '../../src/values/decimal.js';
import { compileExpr } from '../../src/values/eval.js';
import { call, dec, lit } from './texpr.js';

const ctx = { procTime: 0, timeZone: 'UTC' };
const decArb = (maxDigits: number) =>
  fc.record({
    u: fc.bigInt({ min: -(10n ** BigInt(maxDigits)) + 1n, max: 10n ** BigInt(maxDigits) - 1n }),
    s: fc.integer({ min: 0, max: Math.min(maxDigits, 8) }),
  });

/** Exact rational a / b rounded HALF_UP at scale s, computed without the 38-digit step. */
function refDivide(a: D.Dec, b: D.Dec, s: number): bigint {
  const num = a.u * 10n ** BigInt(s + b.s);
  const den = b.u * 10n ** BigInt(a.s);
  const neg = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  let q = n / d;
  if ((n % d) * 2n >= d) q += 1n;
  return neg ? -q : q;
}

describe('decimal properties', () => {
  it('the Number fast path and the BigInt path agree for + - *', () => {
    fc.assert(
      fc.property(decArb(12), decArb(12), fc.constantFrom('+', '-', '*'), fc.integer({ min: 0, max: 8 }), (a, b, op, s) => {
        const ta = dec(18, a.s);
        const tb = dec(18, b.s);
        const p = 20;
        const e = call(op, dec(p, s), lit(D.formatPlain(a), ta), lit(D.formatPlain(b), tb));
        const got = compileExpr(e)([], ctx);
        const exact = op === '+' ? D.add(a, b) : op === '-' ? D.subtract(a, b) : D.multiply(a, b);
        const want = D.toType(exact, p, s);
        expect(got).toBe(want === null ? null : D.formatPlain(want));
      }),
      { numRuns: 2000 },
    );
  });

  it('divide matches the exact rational rounded HALF_UP (small scales)', () => {
    fc.assert(
      fc.property(decArb(10), decArb(10), fc.integer({ min: 0, max: 6 }), (a, b, s) => {
        fc.pre(b.u !== 0n);
        const r = D.toType(D.divide(a, b), 38, s);
        expect(r && r.u).toBe(refDivide(a, b, s));
      }),
      { numRuns: 2000 },
    );
  });

  it('plain and Java text both parse back to the same value', () => {
    fc.assert(
      fc.property(decArb(30), (a) => {
        expect(D.compare(D.parseDec(D.formatPlain(a)) as D.Dec, a)).toBe(0);
        expect(D.compare(D.parseDec(D.formatJava(a)) as D.Dec, a)).toBe(0);
        expect(D.fromCanonical(D.formatPlain(a))).toEqual(a);
      }),
      { numRuns: 1000 },
    );
  });

  it('rescale HALF_UP is symmetric under negation', () => {
    fc.assert(
      fc.property(decArb(20), fc.integer({ min: 0, max: 8 }), (a, s) => {
        expect(D.rescale(D.negate(a), s).u).toBe(-D.rescale(a, s).u);
      }),
    );
  });
});

describe('fast path boundaries', () => {
  it('16-digit operands take the exact path', () => {
    const e = call('*', dec(38, 0), lit('9999999999999999', dec(16, 0)), lit('3', dec(1, 0)));
    expect(compileExpr(e)([], ctx)).toBe('29999999999999997');
    const f = call('+', dec(17, 0), lit('9007199254740993', dec(16, 0)), lit('0', dec(1, 0)));
    expect(compileExpr(f)([], ctx)).toBe('9007199254740993');
  });
});
