/**
 * ColumnLog: a shared append-only log of records (a row plus six numbers: hash, seq, count,
 * assoc, at, and the write stamp it was appended under), stored as columns rather than one object
 * per record. A version is not an object: it is a pair (log, n) that its holder keeps, and it
 * reads the first n slots.
 *   - appending to version n == length (the tip) pushes in place and returns this log: version
 *     n + 1 reads one more slot, older versions did not change (unless the caller forbids it:
 *     `extend` false copies instead, see state/record-store.ts on main logs);
 *   - appending to any other version copies its n slots into a new log, unless slot n already
 *     holds an equal record (a replay appending what the first run appended): then it is shared,
 *     and keeps the stamp it was first written with;
 *   - changing a slot changes it in place only when the log was created in the current edit
 *     (edit.ts: no kept version can see it), else it copies the version's slots;
 *   - removing a slot always copies (a reader may still hold the old version).
 * Why columns, and how the numbers are kept: column-log-numbers.ts. Stamps let a holder that
 * extends a log only in stamp order find a version's n from its stamp (nAt) instead of keeping n
 * per version.
 */
import { created, isEditable } from './edit.js';
import { flatRows, pushRow, rowAt, setRowAt, splitRows, type Pieces } from './log-rows.js';
import { colGet, isInt32, prefix, put, room, S, type Col, type Ints } from './column-log-numbers.js';

export class ColumnLog<R> {
  /** Rows: the first FIRST here, the rest in pieces that never move (log-rows.ts). */
  readonly #rows: R[];
  #more: Pieces<R>;
  #len: number;
  /** null while every slot has the same (h0, seq0, stamp0), as a log of one slot does. */
  #ints: Ints | null;
  readonly #h0: number;
  readonly #seq0: number;
  #counts: Col;
  readonly #count0: number;
  #assocs: Col;
  readonly #assoc0: number;
  #ats: Col;
  readonly #at0: number;
  readonly #stamp0: number;
  /** The last slot's stamp: nAt's usual answer without reading the column. */
  #lastStamp: number;
  /** The most slots the version this log was copied from had held (0: a new log); see peakAt. */
  readonly #peak0: number;

