/**
 * Engine contract: steps, trace events, the collector and the operator interface.
 *
 * The engine is XState-`transition()`-shaped: `step(ctx, snapshot, event) -> StepRecord` is pure
 * and deterministic (no clock, no randomness, no I/O), snapshots are plain data that are never
 * mutated after they are returned (structural sharing makes that cheap), and everything the UI
 * shows comes from a snapshot plus its step's trace.
 */
import type { Side } from '../planner/plan.js';
import type { Row, RowKind } from '../values/types.js';

/** Flink's Long.MIN_VALUE / Long.MAX_VALUE watermarks, as safe JS numbers. */
export const WM_MIN = -Number.MAX_SAFE_INTEGER;
export const WM_MAX = Number.MAX_SAFE_INTEGER;

/** Why a changelog row was emitted: which rows matched under which rule. Plain data. */
export interface Why {
  /** Short rule id, e.g. 'match', 'pad', 'unpad', 'repad', 'retract-match', 'temporal.version', 'interval.pad-expired', 'lookup.hit', 'sum.upsert'. */
  readonly rule: string;
  /** One sentence for people, e.g. "left +I[o1, EUR] matched rates version 09:00 (latest <= 09:30)". */
  readonly text: string;
  /** The input rows involved (printed as Flink rows with their table), for the why view. */
  readonly rows?: readonly string[];
}

/** One row of the emitted changelog, with the step that produced it. */
export interface Emitted {
  readonly kind: RowKind;
  /** The projected output row (query output columns). */
  readonly row: Row;
  readonly step: number;
  readonly why: Why;
}

/**
 * What happened in a step, as data; the UI formats it. Every event names its subject in words
 * already resolved (table names, printed rows) so that formatting needs no plan.
 */
export type TraceEvent =
  | { readonly t: 'clock.advance'; readonly from: number; readonly to: number }
  | { readonly t: 'row.in'; readonly table: string; readonly partition: number; readonly kind: RowKind; readonly row: string }
  | { readonly t: 'normalize'; readonly table: string; readonly in: string; readonly out: readonly string[]; readonly reason: string }
  | { readonly t: 'filter.drop'; readonly side: Side; readonly row: string; readonly reason: string }
  | { readonly t: 'match'; readonly side: Side; readonly row: string; readonly other: string; readonly detail?: string }
  | { readonly t: 'no-match'; readonly side: Side; readonly row: string; readonly reason: string }
  | { readonly t: 'emit'; readonly kind: RowKind; readonly row: string; readonly rule: string }
  | { readonly t: 'state.add'; readonly side: Side; readonly key: string; readonly row: string; readonly detail?: string }
  | { readonly t: 'state.retract'; readonly side: Side; readonly key: string; readonly row: string; readonly detail?: string }
  | { readonly t: 'state.update'; readonly side: Side; readonly key: string; readonly row: string; readonly detail: string }
  | { readonly t: 'state.expire'; readonly side: Side; readonly key: string; readonly row: string; readonly reason: string }
  | { readonly t: 'drop.late'; readonly side: Side; readonly row: string; readonly reason: string }
  | { readonly t: 'watermark.generate'; readonly table: string; readonly partition: number; readonly value: number }
  | { readonly t: 'watermark.advance'; readonly scope: string; readonly from: number; readonly to: number }
  | { readonly t: 'watermark.hold'; readonly scope: string; readonly value: number; readonly heldBy: string }
  | { readonly t: 'watermark.ignored'; readonly table: string; readonly partition: number; readonly value: number; readonly reason: string }
  | { readonly t: 'idle'; readonly table: string; readonly partition: number; readonly idle: boolean; readonly reason: string }
  | { readonly t: 'timer.register'; readonly domain: 'event' | 'proc'; readonly time: number; readonly key: string; readonly purpose: string }
  | { readonly t: 'timer.fire'; readonly domain: 'event' | 'proc'; readonly time: number; readonly key: string; readonly purpose: string }
  | { readonly t: 'lookup'; readonly key: string; readonly result: 'hit' | 'miss' | 'miss-cached'; readonly rows: readonly string[] }
  | { readonly t: 'cache'; readonly op: 'put' | 'evict' | 'expire'; readonly key: string; readonly reason: string }
  | { readonly t: 'store.write'; readonly table: string; readonly kind: RowKind; readonly row: string }
  | { readonly t: 'sink'; readonly kind: RowKind; readonly row: string; readonly detail: string }
  | { readonly t: 'note'; readonly text: string };

