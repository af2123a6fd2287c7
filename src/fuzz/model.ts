/**
 * A generated scenario as data, before it is written as YAML: the shrinker edits this form (drops
 * events, columns, partitions) and renders it again, so every shrunk file is still a valid scenario.
 */
/** 2026-10-01 00:00 UTC, every generated scenario's `date`: processing time starts here. */
export const FUZZ_DATE_MS = Date.UTC(2026, 9, 1);

export type Family = 'regular' | 'semi-anti' | 'interval' | 'temporal' | 'lookup';

export const FAMILIES: readonly Family[] = ['regular', 'semi-anti', 'interval', 'temporal', 'lookup'];

export const FLINK_VERSIONS = ['2.0', '2.1', '2.2', '2.3', '2.4'] as const;
export type FuzzFlinkVersion = (typeof FLINK_VERSIONS)[number];

/** The versions real Flink can run: 2.4 has no release (its rules come from Flink's main branch). */
export const RELEASED_FLINK_VERSIONS: readonly FuzzFlinkVersion[] = ['2.0', '2.1', '2.2', '2.3'];

export interface ColumnSpec {
  readonly name: string;
  /** SQL type, or the computed expression when `computed` is set. */
  readonly type: string;
  readonly computed?: boolean;
  /** A Kafka metadata column: `type METADATA FROM 'key'` (`VIRTUAL` when set). */
  readonly metadata?: { readonly key: string; readonly virtual: boolean };
  /** A payload column that no condition reads: the shrinker may drop it. */
  readonly droppable?: boolean;
}

export interface TableSpec {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  readonly primaryKey?: readonly string[];
  /** `ts AS ts - INTERVAL '1' SECOND` (the text after WATERMARK FOR). */
  readonly watermark?: string;
  /** The WITH clause's options, rendered in order. */
  readonly options: readonly (readonly [string, string])[];
}

export interface SelectItem {
  readonly expr: string;
  readonly alias: string;
  readonly type: string;
  /** Columns it reads, as `table.column`: dropping one of them drops the item. */
  readonly reads: readonly string[];
}

export interface SinkSpec {
  readonly name: string;
  readonly primaryKey?: readonly string[];
  readonly options: readonly (readonly [string, string])[];
  readonly onConflict?: 'DEDUPLICATE' | 'NOTHING' | 'ERROR';
}

export type RowValue = string | number | null;

export type FuzzEvent =
  | { readonly kind: 'row'; readonly to: string; readonly op: '+I' | '-U' | '+U' | '-D'; readonly row: Readonly<Record<string, RowValue>>; readonly partition?: number; readonly at?: number }
  | { readonly kind: 'watermark'; readonly table: string; readonly partition?: number; readonly to?: string; readonly at?: number }
  | { readonly kind: 'idle' | 'active'; readonly table: string; readonly partition?: number }
  | { readonly kind: 'advance'; readonly ms: number };

export interface FuzzCase {
  readonly seed: number;
  readonly family: Family;
  /** e.g. `regular/left`, `semi-anti/NOT EXISTS`, `lookup/left keyed`: what the case exercises. */
  readonly shape: string;
  readonly flinkVersion: FuzzFlinkVersion;
  readonly watermarks: 'auto' | 'manual';
  readonly partitions: Readonly<Record<string, number>>;
  readonly config: Readonly<Record<string, string>>;
  readonly tables: readonly TableSpec[];
  /** CREATE VIEW statements, verbatim (they read no droppable column). */
  readonly views: readonly string[];
  readonly hint?: string;
  readonly select: readonly SelectItem[];
  /** FROM ... [WHERE ...] after the SELECT list. */
  readonly from: string;
  readonly sink?: SinkSpec;
  readonly events: readonly FuzzEvent[];
}
