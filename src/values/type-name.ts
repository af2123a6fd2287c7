import type { SqlType } from './types.js';

/** A type as Flink writes it in messages: `INT`, `DECIMAL(10, 2)`, `TIMESTAMP(3)`, `VARCHAR(20)`, `... NOT NULL`. */
export function typeName(t: SqlType, withNullability = false): string {
  let base: string;
  switch (t.kind) {
    case 'DECIMAL':
      base = `DECIMAL(${t.precision ?? 10}, ${t.scale ?? 0})`;
      break;
    case 'TIME':
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      base = t.precision === undefined ? t.kind : `${t.kind}(${t.precision})`;
      break;
    case 'CHAR':
    case 'VARCHAR':
      base = t.precision === undefined ? t.kind : `${t.kind}(${t.precision})`;
      break;
    default:
      base = t.kind;
  }
  return withNullability && !t.nullable ? base + ' NOT NULL' : base;
}
