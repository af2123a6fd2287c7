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
import { formatResultRow } from '../values/format.js';
import type { Row } from '../values/types.js';
import { isAccumulate } from '../values/types.js';
import type { SinkRuntime } from './context.js';
import { rowKey } from './keys.js';
import type { Emitted } from './types.js';

interface Entry {
  readonly row: Row;
  readonly n: number;
}

const ABSENT = null;

export class ResultCursor {
  private readonly state = new Map<string, Entry>();
  private readonly keys: string[] = [];
  private readonly undo: (Entry | null)[] = [];
  /** The state holds the fold of changelog[0, at). */
  private at = 0;

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
    if (this.sink.primaryKey !== undefined) next = isAccumulate(e.kind) ? { row: e.row, n: 1 } : undefined;
    else if (isAccumulate(e.kind)) next = { row: cur?.row ?? e.row, n: (cur?.n ?? 0) + 1 };
    else next = cur === undefined || cur.n <= 1 ? undefined : { row: cur.row, n: cur.n - 1 };
    if (next === undefined) this.state.delete(key);
    else this.state.set(key, next);
  }

  private revert(i: number): void {
    const key = this.keys[i]!;
    const prev = this.undo[i];
    if (prev === ABSENT || prev === undefined) this.state.delete(key);
    else this.state.set(key, prev);
  }

  /** Moves the fold to changelog[0, size). */
  seek(size: number): void {
    while (this.at < size) this.apply(this.at++);
    while (this.at > size) this.revert(--this.at);
  }

  /** The result after the first `size` changelog rows: printed rows (a multiset repeats), sorted. */
  rows(size: number): string[] {
    this.seek(size);
    const out: string[] = [];
    for (const e of this.state.values()) {
      const text = formatResultRow(e.row, this.sink.types);
      for (let i = 0; i < e.n; i++) out.push(text);
    }
    return out.sort();
  }
}

/** The result of a whole changelog, once. */
export function foldResult(sink: SinkRuntime, changelog: readonly Emitted[]): string[] {
  return new ResultCursor(sink, (i) => changelog[i]!).rows(changelog.length);
}
