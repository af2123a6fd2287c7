/**
 * Flink's event-time temporal join (`FOR SYSTEM_TIME AS OF left.rowtime`):
 * TemporalRowTimeJoinOperator with BaseTwoInputStreamOperatorWithStateRetention, inner and left.
 *
 * Per join key: the buffered probe (left) rows in arrival order, the build (right) versions by
 * build time, one event-time timer at the smallest time seen, and (with table.exec.state.ttl) one
 * processing-time retention timer.
 *
 * Probe row l (any kind) at time t: up to Flink 2.3 it is buffered even when t <= watermark (it
 *   then goes out at the next watermark advance); from 2.4 (FLINK-39719) such a row is dropped
 *   with no output, not even a null-padded one. Then the key's timer moves down to t if smaller.
 * Build row r (any kind, never dropped as late) at time t: stored as the version for t,
 *   overwriting a version with the same time; the timer moves down to t if smaller.
 * Timer fires (watermark W passed it): the probe rows with time <= W go out in ARRIVAL order.
 *   Each uses the version with the largest time <= its own; if that version is +I/+U and the
 *   non-equi condition holds, emit [l, r], else (no version, a -U/-D version, or a false
 *   condition) emit [l, nulls] for LEFT and nothing for INNER. The output kind is l's kind, and
 *   later build-side changes never revise an emitted row. Then versions older than the last one
 *   <= W are deleted, and the timer is re-armed at the earliest probe row still buffered.
 * Retention (min = ttl, max = 1.5 ttl, on if ttl > 1 ms): every row (re)arms a cleanup timer at
 *   now + max when now + min passes the current one; when it fires the key's state is cleared.
 * The output watermark is the combined input watermark: the operator adds no delay.
 */
import type { Plan, Side } from '../../planner/plan.js';
import { isAccumulate, type Row, type RowKind } from '../../values/types.js';
import type { Collector, JoinOperator, OpTime } from '../types.js';
import { bulkWhy, wantsText } from '../why.js';
import { conditionHolds, joinRow, keyOf, makeJoinRows, printKey, printRow, printRowOf, printTime, rowTime, type JoinRows } from './interval-join-rows.js';
import { fireDue, nextTimerTime, type Timer } from './interval-join-timers.js';
import { describeTemporalSide } from './temporal-join-describe.js';
import {
  cleanVersions,
  dropCleanup,
  EMPTY_TEMPORAL_STATE,
  getTKey,
  putTKey,
  putVersion,
  registerCleanup,
  registerSmallestTimer,
  retentionOf,
  versionAt,
  type KeyAndTimers,
  type ProbeRow,
  type Retention,
  type TemporalState,
  type Version,
} from './temporal-join-state.js';
import { pmGet } from '../collections/pmap.js';

export function createTemporalJoin(plan: Plan): JoinOperator<TemporalState> {
  const j = makeJoinRows(plan);
  const retention = retentionOf(plan.inputs[0].stateTtlMs);
  const dropLate = plan.flinkVersion === '2.4';
  return {
    init: () => EMPTY_TEMPORAL_STATE,
    processElement(state, side, kind, row, time, out) {
      const t = rowTime(j, side, row);
      if (t === undefined) {
        out.trace({ t: 'filter.drop', side, row: printRow(j, side, kind, row), reason: 'its time attribute is null' });
        return state;
      }
      if (side === 0 && dropLate && t <= time.watermark) {
        const reason = `its time ${printTime(j, t)} <= the watermark ${printTime(j, time.watermark)}: Flink 2.4 drops late probe rows (FLINK-39719), no output at all`;
        out.trace({ t: 'drop.late', side, row: printRow(j, side, kind, row), reason });
        return state;
      }
      return store(j, state, side, kind, row, t, time, out, retention);
    },
    onWatermark(state, time, out) {
      const fire = (s: TemporalState, timer: Timer) => onEventTimer(j, s, timer, time, out, retention);
      return fireDue(state, (s) => s.eventTimers, (s, q) => ({ ...s, eventTimers: q }), time.watermark, fire);
    },
    onProcessingTime(state, time, out) {
      const fire = (s: TemporalState, timer: Timer) => onCleanupTimer(j, s, timer, out, retention);
      return fireDue(state, (s) => s.procTimers, (s, q) => ({ ...s, procTimers: q }), time.procTime, fire);
    },
    nextProcessingTimer: (state) => nextTimerTime(state.procTimers),
    outputWatermarkDelay: 0,
    describe: (state, side, time) => describeTemporalSide(j, state, side, time),
  };
}

