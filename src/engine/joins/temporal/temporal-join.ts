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
 * A null time counts as 0 (the epoch), both sides: Flink reads the long slot of the null field.
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
import type { Plan, Side } from '../../../planner/plan.js';
import { isAccumulate, type Row, type RowKind } from '../../../values/types.js';
import { STEP_EXPIRE, STEP_LATE_DROP, type Collector, type JoinOperator, type OpTime, type StateEntryView, type StateView } from '../../types.js';
import { bulkWhy } from '../../why.js';
import {
  cleanupAtOf,
  EMPTY_TEMPORAL_STATE,
  expiredVersions,
  nextSeqOf,
  printedKeyOf,
  probeCount,
  probeKind,
  probeRow,
  probeTime,
  TemporalStateView,
  timerOf,
  versionAt,
  versionCount,
  versionIndexOf,
  versionKind,
  versionRow,
  versionTime,
  type TemporalKeyState,
  type TemporalState,
} from '../../state/temporal-state.js';
import { keyStatesOf } from '../../state/keyed-state-view.js';
import { joinKey } from '../../keys.js';
import { nextTimerTime } from '../../state/timer-service.js';
import { conditionHolds, joinRow, makeJoinRows, printKey, printRow, printRowOf, printTime, rowTime, type JoinRows } from '../join-rows.js';
import { groupedStateView } from '../../describe.js';

/** State retention from table.exec.state.ttl: min = ttl, max = ttl * 3 / 2, on only if min > 1 ms. */
interface Retention {
  readonly enabled: boolean;
  readonly minMs: number;
  readonly maxMs: number;
}

function retentionOf(ttlMs: number): Retention {
  return { enabled: ttlMs > 1, minMs: ttlMs, maxMs: Math.floor((ttlMs * 3) / 2) };
}

/** What does not change while the operator runs, and its state view (reopened by every call). */
interface Temporal {
  readonly j: JoinRows;
  readonly r: Retention;
  readonly s: TemporalStateView;
}

export function createTemporalJoin(plan: Plan): JoinOperator<TemporalState> {
  const op: Temporal = { j: makeJoinRows(plan), r: retentionOf(plan.inputs[0].stateTtlMs), s: new TemporalStateView() };
  const j = op.j;
  const dropLate = plan.flinkVersion === '2.4';
  return {
    init: () => EMPTY_TEMPORAL_STATE,
    processElement(state, side, kind, row, time, out) {
      // The operator reads the time attribute as a long from the serialized row, where a null
      // field's slot holds 0: a row with a null time (an upsert-kafka tombstone carries only its
      // key) is stored, and arms its key's timer, at the epoch.
      const t = rowTime(j, side, row) ?? 0;
      // 2.4 (FLINK-39719): a probe row at or below the watermark is dropped, with no output
      if (side === 0 && dropLate && t <= time.watermark) {
        out.flag(STEP_LATE_DROP);
        if (out.tracing) {
          const reason = `its time ${printTime(j, t)} <= the watermark ${printTime(j, time.watermark)}: Flink 2.4 drops late probe rows (FLINK-39719), no output at all`;
          out.trace({ t: 'drop.late', side, row: printRow(j, side, kind, row), reason });
        }
        return state;
      }
      return store(op, state, side, kind, row, t, time, out);
    },
    // Timers that firing registers at or below the new time fire in the same pass, as in Flink's advanceWatermark loop.
    onWatermark(state, time, out) {
      const s = op.s.open(state);
      for (let key = s.popTimer('event', time.watermark); key !== undefined; key = s.popTimer('event', time.watermark)) onEventTimer(op, key, s.firedAt, time, out);
      return s.close();
    },
    onProcessingTime(state, time, out) {
      const s = op.s.open(state);
      for (let key = s.popTimer('proc', time.procTime); key !== undefined; key = s.popTimer('proc', time.procTime)) onCleanupTimer(op, key, s.firedAt, out);
      return s.close();
    },
    nextProcessingTimer: (state) => nextTimerTime(state.procTimers),
    outputWatermarkDelay: 0,
    describe: (state, side, time) => describeTemporalSide(j, state, side, time),
  };
}

