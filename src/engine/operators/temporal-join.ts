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
import type { Row, RowKind } from '../../values/types.js';
import type { Collector, JoinOperator, OpTime } from '../types.js';
import { wantsText } from '../why.js';
import { keyOf, makeJoinRows, printKey, printRow, printTime, rowTime, type JoinRows } from './interval-join-rows.js';
import { dropFirstTimer, firstTimerKey, nextTimerTime } from './interval-join-timers.js';
import { describeTemporalSide } from './temporal-join-describe.js';
import { emitProbe } from './temporal-join-emit.js';
import {
  dropCleanup,
  EMPTY_TEMPORAL_STATE,
  putTKey,
  registerCleanup,
  registerSmallestTimer,
  retentionOf,
  withEventTimers,
  withProcTimers,
  type Retention,
  type TemporalState,
} from './temporal-join-state.js';
import {
  cleanupAtOf,
  expiredVersions,
  newTKey,
  nextSeqOf,
  printedKeyOf,
  probeCount,
  probeKind,
  probeRow,
  probeTime,
  setNextSeq,
  setTimer,
  timerOf,
  versionCount,
  versionIndexOf,
  versionKind,
  versionRow,
  withProbe,
  withReleased,
  withVersion,
  type WritableTKey,
} from './temporal-key-state.js';
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
    // Fire every due timer in order; timers that firing registers at or below the new time fire
    // in the same pass, as in Flink's advanceWatermark loop. (A loop rather than fireDue: no
    // closure or timer object per call, this runs on every watermark advance.)
    onWatermark(state, time, out) {
      let s = state;
      for (;;) {
        const at = nextTimerTime(s.eventTimers);
        const key = firstTimerKey(s.eventTimers);
        if (at === undefined || key === undefined || at > time.watermark) return s;
        s = onEventTimer(j, withEventTimers(s, dropFirstTimer(s.eventTimers)), key, at, time, out, retention);
      }
    },
    onProcessingTime(state, time, out) {
      let s = state;
      for (;;) {
        const at = nextTimerTime(s.procTimers);
        const key = firstTimerKey(s.procTimers);
        if (at === undefined || key === undefined || at > time.procTime) return s;
        s = onCleanupTimer(j, withProcTimers(s, dropFirstTimer(s.procTimers)), key, at, out, retention);
      }
    },
    nextProcessingTimer: (state) => nextTimerTime(state.procTimers),
    outputWatermarkDelay: 0,
    describe: (state, side, time) => describeTemporalSide(j, state, side, time),
  };
}

function store(j: JoinRows, state: TemporalState, side: Side, kind: RowKind, row: Row, t: number, time: OpTime, out: Collector, r: Retention): TemporalState {
  const key = keyOf(j, side, row);
  const found = pmGet(state.keys, key);
  const ks = found ?? newTKey(printKey(j, side, row));
  const printedKey = printedKeyOf(ks);
  const tracing = wantsText(out);
  const printed = tracing ? printRow(j, side, kind, row) : '';
  let w: WritableTKey;
  if (side === 0) {
    const seq = nextSeqOf(ks) ?? 0;
    w = withProbe(ks, seq, t, kind, row);
    setNextSeq(w, seq + 1);
    if (tracing) traceProbe(j, t, time, out, printedKey, printed);
  } else {
    const replaced = tracing ? versionIndexOf(ks, t) : -1;
    if (tracing) {
      const detail = replaced < 0 ? `version from ${printTime(j, t)}` : `overwrites the version for ${printTime(j, t)}: ${printRow(j, 1, versionKind(ks, replaced), versionRow(ks, replaced))}`;
      out.trace({ t: replaced < 0 ? 'state.add' : 'state.update', side, key: printedKey, row: printed, detail });
    }
    w = withVersion(ks, t, kind, row);
  }
  const before = timerOf(w);
  let s = registerSmallestTimer(state, w, key, t);
  if (tracing && timerOf(w) !== before) out.trace({ t: 'timer.register', domain: 'event', time: t, key: printedKey, purpose: side === 0 ? 'emit probe rows' : 'clean versions' });
  s = registerCleanup(s, w, key, time.procTime, r);
  return putTKey(s, key, w, found);
}

