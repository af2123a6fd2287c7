/**
 * Exact DECIMAL arithmetic on BigInt scaled integers, with Flink's runtime rules:
 * results are rounded to the result type's scale with HALF_UP and a value that does not fit
 * the result precision becomes NULL (DecimalData.fromBigDecimal). Division first rounds the
 * exact quotient to 38 significant digits (DecimalDataUtils' MathContext(38, HALF_UP)) and
 * only then to the result scale: that double rounding is Flink's, so we reproduce it.
 *
 * Row values hold a DECIMAL as its canonical text ("110.000000"); `Dec` is the working form.
 */

/** value = u / 10^s */
export interface Dec {
  readonly u: bigint;
  readonly s: number;
}

const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 160; i++, p *= 10n) POW10.push(p);

/** 10^n as a bigint (cached for the usual range). */
export function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** Number of decimal digits of |x| (1 for zero), as Java's BigDecimal.precision() counts them. */
export function digitCount(x: bigint): number {
  const a = abs(x);
  if (a < 10n) return 1;
  // toString is fast enough and exact; avoids a log10 approximation going wrong at powers of 10
  return a.toString().length;
}

const DEC_RE = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/** Parses decimal text (sign, digits, optional fraction and exponent), exactly. null = not a number. */
export function parseDec(text: string): Dec | null {
  const m = DEC_RE.exec(text);
  if (!m) return null;
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  if (int === '' && frac === '') return null;
  let s = frac.length;
  let u = BigInt((m[1] === '-' ? '-' : '') + (int + frac || '0'));
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 10000) return null;
  s -= exp;
  if (s < 0) {
    u *= pow10(-s);
    s = 0;
  }
  return { u, s };
}

/** Fast path for canonical row values ("-0.50", "12", "110.000000"). */
export function fromCanonical(text: string): Dec {
  const dot = text.indexOf('.');
  if (dot < 0) return { u: BigInt(text), s: 0 };
  return { u: BigInt(text.slice(0, dot) + text.slice(dot + 1)), s: text.length - dot - 1 };
}

/** Exact conversion of an integer (a JS safe integer) to a Dec at scale 0. */
export function fromInteger(n: number): Dec {
  return { u: BigInt(n), s: 0 };
}

/** Rescales with HALF_UP (ties away from zero), as BigDecimal.setScale(s, HALF_UP). */
export function rescale(d: Dec, s: number): Dec {
  if (s === d.s) return d;
  if (s > d.s) return { u: d.u * pow10(s - d.s), s };
  const div = pow10(d.s - s);
  let q = d.u / div;
  const r = d.u % div;
  if (abs(r) * 2n >= div) q += d.u < 0n ? -1n : 1n;
  return { u: q, s };
}

/** Rescales toward zero (RoundingMode.DOWN). */
export function truncate(d: Dec, s: number): Dec {
  if (s >= d.s) return rescale(d, s);
  return { u: d.u / pow10(d.s - s), s };
}

/** Whether the value has at most `precision` digits at its scale (BigDecimal.precision() <= p). */
export function fits(d: Dec, precision: number): boolean {
  return abs(d.u) < pow10(precision);
}

/** Flink's DecimalData.fromBigDecimal: rescale HALF_UP to (p, s), NULL when it does not fit. */
export function toType(d: Dec, precision: number, scale: number): Dec | null {
  const r = rescale(d, scale);
  return fits(r, precision) ? r : null;
}

/** Plain text with exactly `d.s` fraction digits (BigDecimal.toPlainString). */
export function formatPlain(d: Dec): string {
  const neg = d.u < 0n;
  const digits = abs(d.u).toString();
  if (d.s === 0) return neg ? '-' + digits : digits;
  const padded = digits.length > d.s ? digits : digits.padStart(d.s + 1, '0');
  const cut = padded.length - d.s;
  return (neg ? '-' : '') + padded.slice(0, cut) + '.' + padded.slice(cut);
}

