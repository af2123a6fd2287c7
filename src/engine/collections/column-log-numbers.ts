/**
 * The number columns of a ColumnLog (shared-log-columns.ts): count, assoc and at as lazy columns,
 * and hash, seq and stamp interleaved in one typed array.
 *
 * Why columns: a join side holds a record per stored row, and an object per record (~72 B plus a
 * slot) was the largest part of the memory a long run keeps. Here a record costs a row slot and
 * 12 bytes of hash, seq and stamp (one Int32Array: one cache line fewer per append than separate
 * arrays, and no object the GC must visit). count, assoc and at stay one constant per log until
 * two records differ (in a run without duplicates, processing-time moves or outer sides they
 * often never do); hash, seq and stamp stay constants while every slot has the same ones, as a
 * log of one record does.
 */

/** A number column: `null` while every slot equals the constant, else one value per slot. */
export type Col = number[] | null;

/**
 * Hashes, seqs and stamps, interleaved (slot i at S * i, + 1, + 2), with spare capacity: 12 bytes
 * a slot while every seq and stamp fits in 32 bits (always, in practice), else doubles.
 */
export type Ints = Int32Array | Float64Array;

/** Numbers per slot in the interleaved array. */
export const S = 3;

export function isInt32(v: number): boolean {
  return (v | 0) === v;
}

/** `a` with room for at least `slots` slots, of doubles when `wide`; `a` itself when it fits. */
export function room(a: Ints, slots: number, wide: boolean): Ints {
  const fits = a.length >= S * slots;
  if (fits && (!wide || a instanceof Float64Array)) return a;
  const cap = fits ? a.length : Math.max(S * slots, 2 * a.length);
  const next = wide || a instanceof Float64Array ? new Float64Array(cap) : new Int32Array(cap);
  next.set(a);
  return next;
}

/** The column with slot i (of len slots, i <= len) set to v: materialized when v differs from c0. */
export function put(col: Col, c0: number, len: number, i: number, v: number): Col {
  if (col === null) {
    if (Object.is(v, c0)) return null;
    col = [];
    for (let j = 0; j < len; j++) col.push(c0);
  }
  if (i === col.length) col.push(v);
  else col[i] = v;
  return col;
}

/** The first n slots of a column, copied (null stays null). */
export function prefix(col: Col, n: number): Col {
  return col === null ? null : col.slice(0, n);
}

export function colGet(col: Col, c0: number, i: number): number {
  return col === null ? c0 : (col[i] as number);
}
