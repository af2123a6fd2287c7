/**
 * The Number fast path of DECIMAL arithmetic: while every unscaled value stays a safe integer
 * (operands of at most 15 digits, the usual case), plain doubles compute exactly and avoid
 * BigInt's parsing and allocation. Anything else returns undefined and the caller takes the
 * BigInt path in decimal.ts; the two agree (test/values/decimal-property.test.ts).
 */
const NPOW10: number[] = [];
for (let i = 0, p = 1; i <= 22; i++, p *= 10) NPOW10.push(p);

/**
 * Unscaled value and scale of canonical text when it has at most 15 digits; undefined otherwise.
 * A hand loop without intermediate strings: it runs per row.
 */
export function smallParts(text: string): [number, number] | undefined {
  const n = text.length;
  if (n > 17 || n === 0) return undefined;
  let i = 0;
  const neg = text.charCodeAt(0) === 45; // '-'
  if (neg) i = 1;
  let u = 0;
  let dot = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) dot = i;
    else u = u * 10 + (c - 48);
  }
  // 15 digits always fit a double exactly; 16 may not
  if (n - (neg ? 1 : 0) - (dot < 0 ? 0 : 1) > 15) return undefined;
  return [neg ? -u : u, dot < 0 ? 0 : n - dot - 1];
}

/**
 * Rescales a safe unscaled integer HALF_UP and formats it at the type (p, s), or returns null on
 * precision overflow; undefined when the Number path cannot stay exact (the caller uses BigInt).
 */
export function smallToType(u: number, s: number, precision: number, scale: number): string | null | undefined {
  if (!Number.isSafeInteger(u)) return undefined;
  let v = u;
  if (scale > s) {
    const f = NPOW10[scale - s];
    if (f === undefined) return undefined;
    v = u * f;
    if (!Number.isSafeInteger(v)) return undefined;
  } else if (scale < s) {
    const div = NPOW10[s - scale];
    if (div === undefined) return undefined;
    let q = Math.trunc(u / div);
    let r = u - q * div;
    // guard the float division: bring the remainder back into (-div, div)
    if (Math.abs(r) >= div) {
      q += Math.trunc(r / div);
      r = u - q * div;
    }
    if (Math.abs(r) * 2 >= div) q += u < 0 ? -1 : 1;
    v = q;
  }
  if (precision < 16 && Math.abs(v) >= (NPOW10[precision] as number)) return null;
  return formatSmall(v, scale);
}

/** Decimal digits of a non-negative safe integer; V8 prints values above 2^31 slowly, so split them. */
function digitsOf(a: number): string {
  if (a < 2147483648) return '' + a;
  const hi = Math.floor(a / 1e9);
  const lo = '' + (a - hi * 1e9);
  return '' + hi + '000000000'.slice(lo.length) + lo;
}

function formatSmall(v: number, scale: number): string {
  const neg = v < 0;
  const digits = digitsOf(neg ? -v : v);
  if (scale === 0) return neg ? '-' + digits : digits;
  const padded = digits.length > scale ? digits : '0'.repeat(scale + 1 - digits.length) + digits;
  const cut = padded.length - scale;
  return (neg ? '-' : '') + padded.slice(0, cut) + '.' + padded.slice(cut);
}
