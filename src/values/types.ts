/**
 * SQL types and runtime values, as plain serializable data.
 *
 * Runtime representation of a value by type (chosen so that rows are plain JSON-able
 * arrays, equality is `===`, and printing is cheap):
 *   STRING / CHAR / VARCHAR  -> string
 *   BOOLEAN                  -> boolean
 *   TINYINT..BIGINT          -> number (safe integers only; larger literals are rejected at load)
 *   FLOAT / DOUBLE           -> number
 *   DECIMAL(p, s)            -> string, canonical text with exactly s fraction digits ("110.000000", "-0.50")
 *   DATE                     -> number, days since 1970-01-01
 *   TIME(p)                  -> number, milliseconds of the day
 *   TIMESTAMP(p)             -> number, epoch milliseconds of the wall-clock time read as UTC
 *   TIMESTAMP_LTZ(p)         -> number, epoch milliseconds (an instant)
 *   NULL                     -> null
 */

export type TypeKind =
  | 'CHAR'
  | 'VARCHAR'
  | 'STRING'
  | 'BOOLEAN'
  | 'TINYINT'
  | 'SMALLINT'
  | 'INT'
  | 'BIGINT'
  | 'FLOAT'
  | 'DOUBLE'
  | 'DECIMAL'
  | 'DATE'
  | 'TIME'
  | 'TIMESTAMP'
  | 'TIMESTAMP_LTZ'
  | 'INTERVAL' // only as the type of an INTERVAL literal inside expressions; value = milliseconds
  | 'NULL'; // the type of an untyped NULL literal

/** A resolved SQL type. `precision`/`scale` are set for DECIMAL, TIME/TIMESTAMP(_LTZ) (precision), CHAR/VARCHAR (precision = length). */
export interface SqlType {
  readonly kind: TypeKind;
  readonly nullable: boolean;
  readonly precision?: number;
  readonly scale?: number;
}

export type Value = null | string | number | boolean;

/** A row is positional: values in the order of its schema's columns. */
export type Row = readonly Value[];

export type RowKind = '+I' | '-U' | '+U' | '-D';

export const ROW_KINDS: readonly RowKind[] = ['+I', '-U', '+U', '-D'];

/** `+I` / `+U` accumulate, `-U` / `-D` retract (Flink's RowDataUtil.isAccumulateMsg). */
export function isAccumulate(kind: RowKind): boolean {
  return kind === '+I' || kind === '+U';
}

/** A row together with its kind, as it travels on a changelog stream. */
export interface Change {
  readonly kind: RowKind;
  readonly row: Row;
}
