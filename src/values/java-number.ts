/**
 * Java's Double.toString / Float.toString (JDK 19+ rules, which Flink's print connector shows):
 * the shortest decimal that reads back as the same value (when one digit would do, the closest
 * of the one- and two-digit decimals), written plain when 1e-3 <= |x| < 1e7 (`100.0`, `0.001`)
 * and in computerized scientific notation otherwise (`1.0E10`, `1.0E-4`).
 */

function layout(neg: boolean, digits: string, exp: number): string {
  const sign = neg ? '-' : '';
  // plain range: 10^-3 <= |x| < 10^7 means a scientific exponent in -3..6
  if (exp >= -3 && exp < 7) {
    if (exp < 0) return sign + '0.' + '0'.repeat(-exp - 1) + digits;
    const intLen = exp + 1;
    const int = digits.length >= intLen ? digits.slice(0, intLen) : digits.padEnd(intLen, '0');
    const frac = digits.length > intLen ? digits.slice(intLen) : '0';
    return sign + int + '.' + frac;
  }
  return sign + digits[0] + '.' + (digits.length > 1 ? digits.slice(1) : '0') + 'E' + exp;
}

/** Splits JS exponential text ("1.25e-7") into significant digits without trailing zeros and the exponent. */
function splitExp(text: string): [string, number] {
  const e = text.indexOf('e');
  let digits = text.slice(0, e).replace('.', '').replace('-', '');
  digits = digits.replace(/0+$/, '') || '0';
  return [digits, Number(text.slice(e + 1))];
}

function special(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  return undefined;
}

/** Chooses the digits: shortest that round-trips through `back`; a one-digit answer may yield to a closer two-digit one. */
function shortest(x: number, back: (n: number) => number, maxDigits: number): [string, number] {
  const a = Math.abs(x);
  let best: [string, number] | undefined;
  if (maxDigits === 17) best = splitExp(a.toExponential());
  else {
    for (let p = 1; p <= maxDigits && !best; p++) {
      const t = a.toExponential(p - 1);
      if (back(Number(t)) === a) best = splitExp(t);
    }
    best ??= splitExp(a.toExponential(maxDigits - 1));
  }
  if (best[0].length === 1) {
    // the correctly rounded two-digit decimal is the closest one; if it differs from the
    // one-digit answer and still reads back as x, it is strictly closer (5E-324 → 4.9E-324)
    const two = a.toExponential(1);
    const cand = splitExp(two);
    if (back(Number(two)) === a && (cand[0] !== best[0] || cand[1] !== best[1])) best = cand;
  }
  return best;
}

export function javaDoubleToString(x: number): string {
  const a = x < 0 ? -x : x;
  if (a >= 1e-3 && a < 1e7) {
    // JS prints this range plainly with the same shortest digits; Java adds ".0" to integers
    const t = String(x);
    return t.includes('.') ? t : t + '.0';
  }
  const s = special(x);
  if (s !== undefined) return s;
  const [digits, exp] = shortest(x, (n) => n, 17);
  return layout(x < 0, digits, exp);
}

/** `x` must already be a float value (Math.fround). */
export function javaFloatToString(x: number): string {
  const s = special(x);
  if (s !== undefined) return s;
  const [digits, exp] = shortest(x, Math.fround, 9);
  return layout(x < 0, digits, exp);
}
