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
 *   |                    JoinKeyContainsUniqueKey, see isAdditionalMatch in regular-join-steps.ts)
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
 * State TTL (per input, per entry, processing time, inclusive, refreshed by writes, association
 * updates are writes) is lazy, as in Flink: expired entries are dropped when an access finds them
 * (traced as state.expire) and never retracted. So this operator registers no timers and
 * nextProcessingTimer is always undefined; describe() shows each entry's expiry time.
 */
import type { Plan, Side } from '../../planner/plan.js';
import type { Row, RowKind } from '../../values/types.js';
import { isAccumulate } from '../../values/types.js';
import type { Collector, JoinOperator, OpTime } from '../types.js';
import { makeJoinRows } from './interval-join-rows.js';
import { beginWork, emptyJoinState, endWork, newWork, type JoinState, type SideSpec } from './join-state.js';
import { describeSide, sideSpec } from './join-state-describe.js';
import { keyRefOf, LazyKeyRef } from './join-state-match.js';
import { accumulate, retract, type JoinRules, type JoinStep } from './regular-join-steps.js';

export function createRegularJoin(plan: Plan): JoinOperator<JoinState> {
  const t = plan.joinType;
  const rules: JoinRules = {
    j: makeJoinRows(plan),
    joinType: t,
    specs: [sideSpec(plan, 0, t === 'left' || t === 'full'), sideSpec(plan, 1, t === 'right' || t === 'full')] as readonly [SideSpec, SideSpec],
    interleaved: plan.flinkVersion >= '2.2',
    onlyNewMatchesCount: plan.flinkVersion >= '2.4',
  };

  // Refilled by every step (processElement is never re-entered): no allocation per row.
  const work = newWork();
  const keyRef = new LazyKeyRef(rules.j, 0, [], '');
  const quiet: Collector = { emit: () => undefined, trace: () => undefined, tracing: false };
  const s: JoinStep = { r: rules, me: rules.specs[0], other: rules.specs[1], kind: '+I', row: [], k: keyRef, w: work, now: 0, out: quiet, rows: [] };

  function processElement(state: JoinState, side: Side, kind: RowKind, row: Row, time: OpTime, out: Collector): JoinState {
    s.me = rules.specs[side];
    s.other = rules.specs[side === 0 ? 1 : 0];
    s.kind = kind;
    s.row = row;
    s.w = beginWork(state, work);
    s.k = keyRefOf(rules.j, side, row, s.w, keyRef);
    s.now = time.procTime;
    s.out = out;
    if (isAccumulate(kind)) accumulate(s);
    else retract(s);
    s.out = quiet;
    return endWork(state, s.w);
  }

  return {
    init: emptyJoinState,
    processElement,
    onWatermark: (state) => state,
    onProcessingTime: (state) => state,
    nextProcessingTimer: () => undefined,
    outputWatermarkDelay: 0,
    describe: (state: JoinState, side: Side, time: OpTime) => describeSide(plan, rules.specs[side], state, time),
  };
}
