/**
 * How a released probe row goes out (TemporalRowTimeJoinOperator, once the watermark passed it):
 * it takes the version valid at its time; a +I/+U version whose condition holds joins, anything
 * else pads the row for LEFT and drops it for INNER. The output kind is the probe row's kind.
 */
import { isAccumulate, type Row, type RowKind } from '../../values/types.js';
import type { Collector } from '../types.js';
import { bulkWhy, wantsText } from '../why.js';
import { conditionHolds, joinRow, printRow, printRowOf, printTime, type JoinRows } from './interval-join-rows.js';
import { probeKind, probeRow, probeTime, versionAt, versionKind, versionRow, versionTime, type TemporalKeyState } from './temporal-key-state.js';

/** Probe row i of key state `ks` goes out (key: the printed key, for reasons). */
export function emitProbe(j: JoinRows, ks: TemporalKeyState, i: number, key: string, procTime: number, out: Collector): void {
  const pKind = probeKind(ks, i);
  const pRow = probeRow(ks, i);
  const pTime = probeTime(ks, i);
  const v = versionAt(ks, pTime);
  if (!wantsText(out)) {
    emitProbeBulk(j, ks, v, pKind, pRow, procTime, out);
    return;
  }
  const probe = printRow(j, 0, pKind, pRow);
  const rows = [printRowOf(j, 0, pKind, pRow)];
  const at = printTime(j, pTime);
  let miss: string;
  if (v < 0) miss = `no ${j.plan.inputs[1].alias} version for key ${key} at or before ${at}`;
  else if (!isAccumulate(versionKind(ks, v))) miss = `the version valid at ${at} is ${printRow(j, 1, versionKind(ks, v), versionRow(ks, v))} (${printTime(j, versionTime(ks, v))}): no row from then on`;
  else {
    const joined = joinRow(j, pRow, versionRow(ks, v));
    const version = printRow(j, 1, versionKind(ks, v), versionRow(ks, v));
    if (conditionHolds(j, joined, procTime)) {
      const from = printTime(j, versionTime(ks, v));
      const text = `left ${probe} matched ${j.plan.inputs[1].alias} version ${version} (from ${from}, the latest <= ${at})`;
      out.trace({ t: 'match', side: 0, row: probe, other: version, detail: `version from ${from}` });
      out.emit(pKind, joined, { rule: 'temporal.version', text, rows: [...rows, printRowOf(j, 1, versionKind(ks, v), versionRow(ks, v))] });
      return;
    }
    miss = `the join condition is not true for version ${version}`;
  }
  out.trace({ t: 'no-match', side: 0, row: probe, reason: miss });
  if (j.plan.joinType === 'left') {
    out.emit(pKind, joinRow(j, pRow, undefined), { rule: 'temporal.pad', text: `left ${probe} is null-padded: ${miss}`, rows });
  }
}

/** emitProbe without any text (bulk runs): the same rows and rules. `v`: the version index or -1. */
function emitProbeBulk(j: JoinRows, ks: TemporalKeyState, v: number, kind: RowKind, row: Row, procTime: number, out: Collector): void {
  if (out.emitPair !== undefined && j.residual === undefined) {
    // No condition to evaluate: the sink may keep the two rows without a joined copy.
    const matched = v >= 0 && isAccumulate(versionKind(ks, v));
    if (matched) out.emitPair(kind, row, versionRow(ks, v), bulkWhy('temporal.version'));
    else if (j.plan.joinType === 'left') out.emitPair(kind, row, undefined, bulkWhy('temporal.pad'));
    return;
  }
  if (v >= 0 && isAccumulate(versionKind(ks, v))) {
    const joined = joinRow(j, row, versionRow(ks, v));
    if (conditionHolds(j, joined, procTime)) {
      out.emit(kind, joined, bulkWhy('temporal.version'));
      return;
    }
  }
  if (j.plan.joinType === 'left') out.emit(kind, joinRow(j, row, undefined), bulkWhy('temporal.pad'));
}