  private constructor(rows: R[], ints: Ints | null, c0: readonly number[], cols: readonly Col[], peak0 = 0) {
    this.#peak0 = peak0;
    this.#len = rows.length;
    this.#more = splitRows(rows);
    this.#rows = rows;
    this.#ints = ints;
    [this.#h0, this.#seq0, this.#count0, this.#assoc0, this.#at0, this.#stamp0] = c0 as [number, number, number, number, number, number];
    [this.#counts, this.#assocs, this.#ats] = cols as [Col, Col, Col];
    this.#lastStamp = this.#len === 0 ? -Infinity : this.stamp(this.#len - 1);
    created(this);
  }

  /** A log of one record. */
  static single<R>(row: R, h: number, seq: number, count: number, assoc: number, at: number, stamp = 0): ColumnLog<R> {
    return new ColumnLog([row], null, [h | 0, seq, count, assoc, at, stamp], [null, null, null]);
  }

  /** The number of slots written: the newest version's n. */
  get length(): number {
    return this.#len;
  }

  row(i: number): R {
    return rowAt(this.#rows, this.#more, i);
  }

  hash(i: number): number {
    const a = this.#ints;
    return a === null ? this.#h0 : (a[S * i] as number);
  }

  seq(i: number): number {
    const a = this.#ints;
    return a === null ? this.#seq0 : (a[S * i + 1] as number);
  }

  count(i: number): number {
    return colGet(this.#counts, this.#count0, i);
  }

  assoc(i: number): number {
    return colGet(this.#assocs, this.#assoc0, i);
  }

  at(i: number): number {
    return colGet(this.#ats, this.#at0, i);
  }

  /**
   * The most slots any version on the way to version n has had: a log only grows in place, and
   * every copy (a removal, or a write to a version other than the newest) starts from the peak of
   * the version it copies. So no holder keeps a peak per version.
   */
  peakAt(n: number): number {
    return n > this.#peak0 ? n : this.#peak0;
  }

  /** The write stamp slot i was appended under (set() keeps it). */
  stamp(i: number): number {
    const a = this.#ints;
    return a === null ? this.#stamp0 : (a[S * i + 2] as number);
  }

  /**
   * How many leading slots have a stamp <= `bound`: version n of a log that its holder extends
   * only in stamp order. Almost always the whole log (a read at the newest version).
   */
  nAt(bound: number): number {
    const len = this.length;
    if (this.#lastStamp <= bound) return len;
    let lo = 0;
    let hi = len - 1;
    // The first slot with a stamp > bound.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.stamp(mid) <= bound) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first index in [from, n) whose hash is h (as int32), or -1. */
  find(h: number, from: number, n: number): number {
    const key = h | 0;
    const a = this.#ints;
    if (a === null) return from < n && this.#h0 === key ? from : -1;
    for (let i = from; i < n; i++) if (a[S * i] === key) return i;
    return -1;
  }

  /** Whether slot i holds exactly this record (the same row object and numbers). */
  private holds(i: number, row: R, h: number, seq: number, count: number, assoc: number, at: number): boolean {
    return this.row(i) === row && this.hash(i) === (h | 0) && this.seq(i) === seq && this.count(i) === count && this.assoc(i) === assoc && Object.is(this.at(i), at);
  }

  /** Writes slot i (i <= length: i == length appends) in place. */
  private write(i: number, row: R, h: number, seq: number, count: number, assoc: number, at: number, stamp: number): void {
    const len = this.#len;
    if (i === len) this.#lastStamp = stamp;
    this.writeInts(len, i, h | 0, seq, stamp);
    this.#counts = put(this.#counts, this.#count0, len, i, count);
    this.#assocs = put(this.#assocs, this.#assoc0, len, i, assoc);
    this.#ats = put(this.#ats, this.#at0, len, i, at);
    if (i === len) {
      this.#more = pushRow(this.#rows, this.#more, len, row);
      this.#len = len + 1;
    } else setRowAt(this.#rows, this.#more, i, row);
  }

  /** Slot i's hash, seq and stamp (of len slots written, i <= len). */
  private writeInts(len: number, i: number, h: number, seq: number, stamp: number): void {
    let a = this.#ints;
    if (a === null) {
      if (h === this.#h0 && seq === this.#seq0 && stamp === this.#stamp0) return;
      const cap = S * Math.max(4, len + 1);
      a = isInt32(this.#seq0) && isInt32(this.#stamp0) ? new Int32Array(cap) : new Float64Array(cap);
      for (let j = 0; j < len; j++) {
        a[S * j] = this.#h0;
        a[S * j + 1] = this.#seq0;
        a[S * j + 2] = this.#stamp0;
      }
    }
    a = room(a, i + 1, !isInt32(seq) || !isInt32(stamp));
    a[S * i] = h;
    a[S * i + 1] = seq;
    a[S * i + 2] = stamp;
    this.#ints = a;
  }

  /** Version n's slots in a new log (created in the current edit). */
  private copy(n: number): ColumnLog<R> {
    return this.copyWithout(n, -1);
  }

  /** Version n's slots without slot `gone` (-1: none; later slots move down one), in a new log. */
  private copyWithout(n: number, gone: number): ColumnLog<R> {
    const rows = flatRows(this.#rows, this.#more, n);
    const c0 = [this.#h0, this.#seq0, this.#count0, this.#assoc0, this.#at0, this.#stamp0];
    const cols = [prefix(this.#counts, n), prefix(this.#assocs, n), prefix(this.#ats, n)];
    const ints = this.#ints === null ? null : this.#ints.slice(0, S * Math.max(4, n + 1));
    if (gone >= 0) {
      rows.splice(gone, 1);
      for (const col of cols) col?.splice(gone, 1);
      ints?.copyWithin(S * gone, S * gone + S, S * n);
    }
    return new ColumnLog(rows, ints, c0, cols, this.peakAt(n));
  }

  /**
   * The log that holds version n + 1: version n with the record appended (this log or a copy).
   * `extend` false: never push onto this log, copy instead (sharing an equal slot n is still fine).
   */
  append(n: number, row: R, h: number, seq: number, count: number, assoc: number, at: number, stamp = 0, extend = true): ColumnLog<R> {
    const len = this.#len;
    if (n === len && extend) {
      this.write(n, row, h, seq, count, assoc, at, stamp);
      return this;
    }
    if (n < len && this.holds(n, row, h, seq, count, assoc, at)) return this;
    const next = this.copy(n);
    next.write(n, row, h, seq, count, assoc, at, stamp);
    return next;
  }

  /** The log that holds version n with slot i's row and numbers changed (its hash and seq stay). */
  set(n: number, i: number, row: R, count: number, assoc: number, at: number): ColumnLog<R> {
    if (i < 0 || i >= n || n > this.#len) throw new RangeError(`ColumnLog.set: slot ${i} outside version 0..${n - 1}`);
    const log = isEditable(this) ? this : this.copy(n);
    log.write(i, row, log.hash(i), log.seq(i), count, assoc, at, log.stamp(i));
    return log;
  }

  /** Version n without slot i (later slots move down one), in a new log. */
  removeAt(n: number, i: number): ColumnLog<R> {
    if (i < 0 || i >= n || n > this.#len) throw new RangeError(`ColumnLog.removeAt: slot ${i} outside version 0..${n - 1}`);
    return this.copyWithout(n, i);
  }
}
