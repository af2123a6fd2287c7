/**
 * The temporal join's state pane: side 0 shows the buffered probe rows, side 1 the versions per
 * key, with the version a probe row at the current watermark would use marked 'in use'.
 */
import type { Side } from '../../planner/plan.js';
import { isAccumulate } from '../../values/types.js';
import { pmValues } from '../collections/pmap.js';
import type { OpTime, StateEntryView, StateView } from '../types.js';
import { printRow, printTime, type JoinRows } from './interval-join-rows.js';
import type { TemporalState } from './temporal-join-state.js';
import {
  cleanupAtOf,
  printedKeyOf,
  probeCount,
  probeKind,
  probeRow,
  probeTime,
  versionAt,
  versionCount,
  versionKind,
  versionRow,
  versionTime,
  type TemporalKeyState,
} from './temporal-key-state.js';

export function describeTemporalSide(j: JoinRows, state: TemporalState, side: Side, time: OpTime): StateView {
  const keys = pmValues(state.keys).sort((a, b) => (printedKeyOf(a) < printedKeyOf(b) ? -1 : printedKeyOf(a) > printedKeyOf(b) ? 1 : 0));
  const entries: StateEntryView[] = [];
  for (const ks of keys) entries.push(...(side === 0 ? probeEntries(j, ks, time) : versionEntries(j, ks, time)));
  const layout =
    side === 0
      ? 'per join key · buffered probe rows in arrival order, released when the watermark passes their time'
      : 'per join key · versions by build time (latest <= probe time is used; older than the last one <= watermark are cleaned)';
  return { layout, entries };
}

function retention(ks: TemporalKeyState): Pick<StateEntryView, 'expiresAt' | 'expiryDomain'> {
  const at = cleanupAtOf(ks);
  return at === undefined ? {} : { expiresAt: at, expiryDomain: 'proc' };
}

function probeEntries(j: JoinRows, ks: TemporalKeyState, time: OpTime): StateEntryView[] {
  const entries: StateEntryView[] = [];
  for (let i = 0; i < probeCount(ks); i++) {
    const t = probeTime(ks, i);
    entries.push({
      key: printedKeyOf(ks),
      row: printRow(j, 0, probeKind(ks, i), probeRow(ks, i)),
      tags: [`t=${printTime(j, t)}`, t <= time.watermark ? 'late: goes out at the next watermark advance' : `waits for watermark >= ${printTime(j, t)}`],
      ...retention(ks),
    });
  }
  return entries;
}

function versionEntries(j: JoinRows, ks: TemporalKeyState, time: OpTime): StateEntryView[] {
  const inUse = versionAt(ks, time.watermark);
  const entries: StateEntryView[] = [];
  for (let v = 0; v < versionCount(ks); v++) {
    const vt = versionTime(ks, v);
    const tags = [`version from ${printTime(j, vt)}`];
    if (!isAccumulate(versionKind(ks, v))) tags.push('delete: no row from then on');
    if (v === inUse) tags.push('in use at the watermark');
    else if (vt > time.watermark) tags.push('newer than the watermark');
    let waiting = 0;
    for (let p = 0; p < probeCount(ks); p++) if (versionAt(ks, probeTime(ks, p)) === v) waiting++;
    if (waiting > 0) tags.push(`picked by ${waiting} buffered probe row${waiting > 1 ? 's' : ''} (so far)`);
    entries.push({ key: printedKeyOf(ks), row: printRow(j, 1, versionKind(ks, v), versionRow(ks, v)), tags, ...retention(ks) });
  }
  return entries;
}
