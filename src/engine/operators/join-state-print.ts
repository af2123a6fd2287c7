/**
 * How the regular and semi/anti joins' state is printed in traces and state views: a row's join
 * key, a stored row, and a processing time (TTL reasons).
 */
import type { Row, SqlType } from '../../values/types.js';
import { formatRow, formatValue } from '../../values/format.js';
import type { SideSpec } from './join-state.js';

export function printKeyOf(spec: SideSpec, row: Row): string {
  return spec.keyIdx.map((i) => formatValue(spec.types[i] as SqlType, row[i] ?? null)).join(', ');
}

export function printStored(spec: SideSpec, row: Row): string {
  return formatRow('+I', row, spec.types);
}

const TS: SqlType = { kind: 'TIMESTAMP', nullable: false, precision: 3 };

/** A processing time as people read it (TIMESTAMP(3) text). */
export function printTime(ms: number): string {
  return formatValue(TS, ms);
}
