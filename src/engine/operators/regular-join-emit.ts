/**
 * A regular join step (regular-join-steps.ts) and how it sends rows: the step's record, the
 * order of each match's two parts by flink-version, joined and null-padded rows (as pairs when
 * the sink keeps them so) and the reason for each row, whose text is built only when traced.
 */
import type { JoinType, Side } from '../../planner/plan.js';
import type { Row, RowKind } from '../../values/types.js';
import type { Collector, Why } from '../types.js';
import { bulkWhy, wantsText } from '../why.js';
import { printRowOf, type JoinRows } from './interval-join-rows.js';
import { printStored, type SideSpec, type Work } from './join-state.js';
import { joinedOf, type Match } from './join-state-match.js';
import type { KeyRef } from './join-state-views.js';

/** What does not change while the operator runs. */
export interface JoinRules {
  readonly j: JoinRows;
  readonly joinType: JoinType;
  readonly specs: readonly [SideSpec, SideSpec];
  /** Flink 2.2+ (FLINK-37955): each match's parts in turn; 2.0/2.1: all first parts, then all second parts. */
  readonly interleaved: boolean;
  /** Flink 2.4 (isAdditionalMatch): bump an association only for a match that is new. */
  readonly onlyNewMatchesCount: boolean;
}

/** One input row being processed (an operator refills one per step: processElement is never re-entered). */
export interface JoinStep {
  r: JoinRules;
  me: SideSpec;
  other: SideSpec;
  kind: RowKind;
  row: Row;
  k: KeyRef;
  w: Work;
  now: number;
  out: Collector;
  /** A buffer for matchRows, reused from step to step. */
  readonly rows: Row[];
}

/** Each match yields two parts, ordered by flink-version. */
type Part = (m: Match) => void;

export function flush(s: JoinStep, matches: readonly Match[], a: Part, b: Part): void {
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

export function inputText(s: JoinStep): string {
  return printRowOf(s.r.j, s.me.side, s.kind, s.row);
}

export function theirText(s: JoinStep, m: Match): string {
  return `${s.other.name} ${printStored(s.other, m.row)}`;
}

/** The reason for an emitted row; its text is built only when the collector keeps it. */
export function why(s: JoinStep, rule: string, text: () => string, theirs?: Row): Why {
  if (!wantsText(s.out)) return bulkWhy(rule);
  const rows = theirs === undefined ? [inputText(s)] : [inputText(s), printRowOf(s.r.j, s.other.side, '+I', theirs)];
  return { rule, text: text(), rows };
}

/** The two rows go to the sink as they are (Collector.emitPair): a bulk run may keep them by reference. */
function emitPair(out: Collector, kind: RowKind, side: Side, mine: Row, theirs: Row | undefined, y: Why): void {
  if (side === 0) out.emitPair!(kind, mine, theirs, y);
  else out.emitPair!(kind, theirs, mine, y);
}

export function emitJoined(s: JoinStep, kind: RowKind, theirs: Row, y: Why): void {
  if (s.out.emitPair === undefined) s.out.emit(kind, joinedOf(s.r.j, s.me.side, s.row, theirs), y);
  else emitPair(s.out, kind, s.me.side, s.row, theirs, y);
}

export function emitPadded(s: JoinStep, kind: RowKind, side: Side, row: Row, y: Why): void {
  if (s.out.emitPair === undefined) s.out.emit(kind, joinedOf(s.r.j, side, row, undefined), y);
  else emitPair(s.out, kind, side, row, undefined, y);
}

/** Why the output kind is what it is, when it is not simply +I from +I. */
export function kindText(outKind: RowKind, inKind: RowKind): string {
  if (outKind === inKind) return inKind === '+I' ? '' : ` (the input kind ${inKind} is kept)`;
  return ` (an outer join sends ${outKind} where the input was ${inKind})`;
}

const MATCH = bulkWhy('match');

/** Send [record+other]. No closure here (its context would be allocated on every call): see tracedMatch. */
export function joinMatch(s: JoinStep, outKind: RowKind, theirs: Row): void {
  if (!wantsText(s.out)) emitJoined(s, outKind, theirs, MATCH);
  else tracedMatch(s, outKind, theirs);
}

function tracedMatch(s: JoinStep, outKind: RowKind, theirs: Row): void {
  const text = () => `${inputText(s)} matches ${s.other.name} ${printStored(s.other, theirs)} on key ${s.k.pkey}${kindText(outKind, s.kind)}`;
  emitJoined(s, outKind, theirs, why(s, 'match', text, theirs));
}