/** A probe row is buffered, a build row stored as the version for its time; then the key's timers. Returns the next state. */
function store(op: Temporal, state: TemporalState, side: Side, kind: RowKind, row: Row, t: number, time: OpTime, out: Collector): TemporalState {
  const { j, s } = op;
  s.open(state);
  const key = joinKey(row, j.keyIdx[side]);
  // The key's state, held here for the element and stored back at the end.
  const stored = s.takeKey(key);
  let ks = stored ?? s.startKey(printKey(j, side, row));
  const printedKey = printedKeyOf(ks);
  const printed = out.tracing ? printRow(j, side, kind, row) : '';
  if (side === 0) {
    const seq = nextSeqOf(ks) ?? 0;
    ks = s.setNextSeq(s.addProbe(ks, seq, t, kind, row), seq + 1);
    if (out.tracing) traceProbe(j, t, time, out, printedKey, printed);
  } else {
    if (out.tracing) {
      const replaced = versionIndexOf(ks, t);
      const detail = replaced < 0 ? `version from ${printTime(j, t)}` : `overwrites the version for ${printTime(j, t)}: ${printRow(j, 1, versionKind(ks, replaced), versionRow(ks, replaced))}`;
      out.trace({ t: replaced < 0 ? 'state.add' : 'state.update', side, key: printedKey, row: printed, detail });
    }
    ks = s.putVersion(ks, t, kind, row);
  }
  const before = timerOf(ks);
  ks = registerSmallestTimer(s, ks, key, t);
  if (out.tracing && timerOf(ks) !== before) out.trace({ t: 'timer.register', domain: 'event', time: t, key: printedKey, purpose: side === 0 ? 'emit probe rows' : 'clean versions' });
  ks = registerCleanup(op, ks, key, time.procTime);
  s.storeKey(key, stored, ks);
  return s.close();
}

function traceProbe(j: JoinRows, t: number, time: OpTime, out: Collector, printedKey: string, printed: string): void {
  const late = t <= time.watermark ? ` (late: it goes out at the next watermark advance, as Flink ${j.plan.flinkVersion} keeps late probe rows)` : '';
  out.trace({ t: 'state.add', side: 0, key: printedKey, row: printed, detail: `buffered until the watermark reaches ${printTime(j, t)}${late}` });
}

/** Flink's registerSmallestTimer: keep one event-time timer per key, at the smallest time seen. Returns the key's next state. */
function registerSmallestTimer(s: TemporalStateView, ks: TemporalKeyState, key: string, time: number): TemporalKeyState {
  const cur = timerOf(ks);
  if (cur !== undefined && cur <= time) return ks;
  if (cur !== undefined) s.deleteTimer('event', key, cur);
  s.registerTimer('event', key, time);
  return s.setTimer(ks, time);
}

/**
 * Flink's registerProcessingCleanupTimer: the timer sits at now + max retention and is moved only
 * when now + min retention passes it, so a busy key is not re-armed on every row. Returns the
 * key's next state.
 */
function registerCleanup(op: Temporal, ks: TemporalKeyState, key: string, now: number): TemporalKeyState {
  const { r, s } = op;
  if (!r.enabled) return ks;
  const cur = cleanupAtOf(ks);
  if (cur !== undefined && now + r.minMs <= cur) return ks;
  if (cur !== undefined) s.deleteTimer('proc', key, cur);
  const at = now + r.maxMs;
  s.registerTimer('proc', key, at);
  return s.setCleanupAt(ks, at);
}

/** Flink's cleanupLastTimer: drop the pending retention timer. Returns the key's next state. */
function dropCleanup(s: TemporalStateView, ks: TemporalKeyState, key: string): TemporalKeyState {
  const cur = cleanupAtOf(ks);
  if (cur === undefined) return ks;
  s.deleteTimer('proc', key, cur);
  return s.setCleanupAt(ks, undefined);
}

