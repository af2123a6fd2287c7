/**
 * Type names: DDL type syntax → SqlType with Flink's defaults and limits, and the two ways a type
 * is printed in messages — Flink's LogicalType summary (`DECIMAL(10, 2)`, `STRING`,
 * `TIMESTAMP_LTZ(3) *ROWTIME*`) and Calcite's (`VARCHAR(2147483647)`, `INTEGER`) used by the
 * validator's "Cannot apply" errors.
 */
import type { TypeAst } from '../sql/ast.js';
import type { SqlType, TypeKind } from '../values/types.js';
import { STRING_LENGTH, t } from './type-rules.js';

export type TypeResult = { ok: true; type: SqlType } | { ok: false; message: string; hint?: string };

/** Type names Flink knows but joinstep does not simulate. */
const UNSUPPORTED = new Set(['BYTES', 'BINARY', 'VARBINARY', 'ARRAY', 'MAP', 'MULTISET', 'ROW', 'RAW', 'INTERVAL', 'VARIANT']);

const ALIASES: Record<string, TypeKind> = {
  CHAR: 'CHAR', CHARACTER: 'CHAR', VARCHAR: 'VARCHAR', STRING: 'STRING', BOOLEAN: 'BOOLEAN', BOOL: 'BOOLEAN',
  TINYINT: 'TINYINT', SMALLINT: 'SMALLINT', INT: 'INT', INTEGER: 'INT', BIGINT: 'BIGINT',
  FLOAT: 'FLOAT', REAL: 'FLOAT', DOUBLE: 'DOUBLE', DECIMAL: 'DECIMAL', DEC: 'DECIMAL', NUMERIC: 'DECIMAL',
  DATE: 'DATE', TIME: 'TIME', TIMESTAMP: 'TIMESTAMP', TIMESTAMP_LTZ: 'TIMESTAMP_LTZ',
};

function precisionError(what: string, lo: number, hi: number): TypeResult {
  return { ok: false, message: `${what} precision must be between ${lo} and ${hi} (both inclusive).` };
}

/** DDL type → SqlType, applying Flink's defaults (DECIMAL = DECIMAL(10, 0), TIMESTAMP = TIMESTAMP(6)). */
export function resolveTypeAst(ast: TypeAst): TypeResult {
  const name = ast.name.toUpperCase();
  const kind = ALIASES[name];
  const [a0, a1] = ast.args;
  const nullable = ast.nullable;
  if (kind === undefined) {
    if (UNSUPPORTED.has(name)) {
      return { ok: false, message: `joinstep does not support the type ${name}`, hint: 'use STRING, a numeric type, BOOLEAN, DATE, TIME or a TIMESTAMP type' };
    }
    return { ok: false, message: `Unknown datatype name '${name}'`, hint: 'Flink types include STRING, INT, BIGINT, DECIMAL(p, s), DOUBLE, BOOLEAN, TIMESTAMP(3), TIMESTAMP_LTZ(3)' };
  }
  switch (kind) {
    case 'CHAR':
    case 'VARCHAR': {
      const len = a0 ?? 1;
      if (len < 1 || len > STRING_LENGTH) return { ok: false, message: `Length of ${kind} must be between 1 and ${STRING_LENGTH} (both inclusive).` };
      return { ok: true, type: len === STRING_LENGTH && kind === 'VARCHAR' ? t('STRING', nullable, STRING_LENGTH) : t(kind, nullable, len) };
    }
    case 'STRING':
      return { ok: true, type: t('STRING', nullable, STRING_LENGTH) };
    case 'DECIMAL': {
      const p = a0 ?? 10;
      const s = a1 ?? 0;
      if (p < 1 || p > 38) return precisionError('Decimal', 1, 38);
      if (s < 0 || s > p) return { ok: false, message: `Decimal scale must be between 0 and the precision ${p} (both inclusive).` };
      return { ok: true, type: t('DECIMAL', nullable, p, s) };
    }
    case 'TIME': {
      const p = a0 ?? 0;
      if (p < 0 || p > 9) return precisionError('Time', 0, 9);
      return { ok: true, type: t('TIME', nullable, p) };
    }
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ': {
      const p = a0 ?? 6;
      if (p < 0 || p > 9) return precisionError('Timestamp', 0, 9);
      return { ok: true, type: t(kind, nullable, p) };
    }
    default:
      return { ok: true, type: t(kind, nullable) };
  }
}

/** Flink's LogicalType#asSummaryString: `STRING`, `INT NOT NULL`, `DECIMAL(10, 2)`, `TIMESTAMP_LTZ(3) *ROWTIME*`. */
export function flinkTypeName(x: SqlType, timeAttr?: 'rowtime' | 'proctime'): string {
  let base: string;
  switch (x.kind) {
    case 'STRING':
      base = 'STRING';
      break;
    case 'CHAR':
    case 'VARCHAR':
      base = `${x.kind}(${x.precision ?? 1})`;
      break;
    case 'DECIMAL':
      base = `DECIMAL(${x.precision ?? 10}, ${x.scale ?? 0})`;
      break;
    case 'TIME':
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      base = `${x.kind}(${x.precision ?? (x.kind === 'TIME' ? 0 : 6)})`;
      break;
    default:
      base = x.kind;
  }
  if (!x.nullable && x.kind !== 'NULL') base += ' NOT NULL';
  if (timeAttr) base += timeAttr === 'rowtime' ? ' *ROWTIME*' : ' *PROCTIME*';
  return base;
}

/** Calcite's SQL type name, as the validator prints operand types in "Cannot apply" messages. */
export function calciteTypeName(x: SqlType): string {
  switch (x.kind) {
    case 'STRING':
      return `VARCHAR(${STRING_LENGTH})`;
    case 'CHAR':
    case 'VARCHAR':
      return `${x.kind}(${x.precision ?? 1})`;
    case 'INT':
      return 'INTEGER';
    case 'DECIMAL':
      return `DECIMAL(${x.precision ?? 10}, ${x.scale ?? 0})`;
    case 'TIMESTAMP':
      return `TIMESTAMP(${x.precision ?? 6})`;
    case 'TIMESTAMP_LTZ':
      return `TIMESTAMP_WITH_LOCAL_TIME_ZONE(${x.precision ?? 6})`;
    case 'TIME':
      return `TIME(${x.precision ?? 0})`;
    case 'INTERVAL':
      return 'INTERVAL SECOND';
    default:
      return x.kind;
  }
}
