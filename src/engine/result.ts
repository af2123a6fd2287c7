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
 * through a timeline costs only the rows in between. The printed rows stay sorted as it moves
 * (sorted-texts.ts), so a move costs its rows and nothing else, and a long one can be made in
 * pieces (`moveToward`): the app folds the result of a far step between frames and keys.
 */
import { resultRowFormatter } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import type { SinkRuntime } from './context.js';
import { rowKey } from './keys.js';
import { SortedTexts } from './sorted-texts.js';
import type { Emitted, ResultRows } from './types.js';

/** A printed row of the result and how many times it is there (the row itself is not kept). */
interface Entry {
  readonly n: number;
  readonly text: string;
}

const ABSENT = null;

/** Changelog rows read at once (one slice of the changelog instead of a read per row). */
const BATCH = 256;

export class ResultCursor {
  /**
   * Keyed: a map from each row's key to its entry, each applied row's key (a revert needs it
   * without decoding the row again) and the entry it replaced. Without a sink key, and while no
   * row retracts, none of that is needed: the result is every row folded, so only each row's
   * printed text is kept (to take it out again on the way back). A retraction met on the way
   * forward starts the fold over, keyed.
   */
  private keyed: boolean;
  private state = new Map<string, Entry>();
  private keys: string[] = [];
  private undo: (Entry | null)[] = [];
  /**
   * Unkeyed: the printed text of each row ever folded (kept when the fold moves back) or printed
   * ahead of the fold (printAhead): rows [0, texts.length), none of them a retraction.
   */
  private texts: string[] = [];
  /** printAhead met a retraction: nothing more to print ahead. */
  private aheadStopped = false;
  /** The state holds the fold of changelog[0, at). */
  private at = 0;
  /** Every printed row of the state, sorted. */
  private sorted = new SortedTexts();
  /** The sink's row printer, made on the first entry (resultRowFormatter). */
  private format: ((row: Row) => string) | undefined;

  constructor(
    private readonly sink: SinkRuntime,
    /** Changelog rows [from, to) (to at most the largest prefix ever asked for). */
    private readonly read: (from: number, to: number) => readonly Emitted[],
  ) {
    this.keyed = sink.primaryKey !== undefined;
  }

  /** Folds again from nothing, keyed (a retraction came along an unkeyed fold). */
  private restartKeyed(): void {
    this.keyed = true;
    this.at = 0;
    this.texts = [];
    this.state = new Map();
    this.keys = [];
    this.undo = [];
    this.sorted = new SortedTexts();
  }

  /** The changelog prefix folded so far. */
  get position(): number {
    return this.at;
  }

  private apply(i: number, e: Emitted): void {
    const key = this.sink.primaryKey === undefined ? rowKey(e.row) : rowKey(e.row, this.sink.primaryKey);
    this.keys[i] = key;
    const cur = this.state.get(key);
    this.undo[i] = cur ?? ABSENT;
    let next: Entry | undefined;
    if (this.sink.primaryKey !== undefined) next = isAccumulate(e.kind) ? this.entry(e.row, 1) : undefined;
    else if (isAccumulate(e.kind)) next = cur === undefined ? this.entry(e.row, 1) : { text: cur.text, n: cur.n + 1 };
    else next = cur === undefined || cur.n <= 1 ? undefined : { text: cur.text, n: cur.n - 1 };
    this.replace(key, cur, next);
  }

  private revert(i: number): void {
    const key = this.keys[i]!;
    const prev = this.undo[i];
    this.replace(key, this.state.get(key), prev === ABSENT || prev === undefined ? undefined : prev);
  }

  private entry(row: Row, n: number): Entry {
    return { n, text: (this.format ??= resultRowFormatter(this.sink.types))(row) };
  }

  private replace(key: string, before: Entry | undefined, after: Entry | undefined): void {
    if (after === undefined) this.state.delete(key);
    else this.state.set(key, after);
    if (before !== undefined && after !== undefined && before.text === after.text) {
      if (after.n > before.n) this.sorted.add(after.text, after.n - before.n);
      else this.sorted.remove(after.text, before.n - after.n);
      return;
    }
    if (before !== undefined) this.sorted.remove(before.text, before.n);
    if (after !== undefined) this.sorted.add(after.text, after.n);
  }

