/**
 * The plan: everything the engine needs to run one join query, as plain data. Produced by the
 * planner (src/planner/planner.ts) from the SQL syntax tree, printed by `joinstep explain`.
 * Column references inside a plan are indexes into a known row layout, never names.
 */
import type { Span } from '../sql/ast.js';
import type { RowKind, SqlType, Value } from '../values/types.js';

/** A typed, resolved expression over one row layout (see where each is used). */
export type TExpr =
  | { readonly k: 'col'; readonly type: SqlType; readonly index: number; readonly name: string }
  | { readonly k: 'lit'; readonly type: SqlType; readonly value: Value }
  /** Scalar function or operator. `fn` is upper-case: '+', '-', '*', '/', '%', '||', '=', '<>', '<', '<=', '>',
   *  '>=', 'AND', 'OR', 'NOT', 'NEG', 'IS NULL', 'IS NOT NULL', 'IS DISTINCT FROM', 'IS NOT DISTINCT FROM',
   *  'IS TRUE', 'IS FALSE', 'LIKE', 'IN', 'COALESCE', 'TO_TIMESTAMP_LTZ', 'PROCTIME', 'UPPER', 'LOWER', 'CONCAT',
   *  'ABS', 'ROUND', 'FLOOR', 'CEIL', 'DATE_FORMAT', 'TIMESTAMPADD', 'CHAR_LENGTH', 'IFNULL', 'NULLIF', ... */
  | { readonly k: 'call'; readonly type: SqlType; readonly fn: string; readonly args: readonly TExpr[] }
  | { readonly k: 'cast'; readonly type: SqlType; readonly arg: TExpr; readonly try: boolean }
  | {
      readonly k: 'case';
      readonly type: SqlType;
      readonly whens: readonly { readonly when: TExpr; readonly then: TExpr }[];
      readonly else?: TExpr;
    };

export type ConnectorNature = 'append' | 'upsert' | 'changelog' | 'lookup';

export type TimeAttrKind = 'rowtime' | 'proctime';

export interface ColumnDef {
  readonly name: string;
  readonly type: SqlType;
  readonly kind: 'physical' | 'computed' | 'metadata';
  /** Computed columns: the expression over the table row (this table's column indexes). */
  readonly expr?: TExpr;
  readonly metadataKey?: string;
  readonly virtual?: boolean;
  /** Set on the column named in WATERMARK FOR (rowtime) or defined AS PROCTIME() (proctime). */
  readonly timeAttr?: TimeAttrKind;
  readonly span: Span;
}

/** Lookup cache of a lookup source (`lookup.cache` = PARTIAL, or the legacy options). */
export interface LookupCacheConfig {
  readonly maxRows?: number;
  readonly expireAfterWriteMs?: number;
  readonly expireAfterAccessMs?: number;
  readonly cacheMissingKey: boolean;
  /** Which options produced this config, for `explain` (e.g. 'lookup.partial-cache.*' or legacy). */
  readonly source: 'partial' | 'legacy';
}

export interface TableDef {
  readonly name: string;
  readonly columns: readonly ColumnDef[];
  /** WATERMARK FOR columns[column] AS expr (expr over the table row). */
  readonly watermark?: { readonly column: number; readonly expr: TExpr; readonly text: string };
  readonly primaryKey?: readonly number[];
  readonly options: readonly { readonly key: string; readonly value: string }[];
  readonly connector: string;
  readonly nature: ConnectorNature;
  readonly lookupCache?: LookupCacheConfig;
  readonly span: Span;
}

export type JoinFamily = 'regular' | 'semi' | 'anti' | 'interval' | 'temporal' | 'lookup';
export type JoinType = 'inner' | 'left' | 'right' | 'full';
export type Side = 0 | 1; // 0 = left input, 1 = right input

/** Flink's JoinInputSideSpec. */
export type StateLayout =
  | { readonly kind: 'JoinKeyContainsUniqueKey'; readonly uniqueKey: readonly number[] }
  | { readonly kind: 'InputSideHasUniqueKey'; readonly uniqueKey: readonly number[] }
  | { readonly kind: 'InputSideHasNoUniqueKey' };

