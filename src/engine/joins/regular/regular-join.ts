/**
 * Flink's StreamingJoinOperator (regular, unbounded join: INNER / LEFT / RIGHT / FULL), one
 * processElement parameterised by the input side ("me"; the other side is "other").
 *
 * "outer side" = the left input of LEFT/FULL, the right input of RIGHT/FULL. Rows are stored with
 * their kind reset to +I. Matches = rows of the other side with the same key, no NULL in a key
 * field that is not null-safe, and a true residual condition, in arrival order.
 *
 *   if input is +I/+U (accumulate)
 *   |  additional = 2.4: other is outer && the row replaces no stored row (never for
 *   |                    JoinKeyContainsUniqueKey, see isAdditionalMatch below)
 *   |               2.0-2.3: always (so a bare +U on a unique key inflates the other side's assoc)
 *   |  2.4, other is outer, me is InputSideHasUniqueKey and the row replaces a stored row R
 *   |  (same unique key): for each match of R the new row lacks: send -D[R+other];
 *   |  [if assoc==1 send +I[nulls+other]]; otherState.assoc(other, assoc-1). Then
 *   |  additional = the match is not one of R's (FLINK-40841 follow-up, from
 *   |  JoinITCase.testLeftJoinOnRowKeyWithNonEquiCondition)
 *   |  if me is outer
 *   |  |  no matches: send +I[row+nulls]; state.add(row, assoc=0)
 *   |  |  else for each match: [if other is outer: if assoc==0 send -D[nulls+other];
 *   |  |                         if assoc==0 || additional: otherState.assoc(other, assoc+1)]
 *   |  |                        then send +I[row+other]
 *   |  |       state.add(row, assoc=#matches)
 *   |  else
 *   |  |  state.add(row)
 *   |  |  for each match: if other is outer: [if assoc==0 send -D[nulls+other]; bump as above]
 *   |  |                                      then send +I[row+other]
 *   |  |                  else (INNER): send [row+other] with the INPUT kind (+I or +U)
 *   if input is -U/-D (retract)
 *   |  state.retract(row)
 *   |  no matches: if me is outer, send -D[row+nulls]
 *   |  else for each match: send -D[row+other] if me is outer, else [row+other] with the INPUT kind
 *   |                       (-U or -D); then if other is outer:
 *   |                       [if assoc==1 send +I[nulls+other]; otherState.assoc(other, assoc-1)]
 *
 * Several matches [flink-version]: 2.2+ (FLINK-37955) does each match's two parts in turn
 * (-D[n+o1], +I[r+o1], -D[n+o2], +I[r+o2]); 2.0/2.1 do the first part for every match, then the
 * second part for every match (all -D, then all +I). The 2.4 "additional match" rule comes from
 * apache/flink master (StreamingJoinOperator.isAdditionalMatch, TODO FLINK-40841); which release
 * carries it was not verified, so it is applied for flink-version 2.4 only.
 *
 * An accumulate is taken in two ways by whether the other side is outer: an inner other side has
 * no association counts, so its matches are only joined and sent (and, with no trace and no
 * residual condition, read as bare rows: matchRows).
 *
 * State TTL (per input, per entry, processing time, inclusive, refreshed by writes, association
 * updates are writes) is lazy, as in Flink: expired entries are dropped when an access finds them
 * (traced as state.expire) and never retracted. So this operator registers no timers and
 * nextProcessingTimer is always undefined; describe() shows each entry's expiry time.
 */

import type { JoinType, Plan, Side } from '../../../planner/plan.js';
import type { Row, RowKind } from '../../../values/types.js';
import { isAccumulate } from '../../../values/types.js';
import type { Collector, JoinOperator, OpTime, Why } from '../../types.js';
import { bulkWhy } from '../../why.js';
import { addRecord, hasRecord, liveEntry, printStored, recordId, retractRecord, updateAssoc, RecordStateViews, type JoinEntry, type JoinState, type KeyRef, type SideSpec } from '../../state/record-state.js';
import { makeJoinRows, printRowOf, type JoinRows } from '../join-rows.js';
import { findMatches, joinedOf, keyRefOf, LazyKeyRef, matchRows, recordStateOperator, sideSpec, type Match } from './streaming-join-base.js';

