/**
 * The row column of a ColumnLog, in pieces that never move: the first FIRST rows in one array
 * that grows by push (so a log of one or a few rows is one small array, as most join buckets
 * are), then pieces of FIRST, 2 * FIRST, 4 * FIRST, ... slots, each allocated whole.
 *
 * Why: a flat array grows by copying (V8: 1.5x + 16), and a bucket that gains a row every few
 * thousand events outlives every young-generation collection in between, so each outgrown copy
 * was promoted to the old generation before it died: a 1M-event regular join allocated ~34 B per
 * event in row arrays, most of it promoted garbage (copying, fresh pages, marking). Pieces
 * allocate each slot once. Slot i >= FIRST lives in piece (log2 i - FIRST_BITS) at i - 2^log2(i).
 */
const FIRST_BITS = 4;
export const FIRST = 1 << FIRST_BITS;

/** Pieces after the first array (null while the log has at most FIRST rows). */
export type Pieces<R> = R[][] | null;

/** Slot i of rows split as (first, more). */
export function rowAt<R>(first: R[], more: Pieces<R>, i: number): R {
  if (i < FIRST) return first[i] as R;
  const hb = 31 - Math.clz32(i);
  return (more as R[][])[hb - FIRST_BITS]![i - (1 << hb)] as R;
}

/** Set slot i (i < len) to row. */
export function setRowAt<R>(first: R[], more: Pieces<R>, i: number, row: R): void {
  if (i < FIRST) first[i] = row;
  else {
    const hb = 31 - Math.clz32(i);
    (more as R[][])[hb - FIRST_BITS]![i - (1 << hb)] = row;
  }
}

/** Append row as slot len; returns the pieces (a new list when the first piece is made). */
export function pushRow<R>(first: R[], more: Pieces<R>, len: number, row: R): Pieces<R> {
  if (len < FIRST) {
    first.push(row);
    return more;
  }
  const hb = 31 - Math.clz32(len);
  const off = len - (1 << hb);
  const list = more ?? [];
  if (off === 0) list.push(new Array<R>(1 << hb));
  list[hb - FIRST_BITS]![off] = row;
  return list;
}

/** The first n rows as one flat array (a copy). */
export function flatRows<R>(first: R[], more: Pieces<R>, n: number): R[] {
  const out = first.slice(0, Math.min(n, FIRST));
  for (let i = FIRST; i < n; i++) out.push(rowAt(first, more, i));
  return out;
}

/** The pieces for flat rows (their first FIRST stay in `flat` itself, which is truncated). */
export function splitRows<R>(flat: R[]): Pieces<R> {
  let more: Pieces<R> = null;
  for (let i = FIRST; i < flat.length; i++) more = pushRow(flat, more, i, flat[i] as R);
  if (flat.length > FIRST) flat.length = FIRST;
  return more;
}
