/**
 * The engine's snapshot: everything a step reads and writes, as plain data. A snapshot is never
 * mutated after it is returned; growing parts (normalize / dedup state, the sink, the changelog)
 * are persistent collections so that successive snapshots share structure.
 */
import type { Row } from '../values/types.js';
import type { PMap } from './collections/pmap.js';
import { PMAP_EMPTY } from './collections/pmap.js';
import { emptyChangelog, type Changelog } from './changelog.js';
import type { RunContext } from './context.js';
import { WM_MIN } from './types.js';
import { newValve, type PartialWatermark, type ValveState } from './valve.js';

/** One source table: its partitions' generated watermarks and idle deadlines, and its valve. */
export interface TableState {
  /** Largest WATERMARK expression value so far, per partition (WM_MIN before any). */
  readonly generated: readonly number[];
  /** Processing time at which the idle timeout marks the partition idle; null = no timeout. */
  readonly idleAt: readonly (number | null)[];
  /** StatusWatermarkValve over the partitions (channel i = partition i). */
  readonly valve: Readonly<ValveState>;
  /**
   * The next Kafka offset per partition, for a table with a column reading the `offset` metadata
   * (source-metadata.ts); empty for every other table.
   */
  readonly offsets: readonly number[];
}

/** Per-input state of the planner-inserted operators in front of the join. */
export interface SideState {
  /** ChangelogNormalize: last row per primary key. */
  readonly normalize: PMap<Row>;
  /** ChangelogNormalize under state TTL: the processing time each key's row was last written. */
  readonly normalizeWritten: PMap<number>;
  /** Deduplicate (ROW_NUMBER keep-last): kept row per partition key; insert-only keep-first: the row waiting for the watermark. */
  readonly dedup: PMap<Row>;
  /** Deduplicate under state TTL: the processing time each key's kept row (insert-only keep-first: its gone-out mark) was last written. */
  readonly dedupWritten: PMap<number>;
  /** Insert-only keep-first Deduplicate: the keys whose row has gone out (later rows are ignored). */
  readonly firstEmitted: PMap<true>;
}

/** SinkUpsertMaterializer state of one sink primary key. */
export interface SumEntry {
  /** Live rows, in arrival order. */
  readonly rows: readonly Row[];
  /** Processing time of the last write: the state TTL counts from it (OnCreateAndWrite). */
  readonly writtenAt: number;
}

export interface SinkState {
  /** SinkUpsertMaterializer: live rows per sink primary key. */
  readonly sum: PMap<SumEntry>;
}

export interface EngineSnapshot {
  /** The step this snapshot is the result of (0 = initial). */
  readonly index: number;
  readonly procTime: number;
  /** Parallel to RunContext.tables. */
  readonly tables: readonly TableState[];
  /** Partial watermark of each join input (index = side). */
  readonly inputs: readonly PartialWatermark[];
  /** The join operator's combined input watermark. */
  readonly joinWm: number;
  /** The join's output watermark (join minus the operator's delay). */
  readonly outputWm: number;
  /** The union's valve standing in for the join (RunContext.union), a channel per side; else undefined. */
  readonly unionValve: Readonly<ValveState> | undefined;
  readonly sides: readonly [SideState, SideState];
  /** The operator's own plain-data state. */
  readonly op: unknown;
  readonly sink: SinkState;
  /** Every row that reached the sink so far, oldest first (the result is folded from it). */
  readonly changelog: Changelog;
}

const EMPTY_SIDE: SideState = { normalize: PMAP_EMPTY, normalizeWritten: PMAP_EMPTY, dedup: PMAP_EMPTY, dedupWritten: PMAP_EMPTY, firstEmitted: PMAP_EMPTY };

export function initialSnapshot(ctx: RunContext): EngineSnapshot {
  const timeout = ctx.config.idleTimeoutMs;
  const tables = ctx.tables.map((t): TableState => {
    const idleAt: (number | null)[] = [];
    const generated: number[] = [];
    for (let p = 0; p < t.partitions; p++) {
      generated.push(WM_MIN);
      // The idle timeout counts from the start for a partition that has had no row (spec §3).
      idleAt.push(timeout > 0 && t.watermark !== undefined ? ctx.startTime + timeout : null);
    }
    const offsets: number[] = t.metadata?.countsOffsets === true ? new Array<number>(t.partitions).fill(0) : [];
    return { generated, idleAt, valve: newValve(t.partitions), offsets };
  });
  return {
    index: 0,
    procTime: ctx.startTime,
    tables,
    inputs: [
      { wm: WM_MIN, idle: false },
      { wm: WM_MIN, idle: false },
    ],
    joinWm: WM_MIN,
    outputWm: WM_MIN,
    unionValve: ctx.union === true ? newValve(2) : undefined,
    sides: [EMPTY_SIDE, EMPTY_SIDE],
    op: ctx.op.init(),
    sink: { sum: PMAP_EMPTY },
    changelog: emptyChangelog(ctx.sink.types.length, ctx.sink.pairs),
  };
}
