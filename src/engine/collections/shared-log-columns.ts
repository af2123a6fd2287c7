/**
 * ColumnLog: a shared append-only log of records (a row plus five numbers: hash, seq, count,
 * assoc, at), stored as columns rather than one object per record. A version is not an object:
 * it is a pair (log, n) that its holder keeps, and it reads the first n slots.
 *   - appending to version n == length (the tip) pushes in place and returns this log: version
 *     n + 1 reads one more slot, older versions did not change;
 *   - appending to any other version copies its n slots into a new log, unless slot n already
 *     holds an equal record (a replay appending what the first run appended): then it is shared;
 *   - changing a slot changes it in place only when the log was created in the current edit
 *     (edit.ts: no kept version can see it), else it copies the version's slots;
 *   - removing a slot always copies (a reader may still hold the old version).
 * Why columns: a join side holds a record per stored row, and an object per record (~72 B plus a
 * slot) was the largest part of the memory a long run keeps. Here a record is three slots of one
 * plain array, its row, hash and seq side by side (12 bytes), so that an append and a scan of the
 * hashes touch one array: a typed array for the numbers was two more objects and an off-heap
 * block per log, each a cache miss per append, and its growth went through malloc. Hashes are
 * kept to 30 bits so that they stay small integers (a larger number in a plain array is a heap
 * object); a seq past 2^30 is stored boxed, which only costs memory. count, assoc and at stay one
 * constant per log until two records differ (in a run without duplicates, processing-time moves
 * or outer sides they often never do).
 */
import { created, isEditable } from './edit.js';

/** A number column: `null` while every slot equals the constant, else one value per slot. */
type Col = number[] | null;

/** Slots per record in the slot array: row, hash, seq. */
const W = 3;

/** A hash as the log keeps it (and compares it): its low 30 bits, a small integer. */
function h30(h: number): number {
  return h & 0x3fffffff;
}

/** The column with slot i (of len slots, i <= len) set to v: materialized when v differs from c0. */
function put(col: Col, c0: number, len: number, i: number, v: number): Col {
  if (col === null) {
    if (Object.is(v, c0)) return null;
    col = [];
    for (let j = 0; j < len; j++) col.push(c0);
  }
  if (i === col.length) col.push(v);
  else col[i] = v;
  return col;
}

/** The first n slots of a column, copied (null stays null). */
function prefix(col: Col, n: number): Col {
  return col === null ? null : col.slice(0, n);
}

function get(col: Col, c0: number, i: number): number {
  return col === null ? c0 : (col[i] as number);
}

export class ColumnLog<R> {
  /** Record i at W * i: its row, its hash (h30) and its seq. */
  readonly #slots: unknown[];
  #counts: Col;
  readonly #count0: number;
  #assocs: Col;
  readonly #assoc0: number;
  #ats: Col;
  readonly #at0: number;

  private constructor(slots: unknown[], c0: readonly number[], cols: readonly Col[]) {
    this.#slots = slots;
    [this.#count0, this.#assoc0, this.#at0] = c0 as [number, number, number];
    [this.#counts, this.#assocs, this.#ats] = cols as [Col, Col, Col];
    created(this);
  }

  /** A log of one record. */
  static single<R>(row: R, h: number, seq: number, count: number, assoc: number, at: number): ColumnLog<R> {
    return new ColumnLog([row, h30(h), seq], [count, assoc, at], [null, null, null]);
  }

  /** The number of slots written: the newest version's n. */
  get length(): number {
    return this.#slots.length / W;
  }

  row(i: number): R {
    return this.#slots[W * i] as R;
  }

  /** Slot i's hash, as kept: its low 30 bits (find and holds compare hashes the same way). */
  hash(i: number): number {
    return this.#slots[W * i + 1] as number;
  }

  seq(i: number): number {
    return this.#slots[W * i + 2] as number;
  }

  count(i: number): number {
    return get(this.#counts, this.#count0, i);
  }

  assoc(i: number): number {
    return get(this.#assocs, this.#assoc0, i);
  }

  at(i: number): number {
    return get(this.#ats, this.#at0, i);
  }

  /** The first index in [from, n) whose hash is h (compared on its low 30 bits), or -1. */
  find(h: number, from: number, n: number): number {
    const key = h30(h);
    const a = this.#slots;
    for (let i = from, at = W * from + 1; i < n; i++, at += W) if (a[at] === key) return i;
    return -1;
  }

  /** Whether slot i holds exactly this record (the same row object and numbers). */
  private holds(i: number, row: R, h: number, seq: number, count: number, assoc: number, at: number): boolean {
    return this.row(i) === row && this.hash(i) === h30(h) && this.seq(i) === seq && this.count(i) === count && this.assoc(i) === assoc && Object.is(this.at(i), at);
  }

  /** Writes slot i (i <= length: i == length appends) in place. */
  private write(i: number, row: R, h: number, seq: number, count: number, assoc: number, at: number): void {
    const len = this.length;
    this.#counts = put(this.#counts, this.#count0, len, i, count);
    this.#assocs = put(this.#assocs, this.#assoc0, len, i, assoc);
    this.#ats = put(this.#ats, this.#at0, len, i, at);
    const a = this.#slots;
    if (i === len) a.push(row, h30(h), seq);
    else {
      a[W * i] = row;
      a[W * i + 1] = h30(h);
      a[W * i + 2] = seq;
    }
  }

  /** Version n's slots in a new log (created in the current edit). */
  private copy(n: number): ColumnLog<R> {
    const cols = [prefix(this.#counts, n), prefix(this.#assocs, n), prefix(this.#ats, n)];
    return new ColumnLog(this.#slots.slice(0, W * n), [this.#count0, this.#assoc0, this.#at0], cols);
  }

  /** The log that holds version n + 1: version n with the record appended (this log or a copy). */
  append(n: number, row: R, h: number, seq: number, count: number, assoc: number, at: number): ColumnLog<R> {
    if (n === this.length) {
      this.write(n, row, h, seq, count, assoc, at);
      return this;
    }
    if (this.holds(n, row, h, seq, count, assoc, at)) return this;
    const next = this.copy(n);
    next.write(n, row, h, seq, count, assoc, at);
    return next;
  }

  /** The log that holds version n with slot i's row and numbers changed (its hash and seq stay). */
  set(n: number, i: number, row: R, count: number, assoc: number, at: number): ColumnLog<R> {
    if (i < 0 || i >= n || n > this.length) throw new RangeError(`ColumnLog.set: slot ${i} outside version 0..${n - 1}`);
    const log = isEditable(this) ? this : this.copy(n);
    log.write(i, row, log.hash(i), log.seq(i), count, assoc, at);
    return log;
  }

  /** Version n without slot i (later slots move down one), in a new log. */
  removeAt(n: number, i: number): ColumnLog<R> {
    if (i < 0 || i >= n || n > this.length) throw new RangeError(`ColumnLog.removeAt: slot ${i} outside version 0..${n - 1}`);
    const next = this.copy(n);
    next.#slots.splice(W * i, W);
    for (const col of [next.#counts, next.#assocs, next.#ats]) col?.splice(i, 1);
    return next;
  }
}
