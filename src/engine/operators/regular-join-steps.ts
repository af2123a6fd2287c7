/**
 * The two halves of StreamingJoinOperator.processElement (see the pseudo-code in
 * regular-join.ts): an accumulate (+I/+U) and a retract (-U/-D) arriving on side `me`. What they
 * send, and how, is in regular-join-emit.ts.
 */
import type { Row, RowKind } from '../../values/types.js';
import { entryId, liveEntry, printStored, type JoinEntry } from './join-state.js';
import { findMatches, joinedOf, matchRows, type Match } from './join-state-match.js';
import { addRecord, hasRecord, retractRecord, updateAssoc } from './join-state-views.js';
import { emitJoined, emitPadded, flush, inputText, joinMatch, kindText, theirText, why, type JoinStep } from './regular-join-emit.js';

export type { JoinRules, JoinStep } from './regular-join-emit.js';

/**
 * Flink 2.4's isAdditionalMatch for an outer other side: never with JoinKeyContainsUniqueKey (the
 * row replaces the key's only row); with InputSideHasUniqueKey only if no row with this unique
 * key is stored (a replacing row is handled per match by replacedMatches / settleReplaced).
 * For InputSideHasNoUniqueKey nothing is replaced (a duplicate is one more copy), so every match
 * is additional: our reading of "replaced record", hasRecord's own code was not available.
 */
function isAdditionalMatch(s: JoinStep): boolean {
  switch (s.me.layout.kind) {
    case 'JoinKeyContainsUniqueKey':
      return false;
    case 'InputSideHasUniqueKey':
      return !hasRecord(s.me, s.w, s.k, s.row, s.now, s.out);
    case 'InputSideHasNoUniqueKey':
      return true;
  }
}

interface Replaced {
  readonly row: Row;
  readonly matches: readonly Match[];
}

/**
 * Flink 2.4 with the FLINK-40841 follow-up (JoinITCase.testLeftJoinOnRowKeyWithNonEquiCondition):
 * an accumulate on an InputSideHasUniqueKey side that replaces a stored row (same unique key),
 * when the other side is outer, adjusts the other side's counts by the difference between the old
 * row's matches and the new row's. Returns the old row and its matches (undefined: no replacement).
 */
function replacedMatches(s: JoinStep): Replaced | undefined {
  const { me, other, w, k, now, out } = s;
  if (!s.r.onlyNewMatchesCount || !other.outer || me.layout.kind !== 'InputSideHasUniqueKey') return undefined;
  const old = liveEntry(me, w, k, s.row, now, out);
  if (old === undefined) return undefined;
  // Why the replaced row's matches appear in the trace before the new row's.
  if (out.tracing !== false) out.trace({ t: 'note', text: `${me.name}: ${printStored(me, s.row)} replaces ${printStored(me, old.row)} (same unique key); the replaced row's matches are looked up to compare` });
  return { row: old.row, matches: findMatches(s.r.j, me, other, w, k, old.row, now, out) };
}

/** A match of the replaced row that the new row loses: -D[old+other], re-pad at count 0. */
function loseMatch(s: JoinStep, old: Row, m: Match): void {
  const { other, w, k, now, out } = s;
  const text = () => `${inputText(s)} replaces ${s.me.name} ${printStored(s.me, old)} (same unique key), which joined ${theirText(s, m)}; the new row does not, so that joined row is retracted`;
  s.out.emit('-D', joinedOf(s.r.j, s.me.side, old, m.row), why(s, 'retract-match', text, m.row));
  if (m.assoc === 1) {
    emitPadded(s, '+I', other.side, m.row, why(s, 'repad', () => `${theirText(s, m)} lost its last match, so it is emitted padded with nulls again`, m.row));
  }
  updateAssoc(other, w, k, m, m.assoc - 1, now, out);
}

/**
 * Retracts the replaced row's matches that the new row lost (before any new match is sent), and
 * returns which of the new row's matches are additional: those the replaced row did not have.
 */
function settleReplaced(s: JoinStep, before: Replaced, matches: readonly Match[]): (e: JoinEntry) => boolean {
  const id = (e: JoinEntry): string => entryId(s.other, e.row);
  const kept = new Set(matches.map((m) => id(m)));
  for (const m of before.matches) if (!kept.has(id(m))) loseMatch(s, before.row, m);
  const had = new Set(before.matches.map((m) => id(m)));
  return (e) => !had.has(id(e));
}

/** An outer row with no match: send +I[record+null], state.add(record, 0). */
function padNoMatch(s: JoinStep): void {
  const { me, other, w, k, row, now, out } = s;
  emitPadded(s, '+I', me.side, row, why(s, 'pad', () => `${inputText(s)} has no match in ${other.name}: the ${s.r.joinType} join emits it padded with nulls, as +I`));
  addRecord(me, w, k, row, 0, now, out);
}