function store(j: JoinRows, state: TemporalState, side: Side, kind: RowKind, row: Row, t: number, time: OpTime, out: Collector, r: Retention): TemporalState {
  const key = keyOf(j, side, row);
  const ks = pmGet(state.keys, key) ?? getTKey(state, key, printKey(j, side, row));
  const printedKey = ks.printedKey;
  const tracing = wantsText(out);
  const printed = tracing ? printRow(j, side, kind, row) : '';
  let x: KeyAndTimers;
  if (side === 0) {
    const seq = ks.nextSeq ?? 0;
    const probe: ProbeRow = { seq, time: t, kind, row };
    x = { ks: { ...ks, probes: [...ks.probes, probe], nextSeq: seq + 1 }, s: state };
    if (tracing) traceProbe(j, t, time, out, printedKey, printed);
  } else {
    const replaced = tracing ? ks.versions.find((v) => v.time === t) : undefined;
    x = { ks: { ...ks, versions: putVersion(ks.versions, { time: t, kind, row }) }, s: state };
    if (!tracing) {
      // no text in bulk runs
    } else if (replaced === undefined) out.trace({ t: 'state.add', side, key: printedKey, row: printed, detail: `version from ${printTime(j, t)}` });
    else out.trace({ t: 'state.update', side, key: printedKey, row: printed, detail: `overwrites the version for ${printTime(j, t)}: ${printRow(j, 1, replaced.kind, replaced.row)}` });
  }
  const before = x.ks.timer;
  x = registerSmallestTimer(x, key, t);
  if (tracing && x.ks.timer !== before) out.trace({ t: 'timer.register', domain: 'event', time: t, key: printedKey, purpose: side === 0 ? 'emit probe rows' : 'clean versions' });
  x = registerCleanup(x, key, time.procTime, r);
  return putTKey(x.s, key, x.ks);
}

function traceProbe(j: JoinRows, t: number, time: OpTime, out: Collector, printedKey: string, printed: string): void {
  const late = t <= time.watermark ? ` (late: it goes out at the next watermark advance, as Flink ${j.plan.flinkVersion} keeps late probe rows)` : '';
  out.trace({ t: 'state.add', side: 0, key: printedKey, row: printed, detail: `buffered until the watermark reaches ${printTime(j, t)}${late}` });
}

function onEventTimer(j: JoinRows, state: TemporalState, timer: Timer, time: OpTime, out: Collector, r: Retention): TemporalState {
  const found = pmGet(state.keys, timer.key);
  if (found === undefined) return state;
  const wm = time.watermark;
  const tracing = wantsText(out);
  if (tracing) out.trace({ t: 'timer.fire', domain: 'event', time: timer.time, key: found.printedKey, purpose: 'emit probe rows <= watermark, clean versions' });
  const { timer: _cleared, ...ks } = found;
  const released = ks.probes.filter((p) => p.time <= wm);
  const waiting = ks.probes.filter((p) => p.time > wm);
  for (const p of released) emitProbe(j, ks.versions, p, found.printedKey, time.procTime, out);
  const { kept, removed } = cleanVersions(ks.versions, wm);
  for (const v of removed) {
    // state.expire is always traced (it sets STEP_EXPIRE); its text only when kept.
    if (!tracing) {
      out.trace({ t: 'state.expire', side: 1, key: '', row: '', reason: '' });
      continue;
    }
    const reason = `a newer version is valid at the watermark ${printTime(j, wm)}`;
    out.trace({ t: 'state.expire', side: 1, key: found.printedKey, row: printRow(j, 1, v.kind, v.row), reason });
  }
  let x: KeyAndTimers = { ks: { ...ks, probes: waiting, versions: kept }, s: state };
  const earliest = waiting.reduce((m, p) => Math.min(m, p.time), Number.POSITIVE_INFINITY);
  if (waiting.length > 0) x = registerSmallestTimer(x, timer.key, earliest);
  if (r.enabled) {
    if (waiting.length > 0 || kept.length > 0) x = registerCleanup(x, timer.key, time.procTime, r);
    else {
      x = dropCleanup(x, timer.key);
      const { nextSeq: _reset, ...rest } = x.ks;
      x = { ...x, ks: rest };
    }
  }
  return putTKey(x.s, timer.key, x.ks);
}

function emitProbe(j: JoinRows, versions: readonly Version[], p: ProbeRow, key: string, procTime: number, out: Collector): void {
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

function onCleanupTimer(j: JoinRows, state: TemporalState, timer: Timer, out: Collector, r: Retention): TemporalState {
  const ks = pmGet(state.keys, timer.key);
  if (!r.enabled || ks === undefined || ks.cleanupAt !== timer.time) return state;
  out.trace({ t: 'timer.fire', domain: 'proc', time: timer.time, key: ks.printedKey, purpose: 'state retention (table.exec.state.ttl)' });
  const reason = `state retention: table.exec.state.ttl = ${r.minMs} ms, the key's cleanup timer (last armed at now + ${r.maxMs} ms) fired`;
  for (const p of ks.probes) out.trace({ t: 'state.expire', side: 0, key: ks.printedKey, row: printRow(j, 0, p.kind, p.row), reason });
  for (const v of ks.versions) out.trace({ t: 'state.expire', side: 1, key: ks.printedKey, row: printRow(j, 1, v.kind, v.row), reason });
  // Flink clears the state and the timer value but leaves the event-time timer registered.
  return putTKey(state, timer.key, { printedKey: ks.printedKey, probes: [], versions: [] });
}
