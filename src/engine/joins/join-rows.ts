/**
 * Row helpers of every join family: join keys, the non-equi condition, joined / null-padded rows,
 * and printing rows, keys and times for traces and reasons.
 */
import type { Plan, Side } from '../../planner/plan.js';
import { compileExpr } from '../../values/eval.js';
import { formatRow, formatValue } from '../../values/format.js';
import type { Row, RowKind, SqlType, Value } from '../../values/types.js';
import { concatRows } from '../keys.js';
import { WM_MAX, WM_MIN } from '../types.js';

export interface JoinRows {
  readonly plan: Plan;
  readonly types: readonly [readonly SqlType[], readonly SqlType[]];
  readonly keyIdx: readonly [readonly number[], readonly number[]];
  /** Column of each side's time attribute (undefined for a proctime interval join's rows: time is arrival). */
  readonly timeIdx: readonly [number | undefined, number | undefined];
  /** Non-equi condition over the joined row; absent = always true. */
  readonly residual?: (joined: Row, procTime: number) => boolean;
}

export function makeJoinRows(plan: Plan): JoinRows {
  const types = [plan.inputs[0].columns.map((c) => c.type), plan.inputs[1].columns.map((c) => c.type)] as const;
  const cond = plan.residual === undefined ? undefined : compileExpr(plan.residual);
  // SQL: a condition that is NULL does not hold.
  const residual = cond === undefined ? undefined : (joined: Row, procTime: number) => cond(joined, { procTime, timeZone: 'UTC' }) === true;
  return {
    plan,
    types,
    keyIdx: [plan.keys.left, plan.keys.right],
    timeIdx: [plan.inputs[0].timeAttr?.index, plan.inputs[1].timeAttr?.index],
    ...(residual === undefined ? {} : { residual }),
  };
}

export function otherSide(side: Side): Side {
  return side === 0 ? 1 : 0;
}

export function sideName(side: Side): string {
  return side === 0 ? 'left' : 'right';
}

/** The join key as people read it: `EUR`, or `k1, 7` for a composite key. */
export function printKey(j: JoinRows, side: Side, row: Row): string {
  return j.keyIdx[side].map((i) => formatValue(j.types[side][i] as SqlType, row[i] ?? null)).join(', ');
}

/**
 * Flink's IntervalJoinFunction (like JoinConditionWithNullFilters) matches nothing when a join-key
 * field that is not null-safe (`=` rather than IS NOT DISTINCT FROM) is null.
 */
export function keyRejectsNull(j: JoinRows, side: Side, row: Row): boolean {
  // A plain loop, not some(): it runs once per probe of a long run.
  const idx = j.keyIdx[side];
  for (let n = 0; n < idx.length; n++) if (row[idx[n] as number] === null && !j.plan.keys.nullSafe[n]) return true;
  return false;
}

export function nulls(width: number): Value[] {
  return new Array<Value>(width).fill(null);
}

/** The joined row, left columns then right columns; a missing side is null-padded. */
export function joinRow(j: JoinRows, left: Row | undefined, right: Row | undefined): Row {
  return concatRows(left, right, j.types[0].length, j.types[1].length);
}

export function conditionHolds(j: JoinRows, joined: Row, procTime: number): boolean {
  return j.residual === undefined || j.residual(joined, procTime);
}

/** A side's row as Flink prints it, e.g. `+I[o1, EUR, 100.00, 2026-10-01T09:30]`. */
export function printRow(j: JoinRows, side: Side, kind: RowKind, row: Row): string {
  return formatRow(kind, row, j.types[side]);
}

/** A side's row with the name the query uses for it, for `Why.rows`. */
export function printRowOf(j: JoinRows, side: Side, kind: RowKind, row: Row): string {
  return `${j.plan.inputs[side].alias} ${printRow(j, side, kind, row)}`;
}

/** A time in the type of the join's time attribute (TIMESTAMP or TIMESTAMP_LTZ text). */
export function printTime(j: JoinRows, ms: number): string {
  if (ms <= WM_MIN) return 'MIN';
  if (ms >= WM_MAX) return 'MAX';
  const idx = j.timeIdx[0];
  const type: SqlType = idx === undefined ? { kind: 'TIMESTAMP_LTZ', nullable: false, precision: 3 } : (j.types[0][idx] as SqlType);
  return formatValue(type, ms);
}

/** A row's time attribute value, or undefined when it is not a number (null rowtime). */
export function rowTime(j: JoinRows, side: Side, row: Row): number | undefined {
  const idx = j.timeIdx[side];
  const v = idx === undefined ? undefined : row[idx];
  return typeof v === 'number' ? v : undefined;
}

/** A duration for people, in the scenario format's units: `5 min`, `1 h 30 min`, `250 ms`, `-5 min`. */
export function printSpan(ms: number): string {
  if (ms === 0) return '0 ms';
  const units: readonly [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1000, 's'], [1, 'ms']];
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n} ${name}`);
    rest -= n * size;
  }
  return (ms < 0 ? '-' : '') + parts.join(' ');
}
