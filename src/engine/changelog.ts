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
 * Row i takes `width` slots for its values and two int32s beside them: a code for its kind and
 * rule, and its step (a typed array holds them in 8 bytes rather than two 8-byte slots). Reads rebuild `Emitted` rows (with the rule-only Why of a bulk run: the full reason comes from a
 * traced replay of the row's step, see Timeline.whyOf).
 *
 * Versions are compared by their rows (clEquals; the test setup registers it for toEqual), and
 * serialise as their rows (toJSON): which segments hold them is an implementation detail.
 */
import type { Row, RowKind } from '../values/types.js';
import { ROW_KINDS } from '../values/types.js';
import type { Emitted } from './types.js';
import { bulkWhy } from './why.js';

/**
 * Slots per chunk (rounded down to whole rows). Measured with an operator that emits one row per
 * event: 4096 (32 KB, an ordinary heap object) ran at ~0.92M events/s, 65536 (the large-object
 * space, fresh pages for every chunk) at ~0.72M, the pvec of 32-slot leaves at ~0.6M.
 */
const CHUNK_SLOTS = 1 << 12;

interface Segment {
  readonly parent: Segment | null;
  /** Rows before this segment's first row (read from the parent chain). */
  readonly base: number;
  /** Rows held here. */
  rows: number;
  /** Values of rows base.., in chunks of `per` rows. */
  readonly chunks: unknown[][];
  /** Per chunk, each row's kind-and-rule code and step. */
  readonly metas: Int32Array[];
  /** Rows per chunk. */
  readonly per: number;
}

export class Changelog {
  readonly #seg: Segment;

  constructor(
    /** Rows so far. */
    readonly n: number,
    /** Output columns per row. */
    readonly width: number,
    seg: Segment,
  ) {
    this.#seg = seg;
  }

  /** @internal the segment holding the newest rows. */
  segment(): Segment {
    return this.#seg;
  }

  toJSON(): { n: number; width: number; rows: Emitted[] } {
    return { n: this.n, width: this.width, rows: clToArray(this) };
  }
}

function newSegment(parent: Segment | null, base: number, width: number): Segment {
  return { parent, base, rows: 0, chunks: [], metas: [], per: Math.max(1, Math.floor(CHUNK_SLOTS / Math.max(1, width))) };
}

export function emptyChangelog(width: number): Changelog {
  return new Changelog(0, width, newSegment(null, 0, width));
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

/** Value projections of a joined row (the sink's SELECT list). */
export type Projection = readonly ((row: Row, ctx: never) => unknown)[];

/**
 * The changelog with one more row: `row`'s values, or the values `project` computes from it (so
 * a bulk run builds no intermediate row). `row` itself is not kept.
 */
export function clPush(c: Changelog, kind: RowKind, row: Row, step: number, rule: string, project?: Projection, ctx?: unknown): Changelog {
  const w = c.width;
  let seg = c.segment();
  if (seg.base + seg.rows !== c.n) seg = newSegment(seg, c.n, w);
  const ci = Math.floor(seg.rows / seg.per);
  // Chunks fill in order. A segment's first chunk grows by appends, so that a short replay's
  // segment stays small; later ones are allocated whole (growing them would copy each twice).
  const chunk = seg.chunks[ci] ?? (seg.chunks[ci] = ci === 0 ? [] : new Array<unknown>(seg.per * w));
  const r = seg.rows - ci * seg.per;
  const at = r * w;
  if (project === undefined) for (let i = 0; i < w; i++) chunk[at + i] = row[i] ?? null;
  else for (let i = 0; i < w; i++) chunk[at + i] = project[i]!(row, ctx as never) ?? null;
  const meta = metaFor(seg, ci, r);
  meta[2 * r] = kindCode(kind) + 4 * ruleCode(rule);
  meta[2 * r + 1] = step;
  seg.rows++;
  return new Changelog(c.n + 1, w, seg);
}

/** The meta array of chunk ci with room for its row r: a first chunk's grows by doubling. */
function metaFor(seg: Segment, ci: number, r: number): Int32Array {
  const m = seg.metas[ci];
  if (m !== undefined && 2 * r < m.length) return m;
  const size = ci === 0 ? Math.min(2 * seg.per, Math.max(16, 2 * (m?.length ?? 0))) : 2 * seg.per;
  const next = new Int32Array(size);
  if (m !== undefined) next.set(m);
  seg.metas[ci] = next;
  return next;
}

function decode(width: number, s: readonly unknown[], meta: Int32Array, r: number): Emitted {
  const code = meta[2 * r]!;
  return {
    kind: ROW_KINDS[code & 3] as RowKind,
    row: s.slice(r * width, (r + 1) * width) as Row,
    step: meta[2 * r + 1]!,
    why: bulkWhy(RULES[code >> 2] as string),
  };
}

/** Rows [lo, hi) of the chain ending at `seg` (hi <= seg.base + seg.rows), appended to out. */
function collect(seg: Segment, width: number, lo: number, hi: number, out: Emitted[]): void {
  if (lo < seg.base) collect(seg.parent!, width, lo, Math.min(hi, seg.base), out);
  for (let i = Math.max(lo, seg.base); i < hi; i++) {
    const r = i - seg.base;
    const ci = Math.floor(r / seg.per);
    out.push(decode(width, seg.chunks[ci]!, seg.metas[ci]!, r - ci * seg.per));
  }
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
  if (hi > lo) collect(c.segment(), c.width, lo, hi, out);
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
