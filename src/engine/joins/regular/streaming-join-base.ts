/**
 * What Flink's StreamingJoinOperator and StreamingSemiAntiJoinOperator share (their
 * AbstractStreamingJoinOperator): the operator shell over two sides' record state with lazy State
 * TTL and no timers, a row's join key, finding the stored rows of the other side that join an
 * input row (AssociatedRecords over JoinConditionWithNullFilters: same join key, no null in a key
 * field that is not null-safe, and the residual condition holds on left ++ right; a row stored N
 * times is N matches), and the state pane of a side.
 */
import type { Plan, Side, StateLayout, TExpr } from '../../../planner/plan.js';
import { columnsOf, conjunctsOf } from '../../../planner/texpr-util.js';
import type { Row, RowKind } from '../../../values/types.js';
import type { Collector, JoinOperator, OpTime, StateEntryView, StateView } from '../../types.js';
import { emptyJoinState, entriesInArrivalOrder, isExpired, liveEntries, printKeyOf, printStored, storedRows, RecordStateViews, type JoinEntry, type JoinState, type KeyRef, type SideSpec } from '../../state/record-state.js';
import { conditionHolds, joinRow, keyRejectsNull, printKey, type JoinRows } from '../join-rows.js';
import { stateViewOf } from '../../describe.js';

/** One element's processing on the views opened for it (the operator's own rules). */
export type ProcessElement = (v: RecordStateViews, side: Side, kind: RowKind, row: Row, time: OpTime, out: Collector) => void;

/**
 * The operator over record state: each element opens the views on the state, `process` applies
 * the family's rules, and the views close into the new state. State TTL is lazy, as in Flink:
 * expired entries are dropped when an access finds them and never retracted, so these operators
 * register no timers; describe() shows each entry's expiry time.
 */
export function recordStateOperator(plan: Plan, specs: readonly [SideSpec, SideSpec], process: ProcessElement): JoinOperator<JoinState> {
  // Reopened by every element: processElement is never re-entered.
  const views = new RecordStateViews();
  return {
    init: emptyJoinState,
    processElement(state, side, kind, row, time, out) {
      process(views.open(state), side, kind, row, time, out);
      return views.close();
    },
    onWatermark: (state) => state,
    onProcessingTime: (state) => state,
    nextProcessingTimer: () => undefined,
    outputWatermarkDelay: 0,
    describe: (state: JoinState, side: Side, time: OpTime) => describeSide(plan, specs[side], state, time),
  };
}

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
 * The row's join key (the instance the run's key interner holds); its printed form is built only
 * if a trace or a reason asks for it. `into`: the operator's KeyRef, refilled for this row.
 */
export function keyRefOf(j: JoinRows, side: Side, row: Row, views: RecordStateViews, into?: LazyKeyRef): LazyKeyRef {
  const key = views.keyOfRow(row, j.keyIdx[side]);
  return into === undefined ? new LazyKeyRef(j, side, row, key) : into.reset(j, side, row, key);
}

/** The join key of the element being processed, printed on first read. */
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
  views: RecordStateViews,
  k: KeyRef,
  row: Row,
  now: number,
  out: Collector,
): readonly Match[] {
  const tracing = out.tracing;
  const printed = tracing ? printStored(me, row) : '';
  const stored = liveEntries(other, views, k, now, out);
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
export function matchRows(j: JoinRows, me: SideSpec, other: SideSpec, views: RecordStateViews, k: KeyRef, row: Row, now: number, out: Collector, into: Row[]): number {
  if (out.tracing || other.outer || j.residual !== undefined) return -1;
  const m = storedRows(other, views, k.key, now, into);
  return m > 0 && keyRejectsNull(j, me.side, row) ? 0 : m;
}

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
    kept: keptColumns(plan, side),
  };
}

/**
 * The input columns the row Flink stores for `side` holds: Flink prunes each input below the join
 * to the columns the join keys, the join condition and everything above the join read, in input
 * order. undefined: all of them.
 */
function keptColumns(plan: Plan, side: Side): readonly number[] | undefined {
  // A planned query selects at least one column; a plan built without a projection keeps all.
  if (plan.project.length === 0) return undefined;
  const width = plan.inputs[side].columns.length;
  const offset = side === 0 ? 0 : plan.inputs[0].columns.length;
  const read = new Set<number>();
  if (plan.residual !== undefined) columnsOf(plan.residual, read);
  // Semi and anti joins project the left row only; the others the joined row.
  const projectsJoined = plan.family !== 'semi' && plan.family !== 'anti';
  const above = new Set<number>();
  if (projectsJoined || side === 0) {
    for (const e of plan.project) columnsOf(e, above);
    if (plan.postFilter !== undefined) columnsOf(plan.postFilter, above);
  }
  // Calcite's ReduceExpressionsRule replaces a column above the join by the constant its input's
  // filter fixes it to (`w = 'x'`: the SELECT's r.w becomes 'x'), so the input below stops
  // carrying it unless the join key or the join condition read it.
  const fixed = columnsFixedByFilter(plan.inputs[side]);
  for (const i of above) if (!fixed.has(i - offset)) read.add(i);
  const kept = new Set<number>(side === 0 ? plan.keys.left : plan.keys.right);
  for (const i of read) if (i >= offset && i < offset + width) kept.add(i - offset);
  if (kept.size === width) return undefined;
  return [...kept].sort((a, b) => a - b);
}

/** The input columns an input's filter holds equal to a non-null literal (`col = 'x'`) or to NULL (`col IS NULL`). */
function columnsFixedByFilter(input: Plan['inputs'][number]): Set<number> {
  const fixed = new Set<number>();
  if (input.filter === undefined) return fixed;
  const sources = new Set<number>();
  for (const c of conjunctsOf(input.filter)) {
    // `col IS NULL` fixes it to NULL, as `col = 'x'` fixes it to 'x'
    if (c.k === 'call' && c.fn === 'IS NULL' && c.args.length === 1 && c.args[0]?.k === 'col') {
      sources.add(c.args[0].index);
      continue;
    }
    if (c.k !== 'call' || c.fn !== '=' || c.args.length !== 2) continue;
    const [a, b] = c.args as [TExpr, TExpr];
    const col = a.k === 'col' && b.k === 'lit' ? a : b.k === 'col' && a.k === 'lit' ? b : undefined;
    const lit = col === a ? b : a;
    if (col !== undefined && lit.k === 'lit' && lit.value !== null) sources.add(col.index);
  }
  input.columns.forEach((_, i) => {
    const e = input.project === undefined ? undefined : input.project[i];
    const source = input.project === undefined ? i : e?.k === 'col' ? e.index : -1;
    if (sources.has(source)) fixed.add(i);
  });
  return fixed;
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

/** Every entry of a side, in arrival order (expired ones that no access has dropped yet are tagged), each described when read. */
export function describeSide(plan: Plan, spec: SideSpec, state: JoinState, time: OpTime): StateView {
  const all = entriesInArrivalOrder(state, spec.side);
  return stateViewOf(layoutText(plan, spec), all.size, (i) => entryView(spec, all.at(i), time.procTime));
}