/**
 * Where an operator's output goes for one call: emitted rows, trace events and step flags. The
 * engine hands one to every operator call and folds what it collected into the step's record.
 */
export interface Collector {
  /** Emit a joined row (left columns then right columns; semi/anti: the left row). */
  emit(kind: RowKind, joined: Row, why: Why): void;
  /**
   * Emit the join of `left` and `right` (undefined: that side is null-padded) without building
   * the joined row: a bulk run may keep the two rows by reference. Same as emit of the joined row.
   */
  emitPair?(kind: RowKind, left: Row | undefined, right: Row | undefined, why: Why): void;
  /** Record a trace event (kept only when `tracing`). */
  trace(ev: TraceEvent): void;
  /**
   * Set step flags (STEP_LATE_DROP, STEP_EXPIRE, ...) for "run to the next ..." navigation. A
   * bulk run keeps the flags of every step, so an operator flags what it did whether or not it
   * traces it.
   */
  flag(flags: number): void;
  /** False when the step keeps no trace (bulk runs): operators then build no trace or reason text. */
  readonly tracing: boolean;
}

/** What an operator sees of time in a step. */
export interface OpTime {
  readonly procTime: number;
  /** The join's combined input watermark (WM_MIN before any). */
  readonly watermark: number;
}

/** One side's retained state, described for the UI (state pane). */
export interface StateEntryView {
  /** Join key (or lookup key) as printed. */
  readonly key: string;
  /** The retained row, printed as Flink prints rows. */
  readonly row: string;
  /** e.g. 'count=2', 'assoc=1', 'version', 'in use', 'emitted' */
  readonly tags: readonly string[];
  /** Processing-time expiry (TTL) or event-time cleanup time, if any. */
  readonly expiresAt?: number;
  readonly expiryDomain?: 'proc' | 'event';
}

/**
 * One side's retained state as the state pane reads it: how many rows, and any row by its place,
 * built when read (a side can hold a million rows and the pane shows a screenful). `entries`
 * builds every row: for tests and small states. Made by stateViewOf (describe.ts).
 */
export interface StateView {
  /** e.g. 'per join key · row -> count (InputSideHasNoUniqueKey)' */
  readonly layout: string;
  readonly size: number;
  /** The row at place i (0 <= i < size), in the pane's order. */
  entryAt(i: number): StateEntryView;
  readonly entries: readonly StateEntryView[];
}

/**
 * A join operator: one `processElement` parameterised by side. `S` is the operator's plain-data
 * state; every function returns the next state and never changes a state that a kept snapshot
 * can reach. (Inside a transient edit, collections/edit.ts, it may change in place what the
 * current edit created: nothing kept can see that.) The engine traces `emit` for every row that
 * reaches the changelog: operators don't. Rows given to `processElement` are in the input's
 * layout (after the projection); rows given to `processStoreWrite` are the lookup table's own
 * rows (table layout, computed columns filled), not projected.
 */
export interface JoinOperator<S> {
  init(): S;
  processElement(state: S, side: Side, kind: RowKind, row: Row, time: OpTime, out: Collector): S;
  /** The combined watermark advanced to `time.watermark`: fire event-time timers <= it, in order. */
  onWatermark(state: S, time: OpTime, out: Collector): S;
  /** Fire processing-time timers <= time.procTime. */
  onProcessingTime(state: S, time: OpTime, out: Collector): S;
  /**
   * Lookup joins only: a row event addressed to the lookup table is a write to the external store
   * (`+I`/`+U` upsert by primary key, `-D` delete); the store lives in the operator's state.
   */
  processStoreWrite?(state: S, kind: RowKind, row: Row, time: OpTime, out: Collector): S;
  /** Earliest pending processing-time timer, if any (the engine advances the clock timer by timer). */
  nextProcessingTimer(state: S): number | undefined;
  /** How much the operator holds its output watermark back (interval join: max(-lower, upper)). */
  readonly outputWatermarkDelay: number;
  /** Flink's plan has no join operator whose watermark could be shown (an outer join on FALSE). */
  readonly noOutputWatermark?: boolean;
  describe(state: S, side: Side, time: OpTime): StateView;
}

