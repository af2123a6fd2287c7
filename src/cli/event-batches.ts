/**
 * Events in compact batches, for handing a stream of events from the thread that reads a file
 * to the thread that runs them (read-thread.ts). A structured clone of event objects writes every
 * property name of every object; a batch is a few typed arrays and one array of strings instead.
 *
 * The common event, a plain row (the shape fast-row.ts, flow-row.ts and replay.ts make: `pos`,
 * optionally `file`, then `kind`, `table`, `partition`, `op`, `row`, nothing else), is written as
 * numbers: its line, column, partition, table, op, file, and each value as a tag with a number or
 * a string. Any other event goes as itself (structured clone). Decoding makes the row objects
 * with the readers' property order, so that the engine sees the objects it always saw.
 */
import type { ScenarioEvent } from '../scenario/types.js';
import type { RowKind, Value } from '../values/types.js';
import { ROW_KINDS } from '../values/types.js';

/** What one batch carries; plain data, cheap to post (its buffers are transferred). */
export interface EventBatch {
  /** Per event: its header (HEADER ints; an `other` event: its index in `others`). */
  readonly ints: Int32Array;
  /** Per value of a plain row: its tag. */
  readonly tags: Uint8Array;
  /** The numbers of the values tagged NUMBER, in order. */
  readonly nums: Float64Array;
  /**
   * The strings of the values tagged STRING, in order, end to end in one string, and each one's
   * length: a structured clone of one string and a typed array costs the receiving thread about
   * a fifth of what it costs for thousands of strings, and a slice is cheap.
   */
  readonly strs: string;
  readonly strLengths: Int32Array;
  /** Events that are not plain rows, as they are. */
  readonly others: ScenarioEvent[];
  /** Table and file names first used in this batch, in the order of their ids. */
  readonly names: string[];
  readonly count: number;
}

const PLAIN = 1;
const OTHER = 2;
/** Ints per event: code, line, col, partition, table id, op, file id (-1: none), value count. */
const HEADER = 8;

const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const NUMBER = 3;
const STRING = 4;

type RowEvent = Extract<ScenarioEvent, { kind: 'row' }>;

/** Whether `ev` is a plain row: the shape the decoder makes back, with nothing else set. */
function plainRow(ev: ScenarioEvent): ev is RowEvent {
  return ev.kind === 'row' && ev.at === undefined && ev.note === undefined && ev.ask === undefined && ev.hint === undefined && Number.isInteger(ev.partition) && Math.abs(ev.partition) < 2 ** 31;
}

/** Collects events into batches; `take` hands out the batch so far and starts the next. */
export class EventBatchWriter {
  private ints = new Int32Array(HEADER * 1024);
  private tags = new Uint8Array(4096);
  private nums = new Float64Array(2048);
  private nInts = 0;
  private nTags = 0;
  private nNums = 0;
  private strs: string[] = [];
  private strLengths = new Int32Array(2048);
  private others: ScenarioEvent[] = [];
  private newNames: string[] = [];
  private readonly ids = new Map<string, number>();
  private count_ = 0;

  get count(): number {
    return this.count_;
  }