export function createRegularJoin(plan: Plan): JoinOperator<JoinState> {
  const t = plan.joinType;
  const rules: JoinRules = {
    j: makeJoinRows(plan),
    joinType: t,
    specs: [sideSpec(plan, 0, t === 'left' || t === 'full'), sideSpec(plan, 1, t === 'right' || t === 'full')] as readonly [SideSpec, SideSpec],
    interleaved: plan.flinkVersion >= '2.2',
    onlyNewMatchesCount: plan.flinkVersion >= '2.4',
  };
  // Refilled by every element: processElement is never re-entered.
  const keyRef = new LazyKeyRef(rules.j, 0, [], '');
  const quiet: Collector = { emit: () => undefined, trace: () => undefined, flag: () => undefined, tracing: false };
  const s: JoinStep = { r: rules, me: rules.specs[0], other: rules.specs[1], kind: '+I', row: [], k: keyRef, views: new RecordStateViews(), now: 0, out: quiet, rows: [] };

  const op = recordStateOperator(plan, rules.specs, (v, side, kind, row, time, out) => {
    s.me = rules.specs[side];
    s.other = rules.specs[side === 0 ? 1 : 0];
    s.kind = kind;
    s.row = row;
    s.views = v;
    s.k = keyRefOf(rules.j, side, row, v, keyRef);
    s.now = time.procTime;
    s.out = out;
    if (plan.alwaysFalse === true) noJoin(s);
    else if (isAccumulate(kind)) accumulate(s);
    else retract(s);
    s.out = quiet;
  });
  // on FALSE: a Calc or an empty Values, no join operator to emit a watermark
  return plan.alwaysFalse === true ? { ...op, noOutputWatermark: true } : op;
}

/** What does not change while the operator runs. */
interface JoinRules {
  readonly j: JoinRows;
  readonly joinType: JoinType;
  readonly specs: readonly [SideSpec, SideSpec];
  /** Flink 2.2+ (FLINK-37955): each match's parts in turn; 2.0/2.1: all first parts, then all second parts. */
  readonly interleaved: boolean;
  /** Flink 2.4 (isAdditionalMatch): bump an association only for a match that is new. */
  readonly onlyNewMatchesCount: boolean;
}

/** One input row being processed (an operator refills one per step: processElement is never re-entered). */
interface JoinStep {
  r: JoinRules;
  me: SideSpec;
  other: SideSpec;
  kind: RowKind;
  row: Row;
  k: KeyRef;
  views: RecordStateViews;
  now: number;
  out: Collector;
  /** A buffer for matchRows, reused from step to step. */
  readonly rows: Row[];
}

/** Each match yields two parts, ordered by flink-version. */
type Part = (m: Match) => void;

function flush(s: JoinStep, matches: readonly Match[], a: Part, b: Part): void {
  if (s.r.interleaved) {
    for (const m of matches) {
      a(m);
      b(m);
    }
  } else {
    for (const m of matches) a(m);
    for (const m of matches) b(m);
  }
}

function inputText(s: JoinStep): string {
  return printRowOf(s.r.j, s.me.side, s.kind, s.row);
}

function theirText(s: JoinStep, m: Match): string {
  return `${s.other.name} ${printStored(s.other, m.row)}`;
}

/** The reason for an emitted row; its text is built only when the collector keeps it. */
function why(s: JoinStep, rule: string, text: () => string, theirs?: Row): Why {
  if (!s.out.tracing) return bulkWhy(rule);
  const rows = theirs === undefined ? [inputText(s)] : [inputText(s), printRowOf(s.r.j, s.other.side, '+I', theirs)];
  return { rule, text: text(), rows };
}

/** The two rows go to the sink as they are (Collector.emitPair): a bulk run may keep them by reference. */
function emitPair(out: Collector, kind: RowKind, side: Side, mine: Row, theirs: Row | undefined, y: Why): void {
  if (side === 0) out.emitPair!(kind, mine, theirs, y);
  else out.emitPair!(kind, theirs, mine, y);
}