/** The key's event-time timer at `at` fired (watermark `time.watermark` passed it). */
function onEventTimer(op: Temporal, key: string, at: number, time: OpTime, out: Collector): void {
  const { j, r, s } = op;
  // The key's state, held here for the timer and stored back at the end.
  const ks = s.takeKey(key);
  if (ks === undefined) return;
  const wm = time.watermark;
  const printedKey = printedKeyOf(ks);
  if (out.tracing) out.trace({ t: 'timer.fire', domain: 'event', time: at, key: printedKey, purpose: 'emit probe rows <= watermark, clean versions' });
  // Release the probe rows <= the watermark in arrival order; the others wait.
  let earliest = Number.POSITIVE_INFINITY;
  const n = probeCount(ks);
  for (let i = 0; i < n; i++) {
    const pt = probeTime(ks, i);
    if (pt <= wm) emitProbe(j, ks, i, printedKey, time.procTime, out);
    else if (pt < earliest) earliest = pt;
  }
  // Versions older than the last one <= the watermark are deleted.
  const gone = expiredVersions(ks, wm);
  for (let i = 0; i < gone; i++) {
    out.flag(STEP_EXPIRE);
    if (!out.tracing) continue;
    const reason = `a newer version is valid at the watermark ${printTime(j, wm)}`;
    out.trace({ t: 'state.expire', side: 1, key: printedKey, row: printRow(j, 1, versionKind(ks, i), versionRow(ks, i)), reason });
  }
  let next = s.setTimer(s.release(ks, wm, gone), undefined);
  // The timer is re-armed at the earliest probe row still buffered.
  const waiting = probeCount(next) > 0;
  if (waiting) next = registerSmallestTimer(s, next, key, earliest);
  if (r.enabled) {
    if (waiting || versionCount(next) > 0) next = registerCleanup(op, next, key, time.procTime);
    else next = s.setNextSeq(dropCleanup(s, next, key), undefined);
  }
  s.storeKey(key, ks, next);
}

/** The key's retention timer at `at` fired: its state is cleared. */
function onCleanupTimer(op: Temporal, key: string, at: number, out: Collector): void {
  const { j, r, s } = op;
  if (!r.enabled) return;
  const ks = s.takeKey(key);
  if (ks === undefined || cleanupAtOf(ks) !== at) return;
  const printedKey = printedKeyOf(ks);
  out.trace({ t: 'timer.fire', domain: 'proc', time: at, key: printedKey, purpose: 'state retention (table.exec.state.ttl)' });
  const reason = `state retention: table.exec.state.ttl = ${r.minMs} ms, the key's cleanup timer (last armed at now + ${r.maxMs} ms) fired`;
  for (let i = 0; i < probeCount(ks); i++) {
    out.flag(STEP_EXPIRE);
    out.trace({ t: 'state.expire', side: 0, key: printedKey, row: printRow(j, 0, probeKind(ks, i), probeRow(ks, i)), reason });
  }
  for (let i = 0; i < versionCount(ks); i++) {
    out.flag(STEP_EXPIRE);
    out.trace({ t: 'state.expire', side: 1, key: printedKey, row: printRow(j, 1, versionKind(ks, i), versionRow(ks, i)), reason });
  }
  // Flink clears the state and the timer value but leaves the event-time timer registered.
  s.storeKey(key, ks, s.clearKey(ks));
}

/**
 * Probe row i of the current key goes out (key: the printed key, for reasons): it takes the
 * version valid at its time; a +I/+U version whose condition holds joins, anything else pads the
 * row for LEFT and drops it for INNER. The output kind is the probe row's kind.
 */
