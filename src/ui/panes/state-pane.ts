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
import { clock } from '../text.js';
import { printable } from '../../values/printable.js';
import type { LineSource } from './common.js';

function changedRows(trace: readonly TraceEvent[], side: Side): { touched: Set<string>; removed: Line[] } {
  const touched = new Set<string>();
  const removed: Line[] = [];
  for (const ev of trace) {
    if ((ev.t === 'state.add' || ev.t === 'state.update') && ev.side === side) touched.add(`${ev.key}\u0000${ev.row}`);
    if (ev.t === 'state.retract' && ev.side === side) {
      removed.push([seg(`- ${printable(ev.key)} ${printable(ev.row)} retracted`, { tone: 'removed' })]);
    }
    if (ev.t === 'state.expire' && ev.side === side) {
      const why = ev.reason === '' ? '' : `: ${printable(ev.reason)}`;
      removed.push([seg(`- ${printable(ev.key)} ${printable(ev.row)} expired${why}`, { tone: 'removed' })]);
    }
  }
  return { touched, removed };
}

function entryLine(s: UiState, e: StateEntryView, showKey: boolean, changed: boolean): Line {
  const inUse = e.tags.includes('in use');
  const style = changed ? { tone: 'changed' as const, bold: true } : inUse ? { bold: true } : {};
  const mark = changed ? '*' : inUse ? '▸' : ' ';
  const parts: Segment[] = [
    seg(`${mark}${showKey ? printable(e.key) : ' '.repeat(Math.min(printable(e.key).length, 12))} `, style),
    seg(printable(e.row), style),
  ];
  if (e.tags.length > 0) parts.push(seg(` ${e.tags.map(printable).join(' ')}`, { tone: 'muted' }));
  if (e.expiresAt !== undefined) {
    const label = e.expiryDomain === 'event' ? 'cleanup at wm' : 'expires';
    parts.push(seg(` ${label} ${clock(e.expiresAt, s.session.info)}`, { tone: 'warn' }));
  }
  return parts;
}

/**
 * The pane's lines: the layout, one line per retained row, then this step's removed rows. Built
 * a window at a time: a big state has thousands of rows and the pane shows a few.
 */
export function stateSource(s: UiState, side: Side): LineSource {
  const step = stepView(s.session.timeline, s.step);
  const view = step.state(side);
  const { touched, removed } = changedRows(step.record.trace, side);
  const head: Line[] = [[seg(printable(view.layout), { tone: 'muted' })]];
  if (view.size === 0) head.push([seg('(empty)', { dim: true })]);
  const first = head.length + view.size;
  const line = (i: number): Line => {
    if (i < head.length) return head[i]!;
    if (i >= first) return removed[i - first]!;
    const k = i - head.length;
    const e = view.entryAt(k);
    // A key is printed on its group's first row only.
    return entryLine(s, e, k === 0 || view.entryAt(k - 1).key !== e.key, touched.has(`${e.key}\u0000${e.row}`));
  };
  const length = first + removed.length;
  return {
    length,
    slice: (start, end) => {
      const out: Line[] = [];
      for (let i = Math.max(0, start); i < Math.min(end, length); i++) out.push(line(i));
      return out;
    },
  };
}

export function stateTitle(s: UiState, side: Side): string {
  return `${side === 0 ? 'left' : 'right'} state · ${s.session.info.sides[side]}`;
}