function emitJoined(s: JoinStep, kind: RowKind, theirs: Row, y: Why): void {
  if (s.out.emitPair === undefined) s.out.emit(kind, joinedOf(s.r.j, s.me.side, s.row, theirs), y);
  else emitPair(s.out, kind, s.me.side, s.row, theirs, y);
}

function emitPadded(s: JoinStep, kind: RowKind, side: Side, row: Row, y: Why): void {
  if (s.out.emitPair === undefined) s.out.emit(kind, joinedOf(s.r.j, side, row, undefined), y);
  else emitPair(s.out, kind, side, row, undefined, y);
}

/** Why the output kind is what it is, when it is not simply +I from +I. */
function kindText(outKind: RowKind, inKind: RowKind): string {
  if (outKind === inKind) return inKind === '+I' ? '' : ` (the input kind ${inKind} is kept)`;
  return ` (an outer join sends ${outKind} where the input was ${inKind})`;
}

const MATCH = bulkWhy('match');

/** Send [record+other] (the traced form, with its reason: tracedMatch). */
function joinMatch(s: JoinStep, outKind: RowKind, theirs: Row): void {
  if (!s.out.tracing) emitJoined(s, outKind, theirs, MATCH);
  else tracedMatch(s, outKind, theirs);
}

function tracedMatch(s: JoinStep, outKind: RowKind, theirs: Row): void {
  const text = () => `${inputText(s)} matches ${s.other.name} ${printStored(s.other, theirs)} on key ${s.k.pkey}${kindText(outKind, s.kind)}`;
  emitJoined(s, outKind, theirs, why(s, 'match', text, theirs));
}

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
      return !hasRecord(s.me, s.views, s.k, s.row, s.now, s.out);
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
  const { me, other, views, k, now, out } = s;
  if (!s.r.onlyNewMatchesCount || !other.outer || me.layout.kind !== 'InputSideHasUniqueKey') return undefined;
  const old = liveEntry(me, views, k, s.row, now, out);
  if (old === undefined) return undefined;
  // Why the replaced row's matches appear in the trace before the new row's.
  if (out.tracing) out.trace({ t: 'note', text: `${me.name}: ${printStored(me, s.row)} replaces ${printStored(me, old.row)} (same unique key); the replaced row's matches are looked up to compare` });
  return { row: old.row, matches: findMatches(s.r.j, me, other, views, k, old.row, now, out) };
}

/** A match of the replaced row that the new row loses: -D[old+other], re-pad at count 0. */
function loseMatch(s: JoinStep, old: Row, m: Match): void {
  const { other, views, k, now, out } = s;
  const text = () => `${inputText(s)} replaces ${s.me.name} ${printStored(s.me, old)} (same unique key), which joined ${theirText(s, m)}; the new row does not, so that joined row is retracted`;
  s.out.emit('-D', joinedOf(s.r.j, s.me.side, old, m.row), why(s, 'retract-match', text, m.row));
  if (m.assoc === 1) {
    emitPadded(s, '+I', other.side, m.row, why(s, 'repad', () => `${theirText(s, m)} lost its last match, so it is emitted padded with nulls again`, m.row));
  }
  updateAssoc(other, views, k, m, m.assoc - 1, now, out);
}

/**
 * Retracts the replaced row's matches that the new row lost (before any new match is sent), and
 * returns which of the new row's matches are additional: those the replaced row did not have.
 */
function settleReplaced(s: JoinStep, before: Replaced, matches: readonly Match[]): (e: JoinEntry) => boolean {
  const id = (e: JoinEntry): string => recordId(s.other, e.row);
  const kept = new Set(matches.map((m) => id(m)));
  for (const m of before.matches) if (!kept.has(id(m))) loseMatch(s, before.row, m);
  const had = new Set(before.matches.map((m) => id(m)));
  return (e) => !had.has(id(e));
}