function emitProbe(j: JoinRows, ks: TemporalKeyState, i: number, key: string, procTime: number, out: Collector): void {
  const pKind = probeKind(ks, i);
  const pRow = probeRow(ks, i);
  const pTime = probeTime(ks, i);
  const v = versionAt(ks, pTime);
  if (!out.tracing) {
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

/** The text-free reasons of a bulk run, one shared object per rule. */
const MATCHED = bulkWhy('temporal.version');
const PADDED = bulkWhy('temporal.pad');

/** emitProbe without any text (bulk runs): the same rows and rules. `v`: the version index or -1. */
function emitProbeBulk(j: JoinRows, ks: TemporalKeyState, v: number, kind: RowKind, row: Row, procTime: number, out: Collector): void {
  if (out.emitPair !== undefined && j.residual === undefined) {
    // No condition to evaluate: the sink may keep the two rows without a joined copy.
    const matched = v >= 0 && isAccumulate(versionKind(ks, v));
    if (matched) out.emitPair(kind, row, versionRow(ks, v), MATCHED);
    else if (j.plan.joinType === 'left') out.emitPair(kind, row, undefined, PADDED);
    return;
  }
  if (v >= 0 && isAccumulate(versionKind(ks, v))) {
    const joined = joinRow(j, row, versionRow(ks, v));
    if (conditionHolds(j, joined, procTime)) {
      out.emit(kind, joined, MATCHED);
      return;
    }
  }
  if (j.plan.joinType === 'left') out.emit(kind, joinRow(j, row, undefined), PADDED);
}

/** The state pane: side 0 shows the buffered probe rows, side 1 the versions per key, with the version a probe row at the current watermark would use marked 'in use'. */
function describeTemporalSide(j: JoinRows, state: TemporalState, side: Side, time: OpTime): StateView {
  const count = (ks: TemporalKeyState): number => (side === 0 ? probeCount(ks) : versionCount(ks));
  // Keys without rows on this side show nothing: left out before the sort.
  const keys = keyStatesOf(state.keys)
    .filter((ks) => count(ks) > 0)
    .sort((a, b) => (printedKeyOf(a) < printedKeyOf(b) ? -1 : printedKeyOf(a) > printedKeyOf(b) ? 1 : 0));
  const layout =
    side === 0
      ? 'per join key · buffered probe rows in arrival order, released when the watermark passes their time'
      : 'per join key · versions by build time (latest <= probe time is used; older than the last one <= watermark are cleaned)';
  return groupedStateView(layout, keys, count, (ks, i) => (side === 0 ? probeEntry(j, ks, i, time) : versionEntry(j, ks, i, time)));
}

function retention(ks: TemporalKeyState): Pick<StateEntryView, 'expiresAt' | 'expiryDomain'> {
  const at = cleanupAtOf(ks);
  return at === undefined ? {} : { expiresAt: at, expiryDomain: 'proc' };
}

function probeEntry(j: JoinRows, ks: TemporalKeyState, i: number, time: OpTime): StateEntryView {
  const t = probeTime(ks, i);
  return {
    key: printedKeyOf(ks),
    row: printRow(j, 0, probeKind(ks, i), probeRow(ks, i)),
    tags: [`t=${printTime(j, t)}`, t <= time.watermark ? 'late: goes out at the next watermark advance' : `waits for watermark >= ${printTime(j, t)}`],
    ...retention(ks),
  };
}

function versionEntry(j: JoinRows, ks: TemporalKeyState, v: number, time: OpTime): StateEntryView {
  const inUse = versionAt(ks, time.watermark);
  const vt = versionTime(ks, v);
  const tags = [`version from ${printTime(j, vt)}`];
  if (!isAccumulate(versionKind(ks, v))) tags.push('delete: no row from then on');
  if (v === inUse) tags.push('in use at the watermark');
  else if (vt > time.watermark) tags.push('newer than the watermark');
  let waiting = 0;
  for (let p = 0; p < probeCount(ks); p++) if (versionAt(ks, probeTime(ks, p)) === v) waiting++;
  if (waiting > 0) tags.push(`picked by ${waiting} buffered probe row${waiting > 1 ? 's' : ''} (so far)`);
  return { key: printedKeyOf(ks), row: printRow(j, 1, versionKind(ks, v), versionRow(ks, v)), tags, ...retention(ks) };
}
