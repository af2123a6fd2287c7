/**
 * The changelog held by snapshots: every row that reached the sink, oldest first.
 *
 * A changelog only ever grows, so all versions of it share one log: a version is a row count `n`
 * over a chain of segments. A push onto the newest version of a segment (n equals what the
 * segment holds) appends in place: older versions read only their first n rows, so they cannot
 * see it. A push onto an older version (a replay from a checkpoint, a what-if edit) starts a new
 * segment whose parent holds the first n rows. A million-row changelog is then flat chunks
 * of 32 KB, instead of a tree of small leaves and a header per version (what a long run retained
 * most of).
 *
 * A row takes `width` slots for its values, or two for a pair row (its left and right input rows
 * by reference, projected when read: a bulk run of a join whose SELECT list is plain columns), and
 * three int32s in a typed array beside them: a code for its kind and rule, its step, its first
 * slot. Reads rebuild `Emitted` rows (with the rule-only Why of a bulk run: the full reason comes
 * from a traced replay of the row's step, see Timeline.whyOf).
 *
 * Versions are compared by their rows (clEquals; the test setup registers it for toEqual), and
 * serialise as their rows (toJSON): which segments hold them is an implementation detail.
 */
import type { Row, RowKind } from '../values/types.js';
import { ROW_KINDS } from '../values/types.js';
import type { Emitted } from './types.js';
import { bulkWhy } from './why.js';
import { writeStamp } from './collections/edit.js';

/**
 * Slots per value chunk. Measured with an operator that emits one row per event: 4096 (32 KB, an
 * ordinary heap object) ran at ~0.92M events/s, 65536 (the large-object space, fresh pages for
 * every chunk) at ~0.72M, the pvec of 32-slot leaves at ~0.6M. A row never straddles two chunks.
 */
const CHUNK_BITS = 12;
const CHUNK_SLOTS = 1 << CHUNK_BITS;
/** Rows per meta chunk (3 int32s a row: 12 KB). */
const META_BITS = 10;
const META_ROWS = 1 << META_BITS;

interface Segment {
  readonly parent: Segment | null;
  /** Rows before this segment's first row (read from the parent chain). */
  readonly base: number;
  /** Rows held here. */
  rows: number;
  /** Value slots used here (chunk c holds slots c * CHUNK_SLOTS ..). */
  fill: number;
  readonly chunks: unknown[][];
  /** Per row: code (kind, pair flag, rule), step, first slot; META_ROWS rows per array. */
  readonly metas: Int32Array[];
}

/**
 * How a pair row (left and right input rows kept by reference, see clPushPair) becomes the
 * output row: output column i is joined column cols[i], where the joined row is the left row's
 * `left` columns then the right row's (null-padded when a side is missing).
 */
export interface PairLayout {
  readonly left: number;
  readonly cols: readonly number[];
}

export class Changelog {
  readonly #seg: Segment;
  #n: number;
  /** The write stamp (edit.ts) it was made under: see next(). */
  readonly #stamp: number;

  constructor(
    n: number,
    /** Output columns per row. */
    readonly width: number,
    seg: Segment,
    /** Set when rows may be stored as pairs (clPushPair). */
    readonly pairs?: PairLayout,
    stamp = 0,
  ) {
    this.#seg = seg;
    this.#n = n;
    this.#stamp = stamp;
  }

  /** Rows so far. */
  get n(): number {
    return this.#n;
  }