/**
 * An accumulate when the other side is inner: it has no association counts to bump, so the
 * matches go out in order, with no closures (this is the hot path of a long run: in a bulk run
 * the matches are read as rows, without building entries).
 */
function accumulateOtherInner(s: JoinStep): void {
  const { me, other, w, k, row, now, out } = s;
  // state.add(record) first when me is inner
  if (!me.outer) addRecord(me, w, k, row, -1, now, out);
  let rows: readonly Row[] = s.rows;
  let matched = matchRows(s.r.j, me, other, w, k, row, now, out, s.rows);
  if (matched < 0) {
    rows = findMatches(s.r.j, me, other, w, k, row, now, out).map((m) => m.row);
    matched = rows.length;
  }
  if (matched === 0) {
    if (me.outer) padNoMatch(s);
    return;
  }
  // send +I[record+other]s (INNER: +I/+U, the input kind), then state.add(record, other.size) when me is outer
  const outKind: RowKind = me.outer ? '+I' : s.kind;
  for (let i = 0; i < matched; i++) joinMatch(s, outKind, rows[i] as Row);
  if (me.outer) addRecord(me, w, k, row, matched, now, out);
}

export function accumulate(s: JoinStep): void {
  if (!s.other.outer) accumulateOtherInner(s);
  else accumulateOtherOuter(s);
}

/**
 * An accumulate when the other side is outer (its association counts change). Its closures live
 * here, not in accumulate: V8 allocates the context they share on entry to the function that
 * holds them, so every row paid for it when accumulate held them (~100 B per row).
 */
function accumulateOtherOuter(s: JoinStep): void {
  const { me, other, w, k, row, now, out } = s;
  // 2.4: the row a +I/+U replaces, and its matches, are read before it is overwritten.
  const before = replacedMatches(s);
  // isAdditionalMatch is decided before the row is stored (2.0-2.3: every match counts).
  const additionalAll = before === undefined && (!s.r.onlyNewMatchesCount || (other.outer && isAdditionalMatch(s)));
  // state.add(record) first when me is inner
  if (!me.outer) addRecord(me, w, k, row, -1, now, out);
  const matches = findMatches(s.r.j, me, other, w, k, row, now, out);
  const additional = before === undefined ? undefined : settleReplaced(s, before, matches);
  if (matches.length === 0) {
    // send +I[record+null], state.add(record, 0)
    if (me.outer) padNoMatch(s);
    return;
  }
  const outKind: RowKind = me.outer || other.outer ? '+I' : s.kind;
  const bumpOther = (m: Match): void => {
    if (!other.outer) return;
    // the matched num == 0: send -D[null+other]
    if (m.assoc === 0) {
      const text = () => `${theirText(s, m)} was emitted padded with nulls; its first match arrives, so the padded row is retracted`;
      emitPadded(s, '-D', other.side, m.row, why(s, 'unpad', text, m.row));
    }
    // otherState.update(other, old + 1)
    if (m.assoc === 0 || (additional === undefined ? additionalAll : additional(m))) updateAssoc(other, w, k, m, m.assoc + 1, now, out);
  };
  // send +I[record+other]s (INNER: +I/+U, the input kind)
  const join = (m: Match): void => joinMatch(s, outKind, m.row);
  flush(s, matches, bumpOther, join);
  // state.add(record, other.size) when me is outer
  if (me.outer) addRecord(me, w, k, row, matches.length, now, out);
}

export function retract(s: JoinStep): void {
  const { me, other, w, k, row, now, out } = s;
  // state.retract(record)
  retractRecord(me, w, k, row, now, out);
  const matches = findMatches(s.r.j, me, other, w, k, row, now, out);
  if (matches.length === 0) {
    // send -D[record+null] if me is outer
    if (me.outer) emitPadded(s, '-D', me.side, row, why(s, 'retract-pad', () => `${inputText(s)} is retracted and had no match: its null-padded row is retracted`));
    return;
  }
  // send -D[record+other]s if me is outer, -D/-U (the input kind) if inner
  const outKind: RowKind = me.outer ? '-D' : s.kind;
  const unjoin = (m: Match): void => {
    const text = () => `${inputText(s)} retracts its join with ${theirText(s, m)}${kindText(outKind, s.kind)}`;
    emitJoined(s, outKind, m.row, why(s, 'retract-match', text, m.row));
  };
  const unbumpOther = (m: Match): void => {
    if (!other.outer) return;
    // the matched num == 1: send +I[null+other]
    if (m.assoc === 1) {
      emitPadded(s, '+I', other.side, m.row, why(s, 'repad', () => `${theirText(s, m)} lost its last match, so it is emitted padded with nulls again`, m.row));
    }
    // otherState.update(other, old - 1)
    updateAssoc(other, w, k, m, m.assoc - 1, now, out);
  };
  flush(s, matches, unjoin, unbumpOther);
}
