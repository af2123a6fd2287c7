/**
 * Keys for rows in persistent maps: a string that is equal exactly when the values are equal
 * (`===` per value; the type tag keeps the string "1" apart from the number 1).
 */
import type { Row, Value } from '../values/types.js';
import { hashString } from './collections/hash.js';

function part(v: Value): string {
  if (v === null) return 'n';
  switch (typeof v) {
    case 'string':
      return 's' + v;
    case 'number':
      return 'd' + v;
    default:
      return v ? 't' : 'f';
  }
}

/** Key of the whole row, or of the columns at `idx`. */
export function rowKey(row: Row, idx?: readonly number[]): string {
  let out = '';
  if (idx === undefined) {
    for (let i = 0; i < row.length; i++) out += (i === 0 ? '' : '\u0001') + part(row[i] ?? null);
  } else {
    for (let i = 0; i < idx.length; i++) out += (i === 0 ? '' : '\u0001') + part(row[idx[i] as number] ?? null);
  }
  return out;
}

/** Value equality of two rows, optionally on some columns only and skipping `ignore`. */
export function rowsEqual(a: Row, b: Row, idx?: readonly number[], ignore?: readonly number[]): boolean {
  if (idx !== undefined) {
    for (const i of idx) if (a[i] !== b[i]) return false;
    return true;
  }
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && !(ignore !== undefined && ignore.includes(i))) return false;
  }
  return true;
}

/**
 * A join / state key of the columns at `idx`: unambiguous across types (a type tag per value)
 * and across columns (strings carry their length when there are several columns), with no
 * array or JSON built. One column is just its tagged value.
 */
export function joinKey(row: Row, idx: readonly number[]): string {
  if (idx.length === 1) return part(row[idx[0] as number] ?? null);
  let out = '';
  for (let i = 0; i < idx.length; i++) {
    const v = row[idx[i] as number] ?? null;
    out += typeof v === 'string' ? `s${v.length}:${v}` : part(v);
    out += '|';
  }
  return out;
}

/** Value equality as a key sees it: `===`, except that NaN equals NaN. */
function same(a: Value | undefined, b: Value | undefined): boolean {
  return a === b || (a !== a && b !== b);
}

/** Rows equal on every column (same length). */
export function sameRow(a: Row, b: Row): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
  return true;
}

/** Rows equal on the columns at `idx`. */
export function sameOn(a: Row, b: Row, idx: readonly number[]): boolean {
  for (let i = 0; i < idx.length; i++) if (!same(a[idx[i] as number] ?? null, b[idx[i] as number] ?? null)) return false;
  return true;
}

/** An unambiguous id of the whole row (strings carry their length; one tag per value). */
export function rowId(row: Row): string {
  let out = '';
  for (let i = 0; i < row.length; i++) {
    const v = row[i] ?? null;
    out += typeof v === 'string' ? `s${v.length}:${v}` : part(v);
    out += '|';
  }
  return out;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const TWO32 = 4294967296;

/** A 32-bit hash of one value, equal for values that `same` calls equal (0 and -0, NaN and NaN). */
function hashValue(v: Value | undefined): number {
  if (v === null || v === undefined) return 0x9e3779b9;
  switch (typeof v) {
    case 'string':
      return hashString(v);
    case 'number':
      if (v !== v) return 0x7ff80000;
      if (Number.isSafeInteger(v)) return (v % TWO32) ^ Math.floor(v / TWO32);
      F64[0] = v;
      return (U32[0] as number) ^ Math.imul(U32[1] as number, 0x85ebca6b);
    default:
      return v ? 0x3c6ef372 : 0xdaa66d2b;
  }
}

/**
 * A 32-bit hash of the columns at `idx` (or of the whole row): rows that `sameOn` / `sameRow`
 * call equal hash equal, so comparing hashes first skips almost every row comparison.
 * Built without strings (rowId builds one), so it costs a few ns per value.
 */
export function rowHash(row: Row, idx?: readonly number[]): number {
  let h = 0x2545f491;
  const n = idx === undefined ? row.length : idx.length;
  for (let i = 0; i < n; i++) {
    const v = idx === undefined ? row[i] : row[idx[i] as number];
    h = Math.imul(h ^ hashValue(v), 0x01000193);
    h ^= h >>> 15;
  }
  return h | 0;
}

/**
 * The joined row, left columns then right columns; a missing side is null-padded to the given
 * width. Filled by index into an array of its exact size: this runs once per emitted row, and
 * spreading allocates iterator results and a growing array.
 */
export function concatRows(left: Row | undefined, right: Row | undefined, leftWidth: number, rightWidth: number): Row {
  const nl = left === undefined ? leftWidth : left.length;
  const nr = right === undefined ? rightWidth : right.length;
  const out = new Array<Value>(nl + nr);
  for (let i = 0; i < nl; i++) out[i] = left === undefined ? null : (left[i] as Value);
  for (let i = 0; i < nr; i++) out[nl + i] = right === undefined ? null : (right[i] as Value);
  return out;
}
