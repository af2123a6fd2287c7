/**
 * A hash index of a ColumnLog's slots (shared-log-columns.ts), kept in the log's own numbers
 * array: each slot's stride has a spare word (column-log-numbers.ts, word W), and the words of
 * the array's capacity together hold an open-addressing table of 16-bit cells, two per word. So
 * finding a record by its hash reads a cell or two instead of the hash of every slot (a regular
 * join's bucket of ~100 rows scanned ~50 hashes, ten cache lines, for each new row, which is
 * almost always absent), with no object and no allocation of its own: the table grows when the
 * array does, and is rebuilt then.
 *
 * It is shared by every version of its log, as the log is: it only gains slots (an append at the
 * tip adds one), and a reader of version n skips slots >= n. A copy of the log (a removal, a write
 * to an older version) carries stale cells, and rebuilds them when it is first searched. Hashes
 * are compared in the hash column, so equal hashes (collisions) are all found; the caller
 * compares the records.
 *
 * A cell: 10 bits of slot number + 1 (0: empty) and a 6-bit tag from other bits of the hash,
 * which rules out most occupied cells of a probe without reading the slot's hash. So a log is
 * indexed up to INDEXED_MAX slots (a join bucket becomes a map long before: record-bucket.ts).
 * There are two cells per slot of capacity, so the table is at most half full.
 */
import { S, type Ints } from './column-log-numbers.js';

/** The word of each slot's stride that holds two cells. */
const W = 3;
const SLOT_BITS = 10;
const SLOT_MASK = (1 << SLOT_BITS) - 1;
/** The most slots an index holds (slot + 1 fits in SLOT_BITS). */
export const INDEXED_MAX = SLOT_MASK;

/** Fibonacci hashing: the start cell from the top 16 bits, the tag from the 6 below them. */
function mixed(h: number): number {
  return Math.imul(h, 0x9e3779b1);
}

function tagOf(m: number): number {
  return (m >>> 10) & 63;
}

/** Cell in [0, cells) from the top bits (cells < 2^16; any count, not only powers of two). */
function startOf(m: number, cells: number): number {
  return ((m >>> 16) * cells) >>> 16;
}

function cellCount(a: Ints): number {
  return 2 * Math.floor(a.length / S);
}

function cellAt(a: Ints, c: number): number {
  const w = a[S * (c >> 1) + W] as number;
  return (c & 1) === 0 ? w & 0xffff : (w >>> 16) & 0xffff;
}

function setCell(a: Ints, c: number, v: number): void {
  const k = S * (c >> 1) + W;
  const w = (a[k] as number) | 0;
  a[k] = (c & 1) === 0 ? (w & ~0xffff) | v : (w & 0xffff) | (v << 16);
}

/** Adds slot i (whose hash `a` holds) to the table. */
export function indexAdd(a: Ints, i: number): void {
  const m = mixed(a[S * i] as number);
  const cells = cellCount(a);
  let c = startOf(m, cells);
  while (cellAt(a, c) !== 0) c = c + 1 === cells ? 0 : c + 1;
  setCell(a, c, (tagOf(m) << SLOT_BITS) | (i + 1));
}

/** The table of slots [0, len) (len <= INDEXED_MAX and within the array), over whatever cells held. */
export function indexBuild(a: Ints, len: number): void {
  const words = Math.floor(a.length / S);
  for (let j = 0; j < words; j++) a[S * j + W] = 0;
  for (let i = 0; i < len; i++) indexAdd(a, i);
}

/** The first slot in [from, n) whose hash in `a` is h (an int32), or -1. */
export function indexFind(a: Ints, h: number, from: number, n: number): number {
  const m = mixed(h);
  const tag = tagOf(m);
  const cells = cellCount(a);
  let best = -1;
  for (let c = startOf(m, cells); ; c = c + 1 === cells ? 0 : c + 1) {
    const v = cellAt(a, c);
    if (v === 0) return best;
    if (v >>> SLOT_BITS !== tag) continue;
    const i = (v & SLOT_MASK) - 1;
    // Probe order is not slot order (a collision may sit anywhere on the chain): keep the least.
    if (i >= from && i < n && (best < 0 || i < best) && a[S * i] === h) best = i;
  }
}
