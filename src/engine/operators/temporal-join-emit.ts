/**
 * How a released probe row goes out (TemporalRowTimeJoinOperator, once the watermark passed it):
 * it takes the version valid at its time; a +I/+U version whose condition holds joins, anything
 * else pads the row for LEFT and drops it for INNER. The output kind is the probe row's kind.
 */
import { isAccumulate } from '../../values/types.js';
import type { Collector } from '../types.js';
import { bulkWhy, wantsText } from '../why.js';
import { conditionHolds, joinRow, printRow, printRowOf, printTime, type JoinRows } from './interval-join-rows.js';
import { versionAt, type ProbeRow, type Version } from './temporal-join-state.js';

export function emitProbe(j: JoinRows, versions: readonly Version[], p: ProbeRow, key: string, procTime: number, out: Collector): void {
  const v = versionAt(versions, p.time);
  if (!wantsText(out)) {
    emitProbeBulk(j, v, p, procTime, out);
    return;
  }
  const probe = printRow(j, 0, p.kind, p.row);
  const rows = [printRowOf(j, 0, p.kind, p.row)];
  const at = printTime(j, p.time);
  let miss: string;
  if (v === undefined) miss = `no ${j.plan.inputs[1].alias} version for key ${key} at or before ${at}`;
  else if (!isAccumulate(v.kind)) miss = `the version valid at ${at} is ${printRow(j, 1, v.kind, v.row)} (${printTime(j, v.time)}): no row from then on`;
  else {
    const joined = joinRow(j, p.row, v.row);
    const version = printRow(j, 1, v.kind, v.row);
    if (conditionHolds(j, joined, procTime)) {
      const text = `left ${probe} matched ${j.plan.inputs[1].alias} version ${version} (from ${printTime(j, v.time)}, the latest <= ${at})`;
      out.trace({ t: 'match', side: 0, row: probe, other: version, detail: `version from ${printTime(j, v.time)}` });
      out.emit(p.kind, joined, { rule: 'temporal.version', text, rows: [...rows, printRowOf(j, 1, v.kind, v.row)] });
      return;
    }
    miss = `the join condition is not true for version ${version}`;
  }
  out.trace({ t: 'no-match', side: 0, row: probe, reason: miss });
  if (j.plan.joinType === 'left') {
    out.emit(p.kind, joinRow(j, p.row, undefined), { rule: 'temporal.pad', text: `left ${probe} is null-padded: ${miss}`, rows });
  }
}

/** emitProbe without any text (bulk runs): the same rows and rules. */
function emitProbeBulk(j: JoinRows, v: Version | undefined, p: ProbeRow, procTime: number, out: Collector): void {
  if (v !== undefined && isAccumulate(v.kind)) {
    const joined = joinRow(j, p.row, v.row);
    if (conditionHolds(j, joined, procTime)) {
      out.emit(p.kind, joined, bulkWhy('temporal.version'));
      return;
    }
  }
  if (j.plan.joinType === 'left') out.emit(p.kind, joinRow(j, p.row, undefined), bulkWhy('temporal.pad'));
}
