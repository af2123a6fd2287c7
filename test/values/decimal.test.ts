import { describe, expect, it } from 'vitest';
import * as D from '../../src/values/decimal.js';

const p = (s: string): D.Dec => {
  const d = D.parseDec(s);
  if (!d) throw new Error(`bad test input ${s}`);
  return d;
};
/** Operation result converted to DECIMAL(prec, scale) as Flink's fromBigDecimal does, as text or null. */
const at = (d: D.Dec, prec: number, scale: number): string | null => {
  const r = D.toType(d, prec, scale);
  return r === null ? null : D.formatPlain(r);
};

describe('parse and canonical text', () => {
  it('keeps the written scale and formats exactly scale fraction digits', () => {
    expect(D.formatPlain(p('1.10'))).toBe('1.10');
    expect(D.formatPlain(p('-0.5'))).toBe('-0.5');
    expect(D.formatPlain(p('.5'))).toBe('0.5');
    expect(D.formatPlain(p('007'))).toBe('7');
    expect(D.formatPlain(p('1.5e2'))).toBe('150');
    expect(D.formatPlain(p('1.5e-3'))).toBe('0.0015');
    expect(D.formatPlain(p(' +12.50 '))).toBe('12.50');
  });
  it('rejects what is not a number', () => {
    for (const s of ['', '.', 'abc', '1.2.3', '1e', '--1', '12a', '0x10']) expect(D.parseDec(s)).toBeNull();
  });
  it('round trips canonical values', () => {
    for (const s of ['0.00', '-0.50', '110.000000', '12', '-7', '0.0000000000000000001']) {
      expect(D.formatPlain(D.fromCanonical(s))).toBe(s);
    }
  });
  it('prints long values exactly (Flink DecimalDataTest.testToString)', () => {
    expect(D.castText('0.0000000000000000001', 39, 19)).toBe('0.0000000000000000001');
    expect(D.castText('123456789012345678901234567890123456789', 39, 0)).toBe('123456789012345678901234567890123456789');
  });
});

describe('rescale with HALF_UP and precision overflow to null', () => {
  it('pads, rounds half away from zero, and checks precision', () => {
    expect(D.castText('1.5', 10, 2)).toBe('1.50');
    expect(D.castText('1.005', 10, 2)).toBe('1.01');
    expect(D.castText('-1.005', 10, 2)).toBe('-1.01');
    expect(D.castText('1.00499', 10, 2)).toBe('1.00');
    expect(D.castText('0.0000005', 38, 6)).toBe('0.000001');
    expect(D.castText('-0.0000005', 38, 6)).toBe('-0.000001');
    expect(D.castText('0.0000004999', 38, 6)).toBe('0.000000');
    expect(D.castText('12345.6', 5, 1)).toBeNull();
    expect(D.castText('9999.96', 5, 1)).toBeNull(); // rounds up to 10000.0: 6 digits
    expect(D.castText('9999.94', 5, 1)).toBe('9999.9');
    expect(D.castText('9223372036854775807', 5, 0)).toBeNull();
    expect(D.castText('abc', 5, 0)).toBeUndefined();
  });
  it('fits counts digits of the unscaled value', () => {
    expect(D.fits(p('0.05'), 1)).toBe(true);
    expect(D.fits(p('99.99'), 4)).toBe(true);
    expect(D.fits(p('100.00'), 4)).toBe(false);
    expect(D.fits(p('0'), 1)).toBe(true);
  });
});

describe('arithmetic (DecimalDataTest expectations)', () => {
  const ten = p('10');
  const fifteen = p('15');
  it('add / subtract / multiply / mod', () => {
    expect(at(D.add(ten, fifteen), 5, 0)).toBe('25');
    expect(at(D.subtract(ten, fifteen), 5, 0)).toBe('-5');
    expect(at(D.multiply(ten, fifteen), 5, 0)).toBe('150');
    expect(at(D.remainder(ten, fifteen), 5, 0)).toBe('10');
    expect(at(D.remainder(p('-7.5'), p('2')), 5, 1)).toBe('-1.5');
    expect(at(D.add(p('1.10'), p('2.005')), 10, 3)).toBe('3.105');
  });
  it('divide rounds to 38 digits then to the scale', () => {
    expect(at(D.divide(ten, fifteen), 5, 2)).toBe('0.67');
    expect(at(D.divide(p('1'), p('3')), 38, 6)).toBe('0.333333');
    expect(at(D.divide(p('2'), p('3')), 38, 20)).toBe('0.66666666666666666667');
    expect(at(D.divide(p('-2'), p('3')), 38, 6)).toBe('-0.666667');
    expect(at(D.divide(p('10'), p('4')), 10, 1)).toBe('2.5');
    expect(at(D.divide(p('1'), p('0.0003')), 38, 6)).toBe('3333.333333');
  });
  it('divide by zero throws', () => {
    expect(() => D.divide(ten, p('0.00'))).toThrow(D.DecimalDivisionByZero);
    expect(() => D.remainder(ten, p('0'))).toThrow(D.DecimalDivisionByZero);
  });
  it('divide reproduces the double rounding of MathContext(38) then setScale', () => {
    // 1/7 to 38 significant digits is 0.14285714285714285714285714285714285714; at scale 38 it is exact
    expect(at(D.divide(p('1'), p('7')), 38, 38)).toBe('0.14285714285714285714285714285714285714');
    // 12345678901234567890 / 3 at 38 digits, then scale 18 (precision 38): 20 integer digits + 18
    expect(at(D.divide(p('12345678901234567890'), p('3')), 38, 18)).toBe('4115226300411522630.000000000000000000');
  });
  it('multiply overflow is null; the spike\'s edge cases', () => {
    expect(at(D.multiply(p('100000000000000000000'), p('1000000000000000')), 38, 6)).toBeNull();
    expect(at(D.multiply(p('0.0000005'), p('1')), 38, 6)).toBe('0.000001');
    expect(at(D.multiply(p('1.10'), p('100')), 21, 6)).toBe('110.000000');
    expect(
      at(D.multiply(p('123456789012345.6789012345'), p('98765432109.8765432109')), 38, 6),
    ).toBe('12193263113702179522607675.047163');
  });
  it('compares across scales', () => {
    expect(D.compare(p('1.10'), p('1.1'))).toBe(0);
    expect(D.compare(p('-0.5'), p('0.00'))).toBe(-1);
    expect(D.compare(p('10.5'), p('10'))).toBe(1);
  });
  it('negate and truncate', () => {
    expect(D.formatPlain(D.negate(p('0.50')))).toBe('-0.50');
    expect(D.formatPlain(D.truncate(p('-10.9'), 0))).toBe('-10');
  });
});

describe('Java BigDecimal.toString (the print form)', () => {
  it('is plain unless the adjusted exponent is below -6', () => {
    expect(D.formatJava(p('110.000000'))).toBe('110.000000');
    expect(D.formatJava(p('-12.50'))).toBe('-12.50');
    expect(D.formatJava(p('0.00000100'))).toBe('0.00000100');
    expect(D.formatJava(p('0.00000010'))).toBe('1.0E-7');
    expect(D.formatJava(p('0.00000000'))).toBe('0E-8');
    expect(D.formatJava(p('-0.000000012'))).toBe('-1.2E-8');
    expect(D.formatJava(p('12345678901234567890'))).toBe('12345678901234567890');
  });
});
