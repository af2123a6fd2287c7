/**
 * Finding the stored rows of the other side that join an input row (Flink's
 * AbstractStreamingJoinOperator.iterator / AssociatedRecords over JoinConditionWithNullFilters):
 * same join key, no null in a key field that is not null-safe, and the residual condition holds
 * on left ++ right. A row stored N times (InputSideHasNoUniqueKey) is N matches.
 */
import type { Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';
import type { Collector } from '../types.js';
import { conditionHolds, joinRow, keyRejectsNull, printKey, type JoinRows } from './interval-join-rows.js';
import { liveEntries, printStored, storedRows, type JoinEntry, type SideSpec, type Work } from './join-state.js';
import type { KeyRef } from './join-state-views.js';

/**
 * One match: the other side's entry as read before any update in this step (Flink iterates
 * values read up front; entries are immutable, so later writes do not change it). A row stored
 * N times appears N times.
 */
export type Match = JoinEntry;

/** The joined row for an input row of `side` and a row of the other side (a missing one is null-padded). */
export function joinedOf(j: JoinRows, side: Side, mine: Row | undefined, theirs: Row | undefined): Row {
  return side === 0 ? joinRow(j, mine, theirs) : joinRow(j, theirs, mine);
}

/**
 * The row's join key (the instance the step's KeyIndex holds); its printed form is built only if
 * a trace or a reason asks for it. `into`: a KeyRef from an earlier step to refill (an operator
 * keeps one: no allocation per row).
 */
export function keyRefOf(j: JoinRows, side: Side, row: Row, w: Work, into?: LazyKeyRef): LazyKeyRef {
  const key = w.stores[0].keys.keyOfRow(row, j.keyIdx[side]);
  return into === undefined ? new LazyKeyRef(j, side, row, key) : into.reset(j, side, row, key);
}

/** A class rather than an object literal with a getter: no closure allocated per row. */
export class LazyKeyRef implements KeyRef {
  private printed: string | undefined;

  constructor(
    private j: JoinRows,
    private side: Side,
    private row: Row,
    public key: string,
  ) {}

  reset(j: JoinRows, side: Side, row: Row, key: string): this {
    this.j = j;
    this.side = side;
    this.row = row;
    this.key = key;
    this.printed = undefined;
    return this;
  }

  get pkey(): string {
    return (this.printed ??= printKey(this.j, this.side, this.row));
  }
}

/** A memoised text (rows are printed only when a reason or a trace needs them). */
export function lazyText(f: () => string): () => string {
  let v: string | undefined;
  return () => (v ??= f());
}

function single(e: JoinEntry): boolean {
  return e.count === 1;
}

export function findMatches(
  j: JoinRows,
  me: SideSpec,
  other: SideSpec,
  w: Work,
  k: KeyRef,
  row: Row,
  now: number,
  out: Collector,
): readonly Match[] {
  const tracing = out.tracing !== false;
  const printed = tracing ? printStored(me, row) : '';
  const stored = liveEntries(other, w, k, now, out);
  if (stored.length === 0) {
    if (tracing) out.trace({ t: 'no-match', side: me.side, row: printed, reason: `${other.name} holds no row for key ${k.pkey}` });
    return [];
  }
  if (keyRejectsNull(j, me.side, row)) {
    if (tracing) out.trace({ t: 'no-match', side: me.side, row: printed, reason: 'a join key field is NULL, and NULL = NULL is not true (only IS NOT DISTINCT FROM matches NULLs)' });
    return [];
  }
  // The hot path of a long inner join: every stored row matches once, and nothing writes to the
  // other side in this step (it is inner: no association counts), so its entries are the matches.
  if (!tracing && !other.outer && j.residual === undefined && stored.every(single)) return stored;
  const matches: Match[] = [];
  for (const entry of stored) {
    const theirs = tracing ? printStored(other, entry.row) : '';
    if (j.residual !== undefined && !conditionHolds(j, joinedOf(j, me.side, row, entry.row), now)) {
      if (tracing) out.trace({ t: 'no-match', side: me.side, row: printed, reason: `same key as ${other.name} ${theirs}, but the rest of the ON condition is not true` });
      continue;
    }
    const copies = entry.count > 1 ? ` (${entry.count} copies: ${entry.count} matches)` : '';
    if (tracing) out.trace({ t: 'match', side: me.side, row: printed, other: theirs, detail: `key ${k.pkey}${copies}` });
    for (let c = 0; c < entry.count; c++) matches.push(entry);
  }
  return matches;
}

/**
 * The rows of findMatches' matches, for the case where nothing else about them is needed: no
 * trace, no residual condition, an inner other side (no association counts) and no expired entry
 * (nothing to drop). Written into `into` from index 0 (a buffer the caller reuses: read it
 * before the next call), so that no entry objects are built; returns how many. -1: not that
 * case, use findMatches.
 */
export function matchRows(j: JoinRows, me: SideSpec, other: SideSpec, w: Work, k: KeyRef, row: Row, now: number, out: Collector, into: Row[]): number {
  if (out.tracing !== false || other.outer || j.residual !== undefined) return -1;
  const m = storedRows(other, w, k.key, now, into);
  return m > 0 && keyRejectsNull(j, me.side, row) ? 0 : m;
}