/**
 * The condition folds to FALSE (Plan.alwaysFalse): Flink runs no join operator. A LEFT / RIGHT
 * join is a Calc over the preserved side, so its row goes out padded with nulls in its own kind
 * (a -U/+U pair stays one, unlike a join's -D/+I); the other side and an INNER join's rows are
 * never read. Nothing is stored.
 */
function noJoin(s: JoinStep): void {
  const because = 'the join condition simplifies to FALSE, so Flink plans no join';
  if (s.me.outer) {
    emitPadded(s, s.kind, s.me.side, s.row, why(s, 'pad', () => `${inputText(s)} is padded with nulls and keeps its kind: ${because}, only a Calc over ${s.me.name}`));
  } else if (s.out.tracing) {
    s.out.trace({ t: 'no-match', side: s.me.side, row: inputText(s), reason: `${because}; ${s.me.name} is never read` });
  }
}

/** An outer row with no match: send +I[record+null], state.add(record, 0). */
function padNoMatch(s: JoinStep): void {
  const { me, other, views, k, row, now, out } = s;
  emitPadded(s, '+I', me.side, row, why(s, 'pad', () => `${inputText(s)} has no match in ${other.name}: the ${s.r.joinType} join emits it padded with nulls, as +I`));
  addRecord(me, views, k, row, 0, now, out);
}

/**
 * An accumulate when the other side is inner: it has no association counts to bump, so the
 * matches only go out, in order (in a bulk run read as rows, without building entries).
 */
function accumulateOtherInner(s: JoinStep): void {
  const { me, other, views, k, row, now, out } = s;
  // state.add(record) first when me is inner
  if (!me.outer) addRecord(me, views, k, row, -1, now, out);
  let rows: readonly Row[] = s.rows;
  let matched = matchRows(s.r.j, me, other, views, k, row, now, out, s.rows);
  if (matched < 0) {
    rows = findMatches(s.r.j, me, other, views, k, row, now, out).map((m) => m.row);
    matched = rows.length;
  }
  if (matched === 0) {
    if (me.outer) padNoMatch(s);
    return;
  }
  // send +I[record+other]s (INNER: +I/+U, the input kind), then state.add(record, other.size) when me is outer
  const outKind: RowKind = me.outer ? '+I' : s.kind;
  for (let i = 0; i < matched; i++) joinMatch(s, outKind, rows[i] as Row);
  if (me.outer) addRecord(me, views, k, row, matched, now, out);
}

function accumulate(s: JoinStep): void {
  if (!s.other.outer) accumulateOtherInner(s);
  else accumulateOtherOuter(s);
}

/** An accumulate when the other side is outer (its association counts change). */
function accumulateOtherOuter(s: JoinStep): void {
  const { me, other, views, k, row, now, out } = s;
  // 2.4: the row a +I/+U replaces, and its matches, are read before it is overwritten.
  const before = replacedMatches(s);
  // isAdditionalMatch is decided before the row is stored (2.0-2.3: every match counts).
  const additionalAll = before === undefined && (!s.r.onlyNewMatchesCount || (other.outer && isAdditionalMatch(s)));
  // state.add(record) first when me is inner
  if (!me.outer) addRecord(me, views, k, row, -1, now, out);
  const matches = findMatches(s.r.j, me, other, views, k, row, now, out);
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
    if (m.assoc === 0 || (additional === undefined ? additionalAll : additional(m))) updateAssoc(other, views, k, m, m.assoc + 1, now, out);
  };
  // send +I[record+other]s (INNER: +I/+U, the input kind)
  const join = (m: Match): void => joinMatch(s, outKind, m.row);
  flush(s, matches, bumpOther, join);
  // state.add(record, other.size) when me is outer
  if (me.outer) addRecord(me, views, k, row, matches.length, now, out);
}

function retract(s: JoinStep): void {
  const { me, other, views, k, row, now, out } = s;
  // state.retract(record)
  retractRecord(me, views, k, row, now, out);
  const matches = findMatches(s.r.j, me, other, views, k, row, now, out);
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
    updateAssoc(other, views, k, m, m.assoc - 1, now, out);
  };
  flush(s, matches, unjoin, unbumpOther);
}
