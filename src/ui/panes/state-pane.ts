/**
 * One join side's retained state in Flink's layout (the StateView the engine describes): one
 * line per retained row, grouped by key, with its tags (count, associations, version, in use),
 * its expiry time, and what this step changed: added or updated rows highlighted, retracted or
 * expired rows listed after the state as removed.
 */
import type { StateEntryView, TraceEvent } from '../../engine/types.js';
import type { Side } from '../../planner/plan.js';
import { type Line, type Segment, seg } from '../lines.js';
import type { UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { clock, escapeControl } from '../text.js';

function changedRows(trace: readonly TraceEvent[], side: Side): { touched: Set<string>; removed: Line[] } {
  const touched = new Set<string>();
  const removed: Line[] = [];
  for (const ev of trace) {
    if ((ev.t === 'state.add' || ev.t === 'state.update') && ev.side === side) touched.add(`${ev.key}\u0000${ev.row}`);
    if (ev.t === 'state.retract' && ev.side === side) {
      removed.push([seg(`- ${escapeControl(ev.key)} ${escapeControl(ev.row)} retracted`, { tone: 'removed' })]);
    }
    if (ev.t === 'state.expire' && ev.side === side) {
      const why = ev.reason === '' ? '' : `: ${escapeControl(ev.reason)}`;
      removed.push([seg(`- ${escapeControl(ev.key)} ${escapeControl(ev.row)} expired${why}`, { tone: 'removed' })]);
    }
  }
  return { touched, removed };
}

function entryLine(s: UiState, e: StateEntryView, showKey: boolean, changed: boolean): Line {
  const inUse = e.tags.includes('in use');
  const style = changed ? { tone: 'changed' as const, bold: true } : inUse ? { bold: true } : {};
  const mark = changed ? '*' : inUse ? '▸' : ' ';
  const parts: Segment[] = [
    seg(`${mark}${showKey ? escapeControl(e.key) : ' '.repeat(Math.min(escapeControl(e.key).length, 12))} `, style),
    seg(escapeControl(e.row), style),
  ];
  if (e.tags.length > 0) parts.push(seg(` ${e.tags.map(escapeControl).join(' ')}`, { tone: 'muted' }));
  if (e.expiresAt !== undefined) {
    const label = e.expiryDomain === 'event' ? 'cleanup at wm' : 'expires';
    parts.push(seg(` ${label} ${clock(e.expiresAt, s.session.info)}`, { tone: 'warn' }));
  }
  return parts;
}

export function stateLines(s: UiState, side: Side): Line[] {
  const tl = s.session.timeline;
  const step = stepView(tl, s.step);
  const view = step.state(side);
  const { touched, removed } = changedRows(step.record.trace, side);
  const out: Line[] = [[seg(escapeControl(view.layout), { tone: 'muted' })]];
  if (view.entries.length === 0) out.push([seg('(empty)', { dim: true })]);
  let lastKey: string | undefined;
  for (const e of view.entries) {
    out.push(entryLine(s, e, e.key !== lastKey, touched.has(`${e.key}\u0000${e.row}`)));
    lastKey = e.key;
  }
  return [...out, ...removed];
}

export function stateTitle(s: UiState, side: Side): string {
  return `${side === 0 ? 'left' : 'right'} state · ${s.session.info.sides[side]}`;
}
