/** The interval join's state pane: each side's cache per key, with flags and expiry times. */
import type { IntervalSpec, Side } from '../../planner/plan.js';
import { pmValues } from '../collections/pmap.js';
import type { OpTime, StateEntryView, StateView } from '../types.js';
import { cleanupTimeFor } from './interval-join-cache.js';
import { printRow, printSpan, printTime, sideName, type JoinRows } from './interval-join-rows.js';
import { isOuter, relativeSize, type IntervalState } from './interval-join-state.js';

export function describeIntervalSide(j: JoinRows, spec: IntervalSpec, state: IntervalState, side: Side, _time: OpTime): StateView {
  const rel = relativeSize(spec, side);
  const domain = spec.timeKind === 'rowtime' ? 'event' : 'proc';
  if (spec.negativeWindow) {
    return { layout: 'no state: the interval is empty (upper < lower), Flink builds no join operator', entries: [] };
  }
  const layout =
    `per join key · ${sideName(side)} cache: time -> rows (joined flag) · ` +
    `a row at t expires when ${spec.timeKind === 'rowtime' ? 'the watermark' : 'processing time'} passes t + ${printSpan(rel)}` +
    (spec.minCleanupMs > 0 ? ` (removed by a timer up to ${printSpan(spec.minCleanupMs)} later, or earlier by a scan)` : '');
  const entries: StateEntryView[] = [];
  const keys = pmValues(state.keys).sort((a, b) => (a.printedKey < b.printedKey ? -1 : a.printedKey > b.printedKey ? 1 : 0));
  for (const ks of keys) {
    for (const b of ks.caches[side]) {
      for (const r of b.rows) {
        const tags = [`t=${printTime(j, b.time)}`];
        if (isOuter(j.plan, side)) tags.push(r.emitted ? 'joined' : 'not joined yet');
        if (ks.cleanup[side] !== undefined) tags.push(`cleanup timer ${printTime(j, ks.cleanup[side])}`);
        entries.push({
          key: ks.printedKey,
          row: printRow(j, side, '+I', r.row),
          tags,
          expiresAt: cleanupTimeFor(spec, side, b.time),
          expiryDomain: domain,
        });
      }
    }
  }
  return { layout, entries };
}
