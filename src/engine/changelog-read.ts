/**
 * Reading a changelog (changelog.ts): rows decoded back into `Emitted` rows from the segment
 * chain (changelog-segment.ts), pair rows projected, and versions compared by their rows.
 */
import type { Row, RowKind } from '../values/types.js';
import { ROW_KINDS } from '../values/types.js';
import type { Emitted } from './types.js';
import { bulkWhy } from './why.js';
import type { Changelog, PairLayout } from './changelog.js';
import { CHUNK_BITS, CHUNK_SLOTS, META_BITS, META_ROWS, PAIR, RULES, type Segment } from './changelog-segment.js';

function pairRow(p: PairLayout, left: Row | null, right: Row | null): Row {
  const out = new Array<unknown>(p.cols.length);
  for (let i = 0; i < p.cols.length; i++) {
    const j = p.cols[i]!;
    out[i] = j < p.left ? (left === null ? null : (left[j] ?? null)) : right === null ? null : (right[j - p.left] ?? null);
  }
  return out as Row;
}

/** The kind-and-rule code of row r of `seg`. */
function codeAt(seg: Segment, r: number): number {
  return seg.metas[r >> META_BITS]![3 * (r & (META_ROWS - 1))]!;
}

/** The row r of `seg`, whose code is `code` (a pair row is projected into a fresh row). */
function rowAt(c: Changelog, seg: Segment, r: number, code: number): Row {
  const start = seg.metas[r >> META_BITS]![3 * (r & (META_ROWS - 1)) + 2]!;
  const chunk = seg.chunks[start >> CHUNK_BITS]!;
  const off = start & (CHUNK_SLOTS - 1);
  return (code & PAIR) !== 0 ? pairRow(c.pairs!, chunk[off] as Row | null, chunk[off + 1] as Row | null) : (chunk.slice(off, off + c.width) as Row);
}

function decode(c: Changelog, seg: Segment, r: number): Emitted {
  const code = codeAt(seg, r);
  const step = seg.metas[r >> META_BITS]![3 * (r & (META_ROWS - 1)) + 1]!;
  return { kind: ROW_KINDS[code & 3] as RowKind, row: rowAt(c, seg, r, code), step, why: bulkWhy(RULES[code >> 3] as string) };
}

/** Rows [lo, hi) of the chain ending at `seg` (hi <= seg.base + seg.rows), appended to out. */
function collect(c: Changelog, seg: Segment, lo: number, hi: number, out: Emitted[]): void {
  if (lo < seg.base) collect(c, seg.parent!, lo, Math.min(hi, seg.base), out);
  for (let i = Math.max(lo, seg.base); i < hi; i++) out.push(decode(c, seg, i - seg.base));
}

/** Row i (0 <= i < n). */
export function clGet(c: Changelog, i: number): Emitted {
  if (i < 0 || i >= c.n || !Number.isInteger(i)) throw new RangeError(`clGet: row ${i} out of range 0..${c.n - 1}`);
  return clSlice(c, i, i + 1)[0]!;
}

/** Rows [from, to), clamped to 0..n. */
export function clSlice(c: Changelog, from: number, to: number): Emitted[] {
  const lo = Math.max(0, Math.floor(from));
  const hi = Math.min(c.n, Math.floor(to));
  const out: Emitted[] = [];
  if (hi > lo) collect(c, c.segment(), lo, hi, out);
  return out;
}

export function clToArray(c: Changelog): Emitted[] {
  return clSlice(c, 0, c.n);
}

/**
 * Calls `f` with the kind and row of every row in order, without an `Emitted` object per row
 * (what a whole-changelog fold reads). With `reuse`, every row is read into one array, `f`'s
 * only for the call (it copies what it keeps): a fold that prints each row at once makes no
 * row per changelog row; without, a pair row is projected into a fresh row.
 */
export function clEachRow(c: Changelog, f: (kind: RowKind, row: Row) => void, reuse = false): void {
  eachIn(c, c.segment(), c.n, f, reuse ? new Array<unknown>(c.pairs?.cols.length ?? c.width) : undefined);
}

function eachIn(c: Changelog, seg: Segment, hi: number, f: (kind: RowKind, row: Row) => void, into: unknown[] | undefined): void {
  if (seg.base > 0) eachIn(c, seg.parent!, Math.min(hi, seg.base), f, into);
  for (let i = 0; i < hi - seg.base; i++) {
    const code = codeAt(seg, i);
    f(ROW_KINDS[code & 3] as RowKind, into === undefined ? rowAt(c, seg, i, code) : rowInto(c, seg, i, code, into));
  }
}

/** rowAt, read into `out`. */
function rowInto(c: Changelog, seg: Segment, r: number, code: number, out: unknown[]): Row {
  const start = seg.metas[r >> META_BITS]![3 * (r & (META_ROWS - 1)) + 2]!;
  const chunk = seg.chunks[start >> CHUNK_BITS]!;
  const off = start & (CHUNK_SLOTS - 1);
  if ((code & PAIR) === 0) {
    for (let i = 0; i < c.width; i++) out[i] = chunk[off + i];
    return out as Row;
  }
  const p = c.pairs!;
  const left = chunk[off] as Row | null;
  const right = chunk[off + 1] as Row | null;
  const cols = p.cols;
  for (let i = 0; i < cols.length; i++) {
    const j = cols[i]!;
    out[i] = j < p.left ? (left === null ? null : (left[j] ?? null)) : right === null ? null : (right[j - p.left] ?? null);
  }
  return out as Row;
}

/** Whether any row retracts (-U / -D), read from the kind codes alone. */
export function clHasRetraction(c: Changelog): boolean {
  for (let seg: Segment | null = c.segment(), hi = c.n; seg !== null; hi = seg.base, seg = seg.parent) {
    for (let i = 0; i < hi - seg.base; i++) {
      const code = seg.metas[i >> META_BITS]![3 * (i & (META_ROWS - 1))]!;
      // Kind codes (changelog-segment.ts kindCode): 1 is -U, 3 is -D.
      if ((code & 1) !== 0) return true;
    }
  }
  return false;
}

/** Same rows (values, kinds, rules and steps) in the same order. */
export function clEquals(a: Changelog, b: Changelog): boolean {
  if (a.n !== b.n || a.width !== b.width) return false;
  if (a.segment() === b.segment()) return true;
  const x = clToArray(a);
  const y = clToArray(b);
  for (let i = 0; i < x.length; i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p.kind !== q.kind || p.step !== q.step || p.why.rule !== q.why.rule) return false;
    for (let k = 0; k < a.width; k++) if (!Object.is(p.row[k], q.row[k])) return false;
  }
  return true;
}
