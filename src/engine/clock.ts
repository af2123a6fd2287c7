/**
 * The processing-time clock: moved only by `at` and `advance`. Before an event runs, every
 * processing-time timer at or below the new time fires, earliest first, with the clock set to the
 * timer's time: the operator's timers (state TTL, cache expiry, proc-time interval bounds) and the
 * source idle timeouts. On a tie the operator's timer fires first (an arbitrary, fixed order).
 */
import type { ScenarioEvent } from '../scenario/types.js';
import { partitionName, setPartitionIdle } from './sources.js';
import type { Work } from './work.js';

/** Guards against an operator whose next timer never moves past the one it just fired. */
const MAX_TIMERS_PER_STEP = 10_000_000;

export function targetTime(now: number, event: ScenarioEvent): number {
  let t = event.at !== undefined && event.at > now ? event.at : now;
  if (event.kind === 'advance') t += event.ms;
  return t;
}

interface IdleTimer {
  readonly time: number;
  readonly table: number;
  readonly partition: number;
}

function nextIdleTimer(w: Work): IdleTimer | undefined {
  if (w.ctx.config.idleTimeoutMs <= 0) return undefined;
  let best: IdleTimer | undefined;
  for (const t of w.ctx.tables) {
    if (t.watermark === undefined) continue;
    const st = w.table(t.index);
    for (let p = 0; p < t.partitions; p++) {
      const at = st.idleAt[p];
      if (at === null || at === undefined || st.valve.channels[p]?.idle !== false) continue;
      if (best === undefined || at < best.time) best = { time: at, table: t.index, partition: p };
    }
  }
  return best;
}

/**
 * `clockSet`: the event sets the clock (`at`, or `advance`). Only then do idle timeouts already
 * past fire: a partition a watermark re-activated long after its last row stays active until the
 * clock is next set (Flink checks idleness as time passes, not per record; the harness applies
 * the timeout when it moves the clock).
 */
export function advanceClock(w: Work, target: number, clockSet = true): void {
  if (target > w.procTime && w.tracing) w.trace({ t: 'clock.advance', from: w.procTime, to: target });
  const op = w.ctx.op;
  for (let n = 0; ; n++) {
    if (n > MAX_TIMERS_PER_STEP) throw new Error('[engine] processing-time timers do not advance');
    const opTimer = op.nextProcessingTimer(w.op);
    const idle = nextIdleTimer(w);
    const useOp = opTimer !== undefined && opTimer <= target && (idle === undefined || opTimer <= idle.time);
    if (useOp) {
      w.setProcTime(Math.max(w.procTime, opTimer));
      w.op = op.onProcessingTime(w.op, w.opTime(), w);
      continue;
    }
    if (idle !== undefined && idle.time <= target && (clockSet || idle.time > w.procTime)) {
      w.setProcTime(Math.max(w.procTime, idle.time));
      const t = w.ctx.tables[idle.table]!;
      const ms = w.ctx.config.idleTimeoutMs;
      setPartitionIdle(w, t, idle.partition, true, `no row on ${partitionName(t, idle.partition)} for ${ms} ms (table.exec.source.idle-timeout)`);
      continue;
    }
    break;
  }
  w.setProcTime(target);
}