/**
 * Java's BigDecimal.toString: plain unless the scale is positive and the adjusted exponent is
 * below -6, then scientific ("1.0E-7", "0E-8"). This is what Flink's print connector shows.
 */
export function formatJava(d: Dec): string {
  const digits = abs(d.u).toString();
  const adjusted = -d.s + (digits.length - 1);
  if (d.s >= 0 && adjusted >= -6) return formatPlain(d);
  const mant = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
  const exp = adjusted >= 0 ? '+' + adjusted : String(adjusted);
  return (d.u < 0n ? '-' : '') + mant + 'E' + exp;
}

export function compare(a: Dec, b: Dec): -1 | 0 | 1 {
  let x = a.u;
  let y = b.u;
  if (a.s < b.s) x *= pow10(b.s - a.s);
  else if (b.s < a.s) y *= pow10(a.s - b.s);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function negate(d: Dec): Dec {
  return { u: -d.u, s: d.s };
}

function aligned(a: Dec, b: Dec): [bigint, bigint, number] {
  if (a.s === b.s) return [a.u, b.u, a.s];
  if (a.s < b.s) return [a.u * pow10(b.s - a.s), b.u, b.s];
  return [a.u, b.u * pow10(a.s - b.s), a.s];
}

/** Exact sum. */
export function add(a: Dec, b: Dec): Dec {
  const [x, y, s] = aligned(a, b);
  return { u: x + y, s };
}

/** Exact difference. */
export function subtract(a: Dec, b: Dec): Dec {
  const [x, y, s] = aligned(a, b);
  return { u: x - y, s };
}

/** Exact product. */
export function multiply(a: Dec, b: Dec): Dec {
  return { u: a.u * b.u, s: a.s + b.s };
}

/** Thrown for a zero divisor; the evaluator turns it into a SqlRuntimeError. */
export class DecimalDivisionByZero extends Error {
  constructor() {
    super('Division by zero');
  }
}

const MC_DIGITS = 38;

/** a / b rounded to 38 significant digits with HALF_UP (BigDecimal.divide(b, MathContext(38, HALF_UP))). */
export function divide(a: Dec, b: Dec): Dec {
  if (b.u === 0n) throw new DecimalDivisionByZero();
  if (a.u === 0n) return { u: 0n, s: 0 };
  const neg = a.u < 0n !== b.u < 0n;
  const num = abs(a.u) * pow10(b.s);
  const den = abs(b.u) * pow10(a.s);
  // value = num / den; pick t so that floor(num * 10^t / den) has 39 or 40 digits
  const t = MC_DIGITS + 1 - (digitCount(num) - digitCount(den));
  const q0 = t >= 0 ? (num * pow10(t)) / den : num / (den * pow10(-t));
  const k = digitCount(q0) - MC_DIGITS;
  const div = pow10(k);
  let q = q0 / div;
  // HALF_UP: the dropped part (plus any non-zero remainder below it) is >= half -> up
  if ((q0 % div) * 2n >= div) q += 1n;
  return { u: neg ? -q : q, s: t - k };
}

/** a % b with the sign of the dividend (BigDecimal.remainder). */
export function remainder(a: Dec, b: Dec): Dec {
  if (b.u === 0n) throw new DecimalDivisionByZero();
  const [x, y, s] = aligned(a, b);
  return { u: x % y, s };
}

/** Parses any decimal text and converts it to DECIMAL(p, s) as Flink's cast does; null on overflow, undefined if not a number. */
export function castText(text: string, precision: number, scale: number): string | null | undefined {
  const d = parseDec(text);
  if (d === null) return undefined;
  const r = toType(d, precision, scale);
  return r === null ? null : formatPlain(r);
}

/** The double nearest to the decimal (DecimalDataUtils.doubleValue). */
export function toNumber(d: Dec): number {
  return Number(formatPlain(d));
}