/** Watermarks of one source partition, for the UI. */
export interface PartitionWatermarkView {
  readonly partition: number;
  /** Largest value of the WATERMARK expression so far (WM_MIN before any row). */
  readonly generated: number;
  /** Last watermark the partition emitted (WM_MIN before any). */
  readonly emitted: number;
  readonly idle: boolean;
  /** Processing time at which the idle timeout will mark it idle, if a timeout is configured. */
  readonly idleAt?: number;
}

export interface TableWatermarkView {
  readonly table: string;
  /** Which join input this table feeds (a lookup table feeds none). */
  readonly side?: Side;
  readonly partitions: readonly PartitionWatermarkView[];
  /** The table's combined watermark (StatusWatermarkValve output). */
  readonly combined: number;
  readonly idle: boolean;
  /** The partition holding `combined` back (the active minimum), when there are several. */
  readonly heldBy?: number;
}

export interface WatermarkView {
  readonly tables: readonly TableWatermarkView[];
  /** The join operator's combined input watermark. */
  readonly join: number;
  /** Who holds the join watermark back, in words: e.g. "rates partition 1". */
  readonly heldBy?: string;
  /** The join's output watermark (join minus the operator's delay). */
  readonly output: number;
}

/** Bit flags of what a step did, for "run to the next ..." navigation. */
export const STEP_EMIT = 1;
export const STEP_RETRACT = 2;
export const STEP_LATE_DROP = 4;
export const STEP_WATERMARK = 8;
export const STEP_EXPIRE = 16;

/** One step of a run: the event applied, and everything it produced. Index 0 is the initial state. */
export interface StepRecord<Snap = unknown> {
  readonly index: number;
  /** The event applied in this step (absent for step 0). */
  readonly event?: import('../scenario/types.js').ScenarioEvent;
  readonly snapshot: Snap;
  readonly emitted: readonly Emitted[];
  readonly trace: readonly TraceEvent[];
  readonly flags: number;
}

/**
 * A computed run over the scenario's events plus any manual actions, cheap to seek in both
 * directions (checkpoints + replay). Immutable: `insert`/`remove` return a new timeline.
 */
export interface Timeline<Snap = unknown> {
  /** Number of steps; valid indexes are 0..length (0 = before the first event). */
  readonly length: number;
  readonly events: readonly import('../scenario/types.js').ScenarioEvent[];
  at(index: number): StepRecord<Snap>;
  /** Flags of step i without materialising it. */
  flagsAt(index: number): number;
  /** Every emitted row up to and including step i, oldest first (use `changelogSize` + `changelogRange` for views). */
  changelogSize(index: number): number;
  changelogRange(index: number, from: number, to: number): readonly Emitted[];
  /**
   * The full reason for changelog row `changelogIndex` (bulk runs keep only its rule; this
   * replays the row's step with tracing on). Optional so that fakes need not implement it.
   */
  whyOf?(changelogIndex: number): Why;
  /** The materialized result after step i, printed rows sorted by text (Flink's `--result` form, without kind). */
  result(index: number): readonly string[];
  /**
   * The same result a window at a time (a pane shows a few of a large result's rows). It folds
   * the changelog up to step i first, at once: call `resultFold` before it to do that in pieces.
   * Optional, like `resultFold`: a timeline without them is read through `result`.
   */
  resultWindow?(index: number): ResultRows;
  /**
   * Moves the result's fold toward step i for about `budgetMs` (0: only says where it stands);
   * `resultWindow(i)` costs nothing more once `left` is 0.
   */
  resultFold?(index: number, budgetMs: number): ResultFold;
  /**
   * Prepares, for about `budgetMs`, the rows of the steps ready that a later `resultFold` would
   * otherwise read and print (done while the app is idle); returns how many are still to do.
   */
  resultPrepare?(budgetMs: number): number;
  describeState(index: number, side: Side): StateView;
  describeWatermarks(index: number): WatermarkView;
  /** A new timeline with `event` inserted after step `after` (manual actions, what-if edits). */
  insert(after: number, event: import('../scenario/types.js').ScenarioEvent): Timeline<Snap>;
  remove(index: number): Timeline<Snap>;
}

/** The result after a step, a window at a time. */
export interface ResultRows {
  readonly length: number;
  /** Printed rows [from, to) in sorted order, clamped as Array.slice is. */
  slice(from: number, to: number): readonly string[];
}

/** Where a result fold (Timeline.resultFold) stands: changelog rows still to move over. */
export interface ResultFold {
  readonly left: number;
  /** Where the fold is (a changelog prefix) and where it is going. */
  readonly at: number;
  readonly size: number;
}
