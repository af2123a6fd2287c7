/** The interval join's state pane: each side's cache per key, with flags and expiry times. */
import type { IntervalSpec, Side } from '../../planner/plan.js';
import { pmValues } from '../collections/pmap.js';
import type { OpTime, StateEntryView, StateView } from '../types.js';
import { cleanupTimeFor } from './interval-join-cache.js';
import { printKey, printRow, printSpan, printTime, sideName, type JoinRows } from './interval-join-rows.js';
import { isOuter, relativeSize, type IntervalState } from './interval-join-state.js';
import { cacheSize, cleanupOf, joinedAt, keyRowOf, keySideOf, rowAt, timeAt } from './interval-key-state.js';

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
  const keys = pmValues(state.keys)
    .map((ks) => ({ ks, printed: printKey(j, keySideOf(ks), keyRowOf(ks)) }))
    .sort((a, b) => (a.printed < b.printed ? -1 : a.printed > b.printed ? 1 : 0));
  for (const { ks, printed } of keys) {
    for (let i = 0; i < cacheSize(ks, side); i++) {
      const time = timeAt(ks, side, i);
      const tags = [`t=${printTime(j, time)}`];
      if (isOuter(j.plan, side)) tags.push(joinedAt(ks, side, i) ? 'joined' : 'not joined yet');
      const cleanup = cleanupOf(ks, side);
      if (cleanup !== undefined) tags.push(`cleanup timer ${printTime(j, cleanup)}`);
      entries.push({
        key: printed,
        row: printRow(j, side, '+I', rowAt(ks, side, i)),
        tags,
        expiresAt: cleanupTimeFor(spec, side, time),
        expiryDomain: domain,
      });
    }
  }
  return { layout, entries };
}
