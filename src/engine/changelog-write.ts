/**
 * Writing a changelog (changelog.ts): a push appends in place onto the newest version of a
 * segment, or starts a new segment over an older version (changelog-segment.ts).
 */
import type { Row, RowKind } from '../values/types.js';
import { writeStamp } from './collections/edit.js';
import type { Changelog } from './changelog.js';
import { CHUNK_BITS, CHUNK_SLOTS, kindCode, META_BITS, META_ROWS, newSegment, PAIR, ruleCode, type Segment } from './changelog-segment.js';

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
 * Both come from `new Array(n)`, so that every chunk has V8's holey elements kind (`[]` is
 * packed): the writes stay monomorphic (docs/decisions.md, sixteenth session).
 */
function chunkAt(seg: Segment, fill: number): unknown[] {
  const ci = fill >> CHUNK_BITS;
  return seg.chunks[ci] ?? (seg.chunks[ci] = new Array<unknown>(ci === 0 ? 0 : CHUNK_SLOTS));
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
