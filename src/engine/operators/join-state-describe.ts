/**
 * Building a side's SideSpec from the plan, and describing a side's state for the state pane.
 */
import type { Plan, Side, StateLayout } from '../../planner/plan.js';
import type { OpTime, StateEntryView, StateView } from '../types.js';
import { isExpired, printKeyOf, printStored, type JoinEntry, type JoinState, type SideSpec } from './join-state.js';

/** A plan without a state layout (hand-built, or another family) is treated as Flink's safest one. */
const NO_UNIQUE_KEY: StateLayout = { kind: 'InputSideHasNoUniqueKey' };

export function sideSpec(plan: Plan, side: Side, outer: boolean): SideSpec {
  const input = plan.inputs[side];
  return {
    side,
    name: input.alias,
    layout: input.stateLayout ?? NO_UNIQUE_KEY,
    outer,
    ttlMs: Math.max(0, input.stateTtlMs),
    types: input.columns.map((c) => c.type),
    keyIdx: side === 0 ? plan.keys.left : plan.keys.right,
  };
}

function columnNames(plan: Plan, side: Side, idx: readonly number[]): string {
  return idx.map((i) => plan.inputs[side].columns[i]?.name ?? `#${i}`).join(', ');
}

/** The layout in words, e.g. "per join key · row -> count (InputSideHasNoUniqueKey)". */
export function layoutText(plan: Plan, spec: SideSpec): string {
  const l = spec.layout;
  const assoc = spec.outer ? ' + associations' : '';
  const ttl = spec.ttlMs > 0 ? ` · TTL ${spec.ttlMs} ms per entry (refreshed by writes)` : ' · no TTL';
  switch (l.kind) {
    case 'JoinKeyContainsUniqueKey':
      return `per join key · one row${assoc} (JoinKeyContainsUniqueKey: unique key [${columnNames(plan, spec.side, l.uniqueKey)}] is inside the join key)${ttl}`;
    case 'InputSideHasUniqueKey':
      return `per join key · unique key [${columnNames(plan, spec.side, l.uniqueKey)}] -> row${assoc} (InputSideHasUniqueKey)${ttl}`;
    case 'InputSideHasNoUniqueKey':
      return `per join key · row -> count${assoc} (InputSideHasNoUniqueKey)${ttl}`;
  }
}

/**
 * One entry as the state pane shows it. Its key and row texts are built on first read (own
 * getters, so the view still compares and serialises as plain data): a side can hold a million
 * rows and the pane shows a screenful, so describing a side must not print every row.
 */
function entryView(spec: SideSpec, e: JoinEntry, now: number): StateEntryView {
  let key: string | undefined;
  let row: string | undefined;
  const tags: string[] = [];
  if (spec.layout.kind === 'InputSideHasNoUniqueKey') tags.push(`count=${e.count}`);
  if (spec.outer) tags.push(`assoc=${e.assoc}`);
  if (isExpired(spec, e, now)) tags.push('expired');
  const view: { key: string; row: string; tags: readonly string[]; expiresAt?: number; expiryDomain?: 'proc' } = {
    get key(): string {
      return (key ??= printKeyOf(spec, e.row));
    },
    get row(): string {
      return (row ??= printStored(spec, e.row));
    },
    tags,
  };
  if (spec.ttlMs > 0) {
    view.expiresAt = e.at + spec.ttlMs;
    view.expiryDomain = 'proc';
  }
  return view;
}

/** Every entry of a side, in arrival order (expired ones that no access has dropped yet are tagged). */
export function describeSide(plan: Plan, spec: SideSpec, state: JoinState, time: OpTime): StateView {
  const all: JoinEntry[] = [];
  state.sides[spec.side].forEachBucket((entries) => {
    for (const e of entries) all.push(e);
  });
  all.sort((a, b) => a.seq - b.seq);
  return { layout: layoutText(plan, spec), entries: all.map((e) => entryView(spec, e, time.procTime)) };
}
