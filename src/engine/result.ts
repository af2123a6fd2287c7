/**
 * The materialized result, folded from the changelog rather than kept in every snapshot: the
 * result is only ever displayed, never read by a step, and a persistent map updated per emitted
 * row would cost each checkpoint a copied path (most of the memory of a long run).
 *
 * Retract semantics (no sink primary key): a multiset of rows. Upsert semantics (a sink primary
 * key): one row per key; +I/+U put, -U/-D delete, as an upsert sink writes.
 *
 * `ResultCursor` keeps one folded state and moves it to any changelog prefix: forward by
 * applying rows, backward by an undo log (the value each applied row replaced), so that stepping
 * through a timeline costs only the rows in between.
 */
import { resultRowFormatter } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import type { SinkRuntime } from './context.js';
import { rowKey } from './keys.js';
import type { Emitted } from './types.js';

interface Entry {
  readonly row: Row;
  readonly n: number;
  /** The printed row, formatted once when the entry is made. */
  readonly text: string;
}

const ABSENT = null;

/** Moves over more rows than this (plus an eighth of the result) re-sort instead of splicing. */
const RESORT_AFTER = 256;

export class ResultCursor {
  private readonly state = new Map<string, Entry>();
  private readonly keys: string[] = [];
  private readonly undo: (Entry | null)[] = [];
  /** The state holds the fold of changelog[0, at). */
  private at = 0;
  /**
   * Every printed row of the state, sorted, kept up to date by `apply`/`revert` once first asked
   * for: a step changes a few rows, so the result pane needs no full re-sort of a large result.
   */
  private sorted: string[] | undefined;
  /** The sink's row printer, made on the first entry (resultRowFormatter). */
  private format: ((row: Row) => string) | undefined;

  constructor(
    private readonly sink: SinkRuntime,
    /** Changelog row i (i below the largest prefix ever asked for). */
    private readonly get: (i: number) => Emitted,
  ) {}

  private keyOf(i: number, e: Emitted): string {
    let k = this.keys[i];
    if (k === undefined) {
      k = this.sink.primaryKey === undefined ? rowKey(e.row) : rowKey(e.row, this.sink.primaryKey);
      this.keys[i] = k;
    }
    return k;
  }

  private apply(i: number): void {
    const e = this.get(i);
    const key = this.keyOf(i, e);
    const cur = this.state.get(key);
    this.undo[i] = cur ?? ABSENT;
    let next: Entry | undefined;
    if (this.sink.primaryKey !== undefined) next = isAccumulate(e.kind) ? this.entry(e.row, 1) : undefined;
    else if (isAccumulate(e.kind)) next = cur === undefined ? this.entry(e.row, 1) : { ...cur, n: cur.n + 1 };
    else next = cur === undefined || cur.n <= 1 ? undefined : { ...cur, n: cur.n - 1 };
    this.replace(key, cur, next);
  }

  private revert(i: number): void {
    const key = this.keys[i]!;
    const prev = this.undo[i];
    this.replace(key, this.state.get(key), prev === ABSENT || prev === undefined ? undefined : prev);
  }

  private entry(row: Row, n: number): Entry {
    return { row, n, text: (this.format ??= resultRowFormatter(this.sink.types))(row) };
  }

  private replace(key: string, before: Entry | undefined, after: Entry | undefined): void {
    if (after === undefined) this.state.delete(key);
    else this.state.set(key, after);
    const sorted = this.sorted;
    if (sorted === undefined) return;
    if (before !== undefined) sorted.splice(lowerBound(sorted, before.text), before.n);
    if (after !== undefined) sorted.splice(lowerBound(sorted, after.text), 0, ...new Array<string>(after.n).fill(after.text));
  }

  /**
   * Moves the fold to changelog[0, size). A long move forgets the sorted rows and sorts once when
   * they are next asked for: keeping them sorted costs a splice into a large array per row moved
   * over (seconds for a jump across 40k rows), a sort costs one pass.
   */
  seek(size: number): void {
    const sorted = this.sorted;
    if (sorted !== undefined && Math.abs(size - this.at) > RESORT_AFTER + sorted.length / 8) this.sorted = undefined;
    while (this.at < size) this.apply(this.at++);
    while (this.at > size) this.revert(--this.at);
  }

  /** The result after the first `size` changelog rows: printed rows (a multiset repeats), sorted. */
  rows(size: number): string[] {
    this.seek(size);
    if (this.sorted === undefined) {
      const out: string[] = [];
      for (const e of this.state.values()) for (let i = 0; i < e.n; i++) out.push(e.text);
      this.sorted = out.sort();
    }
    return this.sorted.slice();
  }
}

/** First index whose text is >= `text` (the array is sorted by code units, as Array.sort does). */
function lowerBound(sorted: readonly string[], text: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < text) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Calls `f` with each changelog row's kind and row, in order; the row may be reused after the call. */
export type EachRow = (f: (kind: RowKind, row: Row) => void) => void;

/**
 * The result of a whole changelog, once (`run --result`): the same fold as ResultCursor's
 * without its undo log and key cache. Without a sink key, a row that no retraction names is in
 * the result as often as it was inserted, so only rows some retraction names are counted in a
 * map: for an insert-only changelog of a million rows there is no map at all. `hasRetraction`
 * false (the caller knows there is none) skips the pass that looks for them.
 */
export function foldResult(sink: SinkRuntime, changelog: readonly Emitted[] | EachRow, hasRetraction = true): string[] {
  const each: EachRow = typeof changelog === 'function' ? changelog : (f) => changelog.forEach((e) => f(e.kind, e.row));
  const out: string[] = [];
  const counted = new Map<string, { row: Row; n: number }>();
  const pk = sink.primaryKey;
  const format = resultRowFormatter(sink.types);
  if (pk === undefined) {
    const retracted = new Set<string>();
    if (hasRetraction) {
      each((kind, row) => {
        if (!isAccumulate(kind)) retracted.add(rowKey(row));
      });
    }
    each((kind, row) => {
      const key = retracted.size === 0 ? undefined : rowKey(row);
      if (key === undefined || !retracted.has(key)) {
        out.push(format(row));
        return;
      }
      const cur = counted.get(key);
      if (isAccumulate(kind)) {
        if (cur === undefined) counted.set(key, { row: row.slice(), n: 1 });
        else cur.n++;
      } else if (cur !== undefined) {
        if (cur.n <= 1) counted.delete(key);
        else cur.n--;
      }
    });
  } else {
    each((kind, row) => {
      const key = rowKey(row, pk);
      if (isAccumulate(kind)) counted.set(key, { row: row.slice(), n: 1 });
      else counted.delete(key);
    });
  }
  for (const { row, n } of counted.values()) {
    const text = format(row);
    for (let i = 0; i < n; i++) out.push(text);
  }
  return out.sort();
}