  push(ev: ScenarioEvent): void {
    if (this.nInts + HEADER > this.ints.length) this.ints = grow(this.ints);
    const h = this.nInts;
    this.nInts += HEADER;
    this.count_++;
    if (!plainRow(ev)) {
      this.ints[h] = OTHER;
      this.ints[h + 1] = this.others.length;
      this.others.push(ev);
      return;
    }
    const row = ev.row;
    const ints = this.ints;
    ints[h] = PLAIN;
    ints[h + 1] = ev.pos.line;
    ints[h + 2] = ev.pos.col;
    ints[h + 3] = ev.partition;
    ints[h + 4] = this.id(ev.table);
    ints[h + 5] = ROW_KINDS.indexOf(ev.op);
    ints[h + 6] = ev.file === undefined ? -1 : this.id(ev.file);
    ints[h + 7] = row.length;
    while (this.nTags + row.length > this.tags.length) this.tags = grow(this.tags);
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      let tag: number;
      if (typeof v === 'string') {
        tag = STRING;
        if (this.strs.length === this.strLengths.length) this.strLengths = grow(this.strLengths);
        this.strLengths[this.strs.length] = v.length;
        this.strs.push(v);
      } else if (typeof v === 'number') {
        tag = NUMBER;
        if (this.nNums === this.nums.length) this.nums = grow(this.nums);
        this.nums[this.nNums++] = v;
      } else if (v === true) tag = TRUE;
      else if (v === false) tag = FALSE;
      else tag = NULL;
      this.tags[this.nTags++] = tag;
    }
  }

  private id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(name, id);
      this.newNames.push(name);
    }
    return id;
  }

  /** The batch so far (exact-size copies of the arrays, so their buffers can be transferred). */
  take(): EventBatch {
    const batch: EventBatch = {
      ints: this.ints.slice(0, this.nInts),
      tags: this.tags.slice(0, this.nTags),
      nums: this.nums.slice(0, this.nNums),
      strs: this.strs.join(''),
      strLengths: this.strLengths.slice(0, this.strs.length),
      others: this.others,
      names: this.newNames,
      count: this.count_,
    };
    this.nInts = this.nTags = this.nNums = this.count_ = 0;
    this.strs = [];
    this.others = [];
    this.newNames = [];
    return batch;
  }
}

function grow<T extends Int32Array | Uint8Array | Float64Array>(a: T): T {
  const next = new (a.constructor as new (n: number) => T)(a.length * 2);
  next.set(a);
  return next;
}

/** Reads batches back into events; one reader per writer (the names accumulate across batches). */
export class EventBatchReader {
  private readonly names: string[] = [];

  /** Calls `f` with each event of `batch` from its `skip`th on, in order. */
  each(batch: EventBatch, f: (ev: ScenarioEvent) => void, skip = 0): void {
    for (const n of batch.names) this.names.push(n);
    const { ints, tags, nums, strs, strLengths, others, count } = batch;
    const names = this.names;
    let t = 0;
    let n = 0;
    let s = 0;
    /** Where string s starts in `strs`. */
    let from = 0;
    const first = Math.min(skip, count);
    // Past the skipped events' values without making them.
    for (let e = 0, h = 0; e < first; e++, h += HEADER) {
      if (ints[h] === OTHER) continue;
      const len = ints[h + 7]!;
      for (let i = 0; i < len; i++) {
        const tag = tags[t++];
        if (tag === STRING) from += strLengths[s++]!;
        else if (tag === NUMBER) n++;
      }
    }
    for (let e = first, h = first * HEADER; e < count; e++, h += HEADER) {
      if (ints[h] === OTHER) {
        f(others[ints[h + 1]!]!);
        continue;
      }
      const len = ints[h + 7]!;
      const row = new Array<Value>(len);
      for (let i = 0; i < len; i++) {
        const tag = tags[t++];
        if (tag === STRING) {
          const to = from + strLengths[s++]!;
          row[i] = strs.slice(from, to);
          from = to;
        } else row[i] = tag === NUMBER ? nums[n++]! : tag === TRUE ? true : tag === FALSE ? false : null;
      }
      const pos = { line: ints[h + 1]!, col: ints[h + 2]! };
      const table = names[ints[h + 4]!]!;
      const partition = ints[h + 3]!;
      const op: RowKind = ROW_KINDS[ints[h + 5]!]!;
      const file = ints[h + 6]!;
      // The readers' own literals, property for property (fast-row.ts / flow-row.ts, replay.ts).
      f(file < 0 ? { pos, kind: 'row', table, partition, op, row } : { pos, file: names[file]!, kind: 'row', table, partition, op, row });
    }
  }
}
