/**
 * Why a row came out, and why nothing did: derived only from the step's trace and the watermark
 * view, so the explanation can never disagree with what the engine did.
 */
import type { StepRecord, TraceEvent, WatermarkView } from '../engine/types.js';
import type { SessionInfo } from './session.js';
import { clock } from './text.js';
import { printable } from '../values/printable.js';

export type ReasonKind = 'waiting' | 'dropped' | 'expired' | 'filtered' | 'no match' | 'ignored' | 'stored' | 'info';

export interface Reason {
  readonly kind: ReasonKind;
  readonly text: string;
}

/** Reasons in trace order; a step that emitted nothing is explained by these. */
export function whyNot(record: StepRecord, wm: WatermarkView, info: SessionInfo, procTime: number): Reason[] {
  const c = (ms: number): string => clock(ms, info);
  const e = printable;
  const arrived = record.trace.find((t): t is Extract<TraceEvent, { t: 'row.in' }> => t.t === 'row.in');
  const out: Reason[] = [];
  for (const ev of record.trace) {
    const r = reason(ev);
    if (r !== undefined) out.push(r);
  }
  // A row that only went into state waits: for time (temporal / interval joins fire on the
  // watermark) or for a match on the other side (the other joins).
  if (!out.some((r) => r.kind !== 'stored' && r.kind !== 'info') && out.some((r) => r.kind === 'stored')) {
    const held = wm.heldBy === undefined ? '' : `, held back by ${e(wm.heldBy)}`;
    out.push(
      info.family === 'temporal' || info.family === 'interval'
        ? { kind: 'waiting', text: `the join watermark is ${c(wm.join)}${held}` }
        : { kind: 'waiting', text: 'no match on the other side yet; it is kept until one arrives' },
    );
  }
  return out;

  function reason(ev: TraceEvent): Reason | undefined {
    switch (ev.t) {
      case 'drop.late':
        return { kind: 'dropped', text: `${e(ev.row)} is late: ${e(ev.reason)}` };
      case 'filter.drop':
        return { kind: 'filtered', text: `${e(ev.row)}: ${e(ev.reason)}` };
      case 'state.expire':
        return { kind: 'expired', text: `${e(ev.row)} (key ${e(ev.key)}): ${e(ev.reason)}` };
      case 'no-match':
        return { kind: 'no match', text: `${e(ev.row)}: ${e(ev.reason)}` };
      case 'watermark.ignored':
        return { kind: 'ignored', text: `watermark ${c(ev.value)} of ${e(ev.table)} partition ${ev.partition}: ${e(ev.reason)}` };
      case 'timer.register':
        if (ev.domain === 'event') {
          const what = arrived === undefined ? '' : `${e(arrived.table)} `;
          const held = wm.heldBy === undefined ? '' : `, held back by ${e(wm.heldBy)}`;
          return { kind: 'waiting', text: `join watermark ${c(wm.join)} < ${what}${c(ev.time)} (${e(ev.purpose)})${held}` };
        }
        return { kind: 'waiting', text: `processing time ${c(procTime)} < ${c(ev.time)} (${e(ev.purpose)})` };
      case 'watermark.hold':
        return { kind: 'waiting', text: `${e(ev.scope)} watermark stays at ${c(ev.value)}, held back by ${e(ev.heldBy)}` };
      case 'state.add':
        return { kind: 'stored', text: `${e(ev.row)} kept in ${ev.side === 0 ? 'left' : 'right'} state${ev.detail ? ` (${e(ev.detail)})` : ''}` };
      case 'lookup':
        return ev.result === 'hit' ? undefined : { kind: 'no match', text: `lookup of key ${e(ev.key)} found nothing (${ev.result})` };
      case 'normalize':
        return ev.out.length === 0 ? { kind: 'dropped', text: `${e(ev.in)} changes nothing: ${e(ev.reason)}` } : undefined;
      case 'idle':
        return { kind: 'info', text: `${e(ev.table)} partition ${ev.partition} is now ${ev.idle ? 'idle' : 'active'} (${e(ev.reason)})` };
      case 'watermark.advance':
        return { kind: 'info', text: `${e(ev.scope)} watermark ${c(ev.from)} → ${c(ev.to)}` };
      case 'clock.advance':
        return { kind: 'info', text: `processing time ${c(ev.from)} → ${c(ev.to)}` };
      case 'store.write':
        return { kind: 'info', text: `${e(ev.table)} store ${ev.kind}${e(ev.row)}: a lookup join reads the store only when a probe row arrives` };
      default:
        return undefined;
    }
  }
}

/**
 * When the step fired timers of several keys due at the same time: the order they fired in is
 * Flink's timer heap's, which is easy to mistake for arrival order, so the view names the rule.
 * Undefined for any other step.
 */
export function equalTimersNote(record: StepRecord, info: SessionInfo): string | undefined {
  const keysAt = new Map<string, string[]>();
  for (const ev of record.trace) {
    if (ev.t !== 'timer.fire') continue;
    const at = `${ev.domain} ${ev.time}`;
    const keys = keysAt.get(at) ?? [];
    if (!keys.includes(ev.key)) keys.push(ev.key);
    keysAt.set(at, keys);
  }
  for (const [at, keys] of keysAt) {
    if (keys.length < 2) continue;
    const [domain, time] = at.split(' ') as [string, string];
    const what = domain === 'event' ? 'event-time' : 'processing-time';
    return `order: ${keys.length} keys' ${what} timers were due at ${clock(Number(time), info)} and fired as ${keys.map(printable).join(', ')}: Flink's timer heap orders timers by time only, so equal ones leave in the order its moves give, not in the order they were registered (docs/semantics.md, "Timers due at the same time")`;
  }
  return undefined;
}

export function reasonText(r: Reason): string {
  return r.kind === 'info' ? r.text : `${r.kind}: ${r.text}`;
}
