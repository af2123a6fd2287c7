/**
 * The temporal join's state pane: side 0 shows the buffered probe rows, side 1 the versions per
 * key, with the version a probe row at the current watermark would use marked 'in use'.
 */
import type { Side } from '../../planner/plan.js';
import { isAccumulate } from '../../values/types.js';
import { pmValues } from '../collections/pmap.js';
import type { OpTime, StateEntryView, StateView } from '../types.js';
import { printRow, printTime, type JoinRows } from './interval-join-rows.js';
import { versionAt, type TemporalKeyState, type TemporalState } from './temporal-join-state.js';

export function describeTemporalSide(j: JoinRows, state: TemporalState, side: Side, time: OpTime): StateView {
  const keys = pmValues(state.keys).sort((a, b) => (a.printedKey < b.printedKey ? -1 : a.printedKey > b.printedKey ? 1 : 0));
  const entries: StateEntryView[] = [];
  for (const ks of keys) entries.push(...(side === 0 ? probeEntries(j, ks, time) : versionEntries(j, ks, time)));
  const layout =
    side === 0
      ? 'per join key · buffered probe rows in arrival order, released when the watermark passes their time'
      : 'per join key · versions by build time (latest <= probe time is used; older than the last one <= watermark are cleaned)';
  return { layout, entries };
}

function retention(ks: TemporalKeyState): Pick<StateEntryView, 'expiresAt' | 'expiryDomain'> {
  return ks.cleanupAt === undefined ? {} : { expiresAt: ks.cleanupAt, expiryDomain: 'proc' };
}

function probeEntries(j: JoinRows, ks: TemporalKeyState, time: OpTime): StateEntryView[] {
  return ks.probes.map((p) => ({
    key: ks.printedKey,
    row: printRow(j, 0, p.kind, p.row),
    tags: [`t=${printTime(j, p.time)}`, p.time <= time.watermark ? 'late: goes out at the next watermark advance' : `waits for watermark >= ${printTime(j, p.time)}`],
    ...retention(ks),
  }));
}

function versionEntries(j: JoinRows, ks: TemporalKeyState, time: OpTime): StateEntryView[] {
  const inUse = versionAt(ks.versions, time.watermark);
  return ks.versions.map((v) => {
    const tags = [`version from ${printTime(j, v.time)}`];
    if (!isAccumulate(v.kind)) tags.push('delete: no row from then on');
    if (v === inUse) tags.push('in use at the watermark');
    else if (v.time > time.watermark) tags.push('newer than the watermark');
    const waiting = ks.probes.filter((p) => versionAt(ks.versions, p.time) === v).length;
    if (waiting > 0) tags.push(`picked by ${waiting} buffered probe row${waiting > 1 ? 's' : ''} (so far)`);
    return { key: ks.printedKey, row: printRow(j, 1, v.kind, v.row), tags, ...retention(ks) };
  });
}
