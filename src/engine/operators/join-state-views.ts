/**
 * The record-state operations of Flink's (Outer)JoinRecordStateViews: addRecord, retractRecord
 * and updateNumOfAssociations, per layout, on a side's persistent store, each traced.
 */
import type { Row } from '../../values/types.js';
import type { Collector } from '../types.js';
import { entryHash, liveEntry, printStored, putEntry, removeEntry, type JoinEntry, type KeyRef, type SideSpec, type Work } from './join-state.js';

export type { KeyRef } from './join-state.js';

function assocText(spec: SideSpec, assoc: number): string {
  return spec.outer ? `, assoc=${assoc}` : '';
}

/**
 * state.add(record[, numAssociations]): the unique layouts overwrite (a new arrival); the
 * no-unique-key layout counts copies of the same row, which share one association number.
 */
export function addRecord(spec: SideSpec, w: Work, k: KeyRef, row: Row, assoc: number, now: number, out: Collector): void {
  const old = liveEntry(spec, w, k, row, now, out);
  const a = spec.outer ? assoc : -1;
  const tracing = out.tracing !== false;
  const printed = tracing ? printStored(spec, row) : '';
  if (spec.layout.kind === 'InputSideHasNoUniqueKey' && old !== undefined) {
    putEntry(spec, w, k.key, old.row, old.count + 1, a, old.seq, now, old.h);
    if (tracing) out.trace({ t: 'state.update', side: spec.side, key: k.pkey, row: printed, detail: `count ${old.count} -> ${old.count + 1}${assocText(spec, a)}` });
    return;
  }
  // No live entry (an expired one was just dropped): append without a second scan.
  putEntry(spec, w, k.key, row, 1, a, w.seq++, now, old?.h ?? entryHash(spec, row), old === undefined);
  if (!tracing) return;
  if (old === undefined) {
    out.trace({ t: 'state.add', side: spec.side, key: k.pkey, row: printed, detail: `${spec.layout.kind === 'InputSideHasNoUniqueKey' ? 'count=1' : 'stored'}${assocText(spec, a)}` });
  } else {
    const what = spec.layout.kind === 'JoinKeyContainsUniqueKey' ? 'the row of this join key' : 'the row with the same unique key';
    out.trace({ t: 'state.update', side: spec.side, key: k.pkey, row: printed, detail: `overwrites ${what}, ${printStored(spec, old.row)}${assocText(spec, a)}` });
  }
}

/**
 * state.retract(record): JoinKeyContainsUniqueKey clears the key's row whatever row was sent;
 * InputSideHasUniqueKey removes by unique key; InputSideHasNoUniqueKey takes one copy away.
 * Nothing stored (never arrived, or expired) changes nothing.
 */
export function retractRecord(spec: SideSpec, w: Work, k: KeyRef, row: Row, now: number, out: Collector): void {
  const old = liveEntry(spec, w, k, row, now, out);
  const tracing = out.tracing !== false;
  if (old === undefined) {
    if (tracing) out.trace({ t: 'note', text: `${spec.name}: ${printStored(spec, row)} is not in state (never stored, or expired): nothing to retract` });
    return;
  }
  if (spec.layout.kind === 'InputSideHasNoUniqueKey' && old.count > 1) {
    putEntry(spec, w, k.key, old.row, old.count - 1, old.assoc, old.seq, now, old.h);
    if (tracing) out.trace({ t: 'state.update', side: spec.side, key: k.pkey, row: printStored(spec, old.row), detail: `count ${old.count} -> ${old.count - 1}` });
    return;
  }
  removeEntry(spec, w, k.key, row);
  if (!tracing) return;
  const detail =
    spec.layout.kind === 'JoinKeyContainsUniqueKey'
      ? 'clears the row of this join key (one row per key: whatever row the retraction carries)'
      : spec.layout.kind === 'InputSideHasUniqueKey'
        ? 'removed by its unique key'
        : 'last copy removed';
  out.trace({ t: 'state.retract', side: spec.side, key: k.pkey, row: printStored(spec, old.row), detail });
}

/**
 * otherState.update(other, n): a write (it refreshes the entry's TTL). An entry that is gone is
 * written back with count 1, as Flink does "for state ttl".
 */
export function updateAssoc(spec: SideSpec, w: Work, k: KeyRef, seen: JoinEntry, n: number, now: number, out: Collector): void {
  const cur = liveEntry(spec, w, k, seen.row, now, out);
  if (cur === undefined) putEntry(spec, w, k.key, seen.row, 1, n, w.seq++, now, seen.h);
  else putEntry(spec, w, k.key, seen.row, cur.count, n, cur.seq, now, cur.h);
  if (out.tracing !== false) out.trace({ t: 'state.update', side: spec.side, key: k.pkey, row: printStored(spec, seen.row), detail: `assoc ${seen.assoc} -> ${n}` });
}

/** Flink's hasRecord: is this row (by the layout's identity) in state now? */
export function hasRecord(spec: SideSpec, w: Work, k: KeyRef, row: Row, now: number, out: Collector): boolean {
  return liveEntry(spec, w, k, row, now, out) !== undefined;
}