function traceProbe(j: JoinRows, t: number, time: OpTime, out: Collector, printedKey: string, printed: string): void {
  const late = t <= time.watermark ? ` (late: it goes out at the next watermark advance, as Flink ${j.plan.flinkVersion} keeps late probe rows)` : '';
  out.trace({ t: 'state.add', side: 0, key: printedKey, row: printed, detail: `buffered until the watermark reaches ${printTime(j, t)}${late}` });
}

function onEventTimer(j: JoinRows, state: TemporalState, key: string, at: number, time: OpTime, out: Collector, r: Retention): TemporalState {
  const ks = pmGet(state.keys, key);
  if (ks === undefined) return state;
  const wm = time.watermark;
  const tracing = wantsText(out);
  const printedKey = printedKeyOf(ks);
  if (tracing) out.trace({ t: 'timer.fire', domain: 'event', time: at, key: printedKey, purpose: 'emit probe rows <= watermark, clean versions' });
  // Release the probe rows <= the watermark in arrival order; the others wait.
  let earliest = Number.POSITIVE_INFINITY;
  const n = probeCount(ks);
  for (let i = 0; i < n; i++) {
    const pt = probeTime(ks, i);
    if (pt <= wm) emitProbe(j, ks, i, printedKey, time.procTime, out);
    else if (pt < earliest) earliest = pt;
  }
  const gone = expiredVersions(ks, wm);
  for (let i = 0; i < gone; i++) {
    // state.expire is always traced (it sets STEP_EXPIRE); its text only when kept.
    if (!tracing) {
      out.trace(EXPIRE_NO_TEXT);
      continue;
    }
    const reason = `a newer version is valid at the watermark ${printTime(j, wm)}`;
    out.trace({ t: 'state.expire', side: 1, key: printedKey, row: printRow(j, 1, versionKind(ks, i), versionRow(ks, i)), reason });
  }
  const w = withReleased(ks, wm, gone);
  setTimer(w, undefined);
  let s = state;
  const waiting = probeCount(w) > 0;
  if (waiting) s = registerSmallestTimer(s, w, key, earliest);
  if (r.enabled) {
    if (waiting || versionCount(w) > 0) s = registerCleanup(s, w, key, time.procTime, r);
    else {
      s = dropCleanup(s, w, key);
      setNextSeq(w, undefined);
    }
  }
  return putTKey(s, key, w, ks);
}

const EXPIRE_NO_TEXT = Object.freeze({ t: 'state.expire', side: 1, key: '', row: '', reason: '' } as const);

function onCleanupTimer(j: JoinRows, state: TemporalState, key: string, at: number, out: Collector, r: Retention): TemporalState {
  const ks = pmGet(state.keys, key);
  if (!r.enabled || ks === undefined || cleanupAtOf(ks) !== at) return state;
  const printedKey = printedKeyOf(ks);
  out.trace({ t: 'timer.fire', domain: 'proc', time: at, key: printedKey, purpose: 'state retention (table.exec.state.ttl)' });
  const reason = `state retention: table.exec.state.ttl = ${r.minMs} ms, the key's cleanup timer (last armed at now + ${r.maxMs} ms) fired`;
  for (let i = 0; i < probeCount(ks); i++) out.trace({ t: 'state.expire', side: 0, key: printedKey, row: printRow(j, 0, probeKind(ks, i), probeRow(ks, i)), reason });
  for (let i = 0; i < versionCount(ks); i++) out.trace({ t: 'state.expire', side: 1, key: printedKey, row: printRow(j, 1, versionKind(ks, i), versionRow(ks, i)), reason });
  // Flink clears the state and the timer value but leaves the event-time timer registered.
  return putTKey(state, key, newTKey(printedKey));
}