/** One join input: a source table, optionally through a view's filter / projection / dedup. */
export interface InputPlan {
  /** The source table (its TableDef is in Plan.tables). */
  readonly table: string;
  /** The name used in the query (alias, or view name, or table name). */
  readonly alias: string;
  /**
   * Filter over the source row (view WHERE or pushed-down query WHERE), before deduplication; with a
   * ChangelogNormalize it runs after the normalize, as Flink keeps non-key predicates above it.
   */
  readonly filter?: TExpr;
  /**
   * Planner-inserted ChangelogNormalize keyed by the source primary key (upsert sources). `columns`:
   * the source columns it keeps, and so compares (the query's reads and the key; planner/input-columns.ts).
   */
  readonly changelogNormalize?: { readonly key: readonly number[]; readonly columns?: readonly number[] };
  /**
   * An upsert source read without a ChangelogNormalize (2.1+, planner/update-kind.ts): every value
   * reaches the join as +I, a tombstone as -D carrying only `key` (its other columns null).
   */
  readonly rawUpsert?: { readonly key: readonly number[] };
  /** Deduplicate from a `ROW_NUMBER() OVER (PARTITION BY k ORDER BY t DESC) = 1` view (keep last row). */
  readonly deduplicate?: { readonly key: readonly number[]; readonly orderBy: number; readonly keepLast: boolean };
  /** Planner-inserted DropUpdateBefore (versioned side of a temporal join). */
  readonly dropUpdateBefore: boolean;
  /** Projection from the source row to this input's row; absent = the source row unchanged. */
  readonly project?: readonly TExpr[];
  /** The input row layout the join sees. */
  readonly columns: readonly { readonly name: string; readonly type: SqlType; readonly timeAttr?: TimeAttrKind }[];
  readonly changelogMode: readonly RowKind[];
  readonly upsertKeys: readonly (readonly number[])[];
  /** State layout for a regular join; absent for other operators. */
  readonly stateLayout?: StateLayout;
  /** Time attribute used by the operator (interval / temporal), index into `columns`. */
  readonly timeAttr?: { readonly index: number; readonly kind: TimeAttrKind };
  /** State retention for this input in ms (table.exec.state.ttl or the STATE_TTL hint); 0 = forever. */
  readonly stateTtlMs: number;
  readonly stateTtlSource: 'config' | 'hint' | 'none';
}

export interface IntervalSpec {
  /** leftTime BETWEEN rightTime + lowerMs AND rightTime + upperMs (inclusive). */
  readonly lowerMs: number;
  readonly upperMs: number;
  readonly timeKind: TimeAttrKind;
  readonly minCleanupMs: number;
  /** upper < lower: Flink builds no operator, only filter-all / pad maps. */
  readonly negativeWindow: boolean;
  /**
   * The condition simplifies to FALSE (contradiction.ts): Flink plans no interval join. FULL: a
   * regular join on FALSE (rows padded at once, watermarks passed on); LEFT / RIGHT: a Calc that
   * pads the preserved side (the other side is never read, no join watermark); INNER: no rows.
   */
  readonly alwaysFalse?: boolean;
}

export interface LookupSpec {
  /** Right-side columns used as lookup keys, paired with the left expressions that supply them. */
  readonly keys: readonly { readonly rightColumn: number; readonly left: TExpr }[];
  readonly cache?: LookupCacheConfig;
  /**
   * Flink's KeyedLookupJoinWrapper (table.optimizer.non-deterministic-update.strategy = TRY_RESOLVE
   * with an updating left input): remembers the rows emitted per left key and retracts those
   * instead of looking up again (notes §6). Absent = the plain lookup runner.
   */
  readonly materialize?: boolean;
  /**
   * Left-only conjuncts of a LEFT lookup join's ON condition: Flink's pre-filter (FLINK-18445). A row
   * that fails it is not looked up (LEFT pads it); for the keyed wrapper it leaves the state alone.
   */
  readonly preFilter?: TExpr;
  /**
   * The keyed wrapper's state key (materialize only): the left input's smallest upsert key, sorted,
   * or every column when it has none (StreamExecLookupJoin.getKeySelector).
   */
  readonly stateKey?: readonly number[];
  /**
   * Whether the lookup keys contain the lookup table's primary key (one right row per left key:
   * KeyedLookupJoinWrapper's unique-value state rather than its list state).
   */
  readonly lookupKeyContainsPrimaryKey?: boolean;
}