  /**
   * Moves the fold toward changelog[0, size) for about `budgetMs` (not at all for 0, the whole
   * way for Infinity; any other budget moves at least one batch of rows), a batch between two
   * looks at the clock; returns the rows still to move over.
   */
  moveToward(size: number, budgetMs: number, now: () => number = () => performance.now()): number {
    if (budgetMs <= 0) return Math.abs(size - this.at);
    const end = budgetMs === Infinity ? Infinity : now() + budgetMs;
    // The first batch goes whatever the clock says, and so does the first after a start over, so
    // that a small fold is done in one call even when the process was off the CPU meanwhile.
    let first = true;
    while (this.at !== size && (first || end === Infinity || now() < end)) {
      first = false;
      if (this.at < size) {
        const to = Math.min(size, this.at + BATCH);
        // Unkeyed, rows folded before (and moved back over) keep their text: no read again.
        const known = this.keyed ? this.at : Math.min(to, this.texts.length);
        for (; this.at < known; this.at++) this.sorted.add(this.texts[this.at]!);
        if (this.at === to) continue;
        const rows = this.read(this.at, to);
        if (!this.keyed && rows.some((e) => !isAccumulate(e.kind))) {
          this.restartKeyed();
          first = true;
          continue;
        }
        if (this.keyed) for (let i = 0; i < rows.length; i++) this.apply(this.at + i, rows[i]!);
        else {
          const format = (this.format ??= resultRowFormatter(this.sink.types));
          for (let i = 0; i < rows.length; i++) {
            const text = format(rows[i]!.row);
            this.texts[this.at + i] = text;
            this.sorted.add(text);
          }
        }
        this.at = to;
      } else {
        const to = Math.max(size, this.at - BATCH);
        if (this.keyed) while (this.at > to) this.revert(--this.at);
        else while (this.at > to) this.sorted.remove(this.texts[--this.at]!);
      }
    }
    return Math.abs(size - this.at);
  }

  /**
   * Prints rows ahead of the fold, for about `budgetMs`, up to changelog row `size`: unkeyed,
   * a later move over them then only patches the sorted set (the app does this while idle, so
   * that a jump far ahead shows its result sooner). Stops for good at the first batch with a
   * retraction (the fold starts over keyed when it gets there) and does nothing keyed; returns
   * the rows still to print.
   */
  printAhead(size: number, budgetMs: number, now: () => number = () => performance.now()): number {
    if (this.keyed || this.aheadStopped) return 0;
    if (budgetMs <= 0) return Math.max(0, size - this.texts.length);
    const end = now() + budgetMs;
    const format = (this.format ??= resultRowFormatter(this.sink.types));
    for (let first = true; this.texts.length < size && (first || now() < end); first = false) {
      const from = Math.max(this.at, this.texts.length);
      const to = Math.min(size, from + BATCH);
      const rows = this.read(from, to);
      if (rows.some((e) => !isAccumulate(e.kind))) {
        this.aheadStopped = true;
        return 0;
      }
      for (let i = 0; i < rows.length; i++) this.texts[from + i] = format(rows[i]!.row);
    }
    return Math.max(0, size - this.texts.length);
  }

  /** Moves the fold to changelog[0, size), the whole way at once. */
  seek(size: number): void {
    this.moveToward(size, Infinity);
  }

  /**
   * The result after the first `size` changelog rows, read a window at a time. Each read moves the
   * fold there first (nothing to do while no one else moved it), so a window kept and read again
   * after another move stays right, at the cost of that move.
   */
  window(size: number): ResultRows {
    this.seek(size);
    return {
      length: this.sorted.length,
      slice: (from, to) => {
        this.seek(size);
        // Read after the move: a fold that started over keyed has a new sorted set.
        return this.sorted.slice(from, to);
      },
    };
  }

  /** The result after the first `size` changelog rows: printed rows (a multiset repeats), sorted. */
  rows(size: number): string[] {
    this.seek(size);
    return this.sorted.toArray();
  }
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
