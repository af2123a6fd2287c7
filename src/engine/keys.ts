/**
 * Keys for rows in persistent maps: a string that is equal exactly when the values are equal
 * (`===` per value; the type tag keeps the string "1" apart from the number 1).
 */
import type { Row, Value } from '../values/types.js';

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
