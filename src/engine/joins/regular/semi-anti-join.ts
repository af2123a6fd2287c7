/**
 * Flink's StreamingSemiAntiJoinOperator: `WHERE a.k [NOT] IN (SELECT ...)` / `[NOT] EXISTS`.
 * The output is the LEFT row only. The left state is an outer view (each row keeps how many right
 * rows match it); the right state is a plain view. Matches as in the regular join (same key, no
 * NULL in a key field that is not null-safe, residual true on left ++ right), in arrival order.
 *
 *   left row (any kind), matches read before the state changes:
 *   |  semi: if it has a match, send it with its OWN kind;  anti: if it has none, send it so
 *   |  +I/+U: leftState.add(row, assoc=#matches)     -U/-D: leftState.retract(row)
 *   right +I/+U:
 *   |  rightState.add(row)
 *   |  for each matching left row: if assoc==0: semi: send +I/+U[left] (the INPUT kind)
 *   |                                           anti: send -D[left]
 *   |                              leftState.assoc(left, assoc+1)
 *   right -U/-D:
 *   |  rightState.retract(row)
 *   |  for each matching left row: if assoc==1: semi: send -U/-D[left] (the INPUT kind)
 *   |                                           anti: send +I[left]
 *   |                              leftState.assoc(left, assoc-1)
 *
 * A bare +U on the right (ONLY_UPDATE_AFTER) still bumps the count, so a later retraction may
 * leave it at 1 instead of 0: Flink's own test says "numOfAssociations is reduced to 1".
 * State TTL per input, lazy, as in the regular join (see regular-join.ts): no timers.
 */

import type { Plan, Side } from '../../../planner/plan.js';
import type { Row, RowKind } from '../../../values/types.js';
import { isAccumulate } from '../../../values/types.js';
import type { JoinOperator, Why } from '../../types.js';
import { bulkWhy } from '../../why.js';
import { addRecord, retractRecord, updateAssoc, type JoinState, type SideSpec } from '../../state/record-state.js';
import { makeJoinRows, printRowOf } from '../join-rows.js';
import { findMatches, keyRefOf, LazyKeyRef, lazyText, recordStateOperator, sideSpec } from './streaming-join-base.js';

export function createSemiAntiJoin(plan: Plan): JoinOperator<JoinState> {
  const j = makeJoinRows(plan);
  const anti = plan.family === 'anti';
  const name = anti ? 'anti' : 'semi';
  const specs: readonly [SideSpec, SideSpec] = [sideSpec(plan, 0, true), sideSpec(plan, 1, false)];

  // Refilled by every element: processElement is never re-entered.
  const keyRef = new LazyKeyRef(j, 0, [], '');

  return recordStateOperator(plan, specs, (views, side: Side, kind: RowKind, row: Row, time, out) => {
    const me = specs[side];
    const other = specs[side === 0 ? 1 : 0];
    const now = time.procTime;
    const k = keyRefOf(j, side, row, views, keyRef);
    const inputText = lazyText(() => printRowOf(j, side, kind, row));
    // Bulk runs keep only the rule (see why.ts).
    const why = (rule: string, text: () => string, left?: Row): Why =>
      !out.tracing
        ? bulkWhy(`${name}.${rule}`)
        : { rule: `${name}.${rule}`, text: text(), rows: left === undefined ? [inputText()] : [printRowOf(j, 0, '+I', left), inputText()] };

    if (side === 0) {
      const matches = findMatches(j, me, other, views, k, row, now, out);
      const has = matches.length > 0;
      if (has !== anti) {
        const text = () => anti ? `${inputText()} has no match in ${other.name}: NOT IN / NOT EXISTS passes it with its own kind` : `${inputText()} has a match in ${other.name}: IN / EXISTS passes it with its own kind`;
        out.emit(kind, row, why('pass', text));
      }
      if (isAccumulate(kind)) addRecord(me, views, k, row, matches.length, now, out);
      else retractRecord(me, views, k, row, now, out);
      return;
    }

    // Right row: the matching left rows are read before the right state changes.
    const matches = findMatches(j, me, other, views, k, row, now, out);
    const acc = isAccumulate(kind);
    if (acc) addRecord(me, views, k, row, -1, now, out);
    else retractRecord(me, views, k, row, now, out);
    for (const m of matches) {
      const left = m.row;
      if (acc && m.assoc === 0) {
        const outKind: RowKind = anti ? '-D' : kind;
        const text = () => anti
          ? `${inputText()} is the first match of left ${printRowOf(j, 0, '+I', left)}: NOT IN no longer holds, so it is retracted`
          : `${inputText()} is the first match of left ${printRowOf(j, 0, '+I', left)}: IN now holds, so it is sent with the right row's kind ${kind}`;
        out.emit(outKind, left, why('first-match', text, left));
      } else if (!acc && m.assoc === 1) {
        const outKind: RowKind = anti ? '+I' : kind;
        const text = () => anti
          ? `${inputText()} removes the last match of left ${printRowOf(j, 0, '+I', left)}: NOT IN holds again, so it is sent as +I`
          : `${inputText()} removes the last match of left ${printRowOf(j, 0, '+I', left)}: IN no longer holds, so it is retracted with the right row's kind ${kind}`;
        out.emit(outKind, left, why('last-gone', text, left));
      }
      updateAssoc(other, views, k, m, m.assoc + (acc ? 1 : -1), now, out);
    }
  });
}