export interface SinkPlan {
  readonly table: string;
  readonly primaryKey?: readonly number[];
  /** SinkUpsertMaterializer inserted (table.exec.sink.upsert-materialize AUTO/FORCE rules). */
  readonly upsertMaterialize: boolean;
  readonly onConflict?: 'DEDUPLICATE' | 'NOTHING' | 'ERROR';
  readonly columns: readonly { readonly name: string; readonly type: SqlType }[];
}

export interface Plan {
  readonly family: JoinFamily;
  readonly joinType: JoinType;
  readonly tables: readonly TableDef[];
  readonly inputs: readonly [InputPlan, InputPlan];
  /** Equi-join keys: indexes into each input's row, pairwise; nullSafe for IS NOT DISTINCT FROM. */
  readonly keys: { readonly left: readonly number[]; readonly right: readonly number[]; readonly nullSafe: readonly boolean[] };
  /** Non-equi remainder of the join condition over the joined row (left columns then right columns). */
  readonly residual?: TExpr;
  readonly interval?: IntervalSpec;
  readonly lookup?: LookupSpec;
  /** Output projection over the joined row (left ++ right; for semi/anti: the left row only). */
  readonly project: readonly TExpr[];
  /** WHERE conditions that stay after the join (over the joined row). */
  readonly postFilter?: TExpr;
  /**
   * Regular family: the join condition folds to FALSE (contradiction.ts) and Flink plans no join.
   * INNER: an empty, insert-only Values (no row ever comes out); LEFT / RIGHT: a Calc that pads
   * each row of the preserved side with nulls and keeps its kind, the other side never read.
   * (FULL stays a join on FALSE, planned with no equality keys: not marked here.)
   */
  readonly alwaysFalse?: boolean;
  readonly output: {
    readonly names: readonly string[];
    readonly types: readonly SqlType[];
    readonly changelogMode: readonly RowKind[];
    readonly upsertKeys: readonly (readonly number[])[];
  };
  readonly sink?: SinkPlan;
  readonly flinkVersion: FlinkVersion;
  /** Human-readable reasons: why this operator, which planner steps were inserted, which version rules apply. */
  readonly notes: readonly string[];
}

export type FlinkVersion = '2.0' | '2.1' | '2.2' | '2.3' | '2.4';

/** Config keys that change semantics, typed. */
export interface EngineConfig {
  readonly stateTtlMs: number;
  readonly idleTimeoutMs: number;
  readonly localTimeZone: string;
  readonly minCleanupIntervalMs: number;
  readonly sinkUpsertMaterialize: 'AUTO' | 'NONE' | 'FORCE';
  readonly cdcEventsDuplicate: boolean;
  readonly nonDeterministicUpdateStrategy: 'IGNORE' | 'TRY_RESOLVE';
  readonly autoWatermarkIntervalMs: number;
  /**
   * table.exec.sink.require-on-conflict (Flink 2.3+, default true): an upsert sink whose primary
   * key does not contain the query's upsert key needs an ON CONFLICT clause. Absent = the default.
   */
  readonly sinkRequireOnConflict?: boolean;
}

/** A planner rejection: Flink's message, a plain-words hint, and the SQL span it points at. */
export interface PlanError {
  readonly message: string;
  readonly hint?: string;
  readonly span: Span;
}

export type PlanResult = { readonly ok: true; readonly plan: Plan } | { readonly ok: false; readonly error: PlanError };
