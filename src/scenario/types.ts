/**
 * A loaded, validated scenario: the typed form of a scenario YAML file. Only src/scenario/load.ts
 * produces it; past that boundary nothing looks at YAML again.
 */
import type { EngineConfig, FlinkVersion, Plan, TableDef } from '../planner/plan.js';
import type { Row, RowKind } from '../values/types.js';

/** A position in the scenario file, 1-based. */
export interface FilePos {
  readonly line: number;
  readonly col: number;
}

/** A user mistake, reported as `FILE:LINE:COL: error: MESSAGE` plus an optional hint line. */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly hint?: string;
  /** For a file with `queries:`, the named query whose SQL this problem is in (for per-query `expect.error`). */
  readonly query?: string;
}

interface EventBase {
  /** Processing time to move to before the event (epoch ms); absent = stays. */
  readonly at?: number;
  readonly note?: string;
  /**
   * Practice mode: true (or the question's text) asks the candidate before this step even when
   * it emits nothing; false never asks, even when it emits. Absent: asked when it emits.
   */
  readonly ask?: boolean | string;
  /** Practice mode: a hint shown with this step's question. */
  readonly hint?: string;
  /** Where the event starts in the file (for the timeline and for what-if edits). */
  readonly pos: FilePos;
  /** The data file a replayed event was read from (`pos` is in it); absent: the scenario file. */
  readonly file?: string;
}

export type ScenarioEvent =
  | (EventBase & {
      readonly kind: 'row';
      readonly table: string;
      readonly partition: number;
      readonly op: RowKind;
      /** Values in the table's column order; computed columns are null here (the engine computes them). */
      readonly row: Row;
    })
  | (EventBase & {
      readonly kind: 'watermark';
      readonly table: string;
      /** absent = every partition of the table */
      readonly partition?: number;
      /** epoch ms; 'max' = end of input; 'generated' = the partition's generated value */
      readonly to: number | 'max' | 'generated';
    })
  | (EventBase & { readonly kind: 'idle'; readonly table: string; readonly partition?: number })
  | (EventBase & { readonly kind: 'active'; readonly table: string; readonly partition?: number })
  | (EventBase & { readonly kind: 'advance'; readonly ms: number })
  | (EventBase & { readonly kind: 'note' });

export interface Expectation {
  readonly changelog?: readonly string[];
  readonly result?: readonly string[];
  readonly error?: string;
  /**
   * The per-query form, for a file with `queries:` (`expect: { queries: { NAME: {...} } }`);
   * never together with changelog / result / error at this level.
   */
  readonly queries?: Readonly<Record<string, Expectation>>;
}

/** One named query of the scenario: 'main' for a single-query file, else the `queries:` key. */
export interface NamedQuery {
  readonly name: string;
  readonly plan: Plan;
  /** The query's own SQL text, for a file with `queries:` (the DDL is in Scenario.sql). */
  readonly sql?: string;
}

export interface Scenario {
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  /** Epoch ms of `date` 00:00 UTC (default 1970-01-01). */
  readonly date: number;
  readonly flinkVersion: FlinkVersion;
  readonly watermarks: 'auto' | 'manual';
  /** Partition count per table name (every table present, default 1). */
  readonly partitions: Readonly<Record<string, number>>;
  readonly config: EngineConfig;
  /**
   * The `config:` entries exactly as the file wrote them (`table.exec.state.ttl: 10 s` → '10 s'),
   * for running the scenario on real Flink; absent on scenarios built in code.
   */
  readonly configText?: Readonly<Record<string, string>>;
  /** The `sql` block: DDL and the query, or only the DDL when the file has `queries:`. */
  readonly sql: string;
  /** In file order; one ('main') for a single-query file. */
  readonly queries: readonly NamedQuery[];
  /** True when the file declares `queries:`: the CLI then names each query in its output. */
  readonly namedQueries?: boolean;
  readonly events: readonly ScenarioEvent[];
  readonly expect?: Expectation;
  /** The app's demo key script, if any. */
  readonly demo?: string;
}

/**
 * A file whose only problems are in its SQL (joinstep's parser or planner rejected it): what real
 * Flink needs to plan the same SQL, to compare the two verdicts (`joinstep flink`).
 */
export interface RejectedSql {
  readonly file: string;
  readonly name: string;
  readonly date: number;
  readonly flinkVersion: FlinkVersion;
  readonly watermarks: 'auto' | 'manual';
  readonly partitions: Readonly<Record<string, number>>;
  readonly configText: Readonly<Record<string, string>>;
  /** The `sql` block verbatim (only the DDL when the file has `queries:`). */
  readonly sql: string;
  /** The `queries:` entries, for a file that has them. */
  readonly queries?: readonly { readonly name: string; readonly sql: string }[];
  /**
   * The events, checked against the declared tables, when the DDL planned and only the query was
   * rejected: enough to run the file on real Flink, where the query may well be accepted.
   */
  readonly checked?: { readonly tables: readonly TableDef[]; readonly events: readonly ScenarioEvent[] };
}

export type LoadResult =
  | { readonly ok: true; readonly scenario: Scenario }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      /** Present when every problem is in the SQL (a parse or planner rejection). */
      readonly rejectedSql?: RejectedSql;
      /** Present when the file itself was readable: lets `joinstep test` match `expect.error`. */
      readonly expect?: Expectation;
      readonly name?: string;
    };