  /**
   * This changelog with one more row in `seg`: this object itself when it was made under the
   * same stamp, which only a push in the same transient edit shares (outside an edit every
   * write has a fresh stamp), so no kept version sees it change. Saves an object per row.
   * @internal
   */
  next(seg: Segment, stamp: number): Changelog {
    if (this.#stamp !== stamp || this.#seg !== seg) return new Changelog(this.#n + 1, this.width, seg, this.pairs, stamp);
    this.#n++;
    return this;
  }

  /** @internal the segment holding the newest rows. */
  segment(): Segment {
    return this.#seg;
  }

  toJSON(): { n: number; width: number; rows: Emitted[] } {
    return { n: this.n, width: this.width, rows: clToArray(this) };
  }
}

function newSegment(parent: Segment | null, base: number): Segment {
  return { parent, base, rows: 0, fill: 0, chunks: [], metas: [] };
}

export function emptyChangelog(width: number, pairs?: PairLayout): Changelog {
  return new Changelog(0, width, newSegment(null, 0), pairs);
}

/** Rules get small numbers in the order first seen (process-wide; codes never leave the process). */
const RULES: string[] = [];
const RULE_CODES = new Map<string, number>();

function ruleCode(rule: string): number {
  let c = RULE_CODES.get(rule);
  if (c === undefined) {
    c = RULES.length;
    RULES.push(rule);
    RULE_CODES.set(rule, c);
  }
  return c;
}

function kindCode(kind: RowKind): number {
  return kind === '+I' ? 0 : kind === '-U' ? 1 : kind === '+U' ? 2 : 3;
}

const PAIR = 4;

/** Value projections of a joined row (the sink's SELECT list). */
export type Projection = readonly ((row: Row, ctx: never) => unknown)[];

/**
 * Room for a row of `size` slots at the end of the newest version `c` (a new segment when c is an
 * older version): returns the segment, with `fill` at the row's first slot.
 */
function place(c: Changelog, size: number): Segment {
  let seg = c.segment();
  if (seg.base + seg.rows !== c.n) seg = newSegment(seg, c.n);
  const off = seg.fill & (CHUNK_SLOTS - 1);
  if (off !== 0 && off + size > CHUNK_SLOTS) seg.fill += CHUNK_SLOTS - off;
  return seg;
}

/**
 * The chunk holding slot `fill`. A segment's first chunk grows by appends, so that a short
 * replay's segment stays small; later ones are allocated whole (growing them would copy each twice).
 */
function chunkAt(seg: Segment, fill: number): unknown[] {
  const ci = fill >> CHUNK_BITS;
  return seg.chunks[ci] ?? (seg.chunks[ci] = ci === 0 ? [] : new Array<unknown>(CHUNK_SLOTS));
}

/** The meta array for row r of the segment (a first one grows by doubling). */
function metaFor(seg: Segment, r: number): Int32Array {
  const mi = r >> META_BITS;
  const at = 3 * (r & (META_ROWS - 1));
  const m = seg.metas[mi];
  if (m !== undefined && at < m.length) return m;
  const size = mi === 0 ? Math.min(3 * META_ROWS, Math.max(48, 2 * (m?.length ?? 0))) : 3 * META_ROWS;
  const next = new Int32Array(size);
  if (m !== undefined) next.set(m);
  seg.metas[mi] = next;
  return next;
}

function finishRow(c: Changelog, seg: Segment, code: number, step: number, size: number): Changelog {
  const r = seg.rows;
  const meta = metaFor(seg, r);
  const at = 3 * (r & (META_ROWS - 1));
  meta[at] = code;
  meta[at + 1] = step;
  meta[at + 2] = seg.fill;
  seg.fill += size;
  seg.rows++;
  return c.next(seg, writeStamp());
}

/**
 * The changelog with one more row: `row`'s values, or the values `project` computes from it (so
 * a bulk run builds no intermediate row). `row` itself is not kept.
 */
export function clPush(c: Changelog, kind: RowKind, row: Row, step: number, rule: string, project?: Projection, ctx?: unknown): Changelog {
  const w = c.width;
  const seg = place(c, w);
  const chunk = chunkAt(seg, seg.fill);
  const at = seg.fill & (CHUNK_SLOTS - 1);
  if (project === undefined) for (let i = 0; i < w; i++) chunk[at + i] = row[i] ?? null;
  else for (let i = 0; i < w; i++) chunk[at + i] = project[i]!(row, ctx as never) ?? null;
  return finishRow(c, seg, kindCode(kind) + 8 * ruleCode(rule), step, w);
}

/**
 * The changelog with one more row kept as its two input rows (by reference: rows are never
 * changed), two slots instead of one per output column. Needs `c.pairs`.
 */
export function clPushPair(c: Changelog, kind: RowKind, left: Row | undefined, right: Row | undefined, step: number, rule: string): Changelog {
  const seg = place(c, 2);
  const chunk = chunkAt(seg, seg.fill);
  const at = seg.fill & (CHUNK_SLOTS - 1);
  chunk[at] = left ?? null;
  chunk[at + 1] = right ?? null;
  return finishRow(c, seg, kindCode(kind) + PAIR + 8 * ruleCode(rule), step, 2);
}

function pairRow(p: PairLayout, left: Row | null, right: Row | null): Row {
  const out = new Array<unknown>(p.cols.length);
  for (let i = 0; i < p.cols.length; i++) {
    const j = p.cols[i]!;
    out[i] = j < p.left ? (left === null ? null : (left[j] ?? null)) : right === null ? null : (right[j - p.left] ?? null);
  }
  return out as Row;
}

function decode(c: Changelog, seg: Segment, r: number): Emitted {
  const meta = seg.metas[r >> META_BITS]!;
  const at = 3 * (r & (META_ROWS - 1));
  const code = meta[at]!;
  const start = meta[at + 2]!;
  const chunk = seg.chunks[start >> CHUNK_BITS]!;
  const off = start & (CHUNK_SLOTS - 1);
  const row = (code & PAIR) !== 0 ? pairRow(c.pairs!, chunk[off] as Row | null, chunk[off + 1] as Row | null) : (chunk.slice(off, off + c.width) as Row);
  return { kind: ROW_KINDS[code & 3] as RowKind, row, step: meta[at + 1]!, why: bulkWhy(RULES[code >> 3] as string) };
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
