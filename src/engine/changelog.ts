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
 *
 * This module holds the version (Changelog); the layout is in changelog-segment.ts, pushes in
 * changelog-write.ts, reads and comparison in changelog-read.ts (re-exported here).
 */
import type { Emitted } from './types.js';
import { clToArray } from './changelog-read.js';
import { newSegment, type Segment } from './changelog-segment.js';

export { clPush, clPushPair, type Projection } from './changelog-write.js';
export { clEachRow, clEquals, clGet, clHasRetraction, clSlice, clToArray } from './changelog-read.js';

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

export function emptyChangelog(width: number, pairs?: PairLayout): Changelog {
  return new Changelog(0, width, newSegment(null, 0), pairs);
}
