/**
 * Whether a regular, semi or anti join's changes travel without UPDATE_BEFORE, and what that does
 * to its inputs: Flink's FlinkChangelogModeInferenceProgram, its UpdateKindTrait step (2.0–2.3)
 * and, from 2.1, its DeleteKindTrait step, which drops a ChangelogNormalize nobody needs
 * (ChangelogNormalizeRequirementResolver).
 *
 * The root asks ONLY_UPDATE_AFTER first, and BEFORE_AND_AFTER only when that fails:
 * - the sink must take upserts (upsert-kafka, jdbc with a primary key, blackhole; print and a
 *   plain SELECT want every -U), and the query's upsert key must satisfy the sink's primary key:
 *   equal to it up to 2.2; from 2.3 contained in it, the other key columns immutable (a source
 *   primary-key column from a side the join never pads);
 * - a Calc with a condition never gives ONLY_UPDATE_AFTER (FLINK-9528): a WHERE kept after the
 *   join, or a filter over an updating input that is not inside a ChangelogNormalize (2.1+ keeps
 *   an upsert source's filter there, FLINK-37390), sends the whole plan to BEFORE_AND_AFTER;
 * - the join gives it only when every updating input has an upsert key that contains its join key
 *   (StreamPhysicalJoin.inputUniqueKeyContainsJoinKey).
 * Then no -U travels: ChangelogNormalize and Deduplicate send +U alone and a CDC source gets a
 * DropUpdateBefore. From 2.1 a ChangelogNormalize left with nothing to do goes: unless it holds a
 * filter, table.exec.source.cdc-events-duplicate is on, or the query reads a metadata column of
 * its table, the upsert source feeds the join directly — upsert-kafka reads every value as +I and a
 * tombstone as -D carrying the key alone (its other columns null).
 */
import type { RowKind } from '../values/types.js';
import type { InputPlanDraft } from './input-plan.js';
import type { FlinkVersion, InputPlan, JoinFamily, JoinType, SinkPlan, TableDef, TExpr } from './plan.js';
import { sourceColumnsRead } from './input-columns.js';

export interface UpdateKindQuery {
  readonly family: JoinFamily;
  readonly joinType: JoinType;
  readonly inputs: readonly [InputPlanDraft, InputPlanDraft];
  readonly joinKeys: readonly [readonly number[], readonly number[]];
  readonly leftWidth: number;
  /** The joined-row expressions the join reads: select list, residual, post-join filter. */
  readonly project: readonly TExpr[];
  readonly residual?: TExpr;
  readonly postFilter?: TExpr;
  readonly outputMode: readonly RowKind[];
  readonly outputUpsertKeys: readonly (readonly number[])[];
  /** A regular join pruned to a Calc over its preserved side (Plan.alwaysFalse): only that side is read. */
  readonly alwaysFalse?: boolean;
  /** The INSERT's sink and its connector; absent for a SELECT. */
  readonly sink?: { readonly plan: SinkPlan; readonly def: TableDef };
  readonly tables: ReadonlyMap<string, TableDef>;
  readonly version: FlinkVersion;
  readonly cdcEventsDuplicate: boolean;
}

export interface UpdateKindDecision {
  readonly inputs: readonly [InputPlanDraft, InputPlanDraft];
  readonly outputMode: readonly RowKind[];
  readonly notes: readonly string[];
}

const updating = (mode: readonly RowKind[]): boolean => mode.includes('+U') || mode.includes('-U');

export function decideUpdateKind(q: UpdateKindQuery): UpdateKindDecision {
  const unchanged: UpdateKindDecision = { inputs: q.inputs, outputMode: q.outputMode, notes: [] };
  if (q.family !== 'regular' && q.family !== 'semi' && q.family !== 'anti') return unchanged;
  if (!updating(q.outputMode) || !onlyAfterAtSink(q) || q.postFilter !== undefined) return unchanged;
  const read = (i: number): boolean => q.alwaysFalse !== true || (i === 0 ? q.joinType === 'left' : q.joinType === 'right');
  const ok = q.inputs.every((d, i) => {
    const p = d.plan;
    if (!read(i) || !updating(p.changelogMode)) return true;
    const joinKey = q.joinKeys[i] as readonly number[];
    // a Calc (the join pruned) passes the requirement to its input, with no join key to keep together
    if (q.alwaysFalse !== true && !p.upsertKeys.some((k) => joinKey.every((c) => k.includes(c)))) return false;
    return p.filter === undefined || p.deduplicate !== undefined || (p.changelogNormalize !== undefined && q.version >= '2.1');
  });
  if (!ok) return unchanged;
  const notes = ['the sink takes upserts keyed like the join\'s output, so Flink sends no -U anywhere (UpdateKindTrait ONLY_UPDATE_AFTER): every change travels as +U alone'];
  const inputs = q.inputs.map((d, i) => {
    const p = d.plan;
    if (!read(i) || !updating(p.changelogMode)) return d;
    const mode = p.changelogMode.filter((k) => k !== '-U');
    const def = q.tables.get(p.table);
    if (p.changelogNormalize !== undefined && q.version >= '2.1' && def && normalizeRemovable(q, i as 0 | 1, p, def)) {
      const { changelogNormalize: _dropped, ...rest } = p;
      notes.push(`no ChangelogNormalize on ${p.table}: nothing downstream needs -U or the full deleted row (Flink ${q.version}, ChangelogNormalizeRequirementResolver), so upsert-kafka feeds the join directly: every value as +I, a tombstone as -D with only the key`);
      const plan: InputPlan = { ...rest, rawUpsert: { key: p.changelogNormalize.key }, changelogMode: ['+I', '+U', '-D'] };
      return { ...d, plan, notes: d.notes.filter((n) => !n.startsWith('ChangelogNormalize on ')) };
    }
    if (p.changelogNormalize === undefined && p.deduplicate === undefined && p.changelogMode.includes('-U')) {
      notes.push(`DropUpdateBefore on ${p.table}: the join needs no -U, so Flink drops them after the source`);
      return { ...d, plan: { ...p, dropUpdateBefore: true, changelogMode: mode } };
    }
    return { ...d, plan: { ...p, changelogMode: mode } };
  }) as unknown as [InputPlanDraft, InputPlanDraft];
  return { inputs, outputMode: q.outputMode.filter((k) => k !== '-U'), notes };
}

/**
 * The sink's changelog mode for an updating query is UPSERT (no UPDATE_BEFORE): upsert-kafka,
 * blackhole, and jdbc with a primary key. print and CDC-format sinks want every -U.
 */
export function takesUpserts(sink: TableDef): boolean {
  if (sink.connector === 'upsert-kafka' || sink.connector === 'blackhole') return true;
  return sink.connector === 'jdbc' && sink.primaryKey !== undefined && sink.primaryKey.length > 0;
}

/** The sink's UpdateKind requirement (inferSinkRequiredTraits): whether ONLY_UPDATE_AFTER is tried. */
function onlyAfterAtSink(q: UpdateKindQuery): boolean {
  if (q.sink === undefined) return false;
  if (!takesUpserts(q.sink.def)) return false;
  const pk = q.sink.plan.primaryKey;
  if (pk === undefined) return true;
  if (q.version < '2.3') return q.outputUpsertKeys.some((k) => k.length === pk.length && k.every((c) => pk.includes(c)));
  const immutable = immutableOutputColumns(q);
  return q.outputUpsertKeys.some((k) => k.every((c) => pk.includes(c)) && pk.every((c) => k.includes(c) || immutable.has(c)));
}

/**
 * Flink 2.3's immutable columns of the output (FlinkRelMdImmutableColumns): a source's primary-key
 * columns, kept through plain projections, from the sides the join never pads (semi / anti: the
 * left), and only while the node has an upsert key.
 */
function immutableOutputColumns(q: UpdateKindQuery): Set<number> {
  const out = new Set<number>();
  if (q.outputUpsertKeys.length === 0) return out;
  const kept: readonly boolean[] = q.family !== 'regular'
    ? [true, false]
    : [q.joinType === 'inner' || q.joinType === 'left', q.joinType === 'inner' || q.joinType === 'right'];
  const joined = new Set<number>();
  q.inputs.forEach((d, s) => {
    const p = d.plan;
    const pk = q.tables.get(p.table)?.primaryKey;
    if (!kept[s] || pk === undefined || p.deduplicate !== undefined || p.upsertKeys.length === 0) return;
    const offset = s === 0 ? 0 : q.leftWidth;
    p.columns.forEach((_, i) => {
      const e = p.project?.[i];
      const source = p.project === undefined ? i : e?.k === 'col' ? e.index : -1;
      if (pk.includes(source)) joined.add(offset + i);
    });
  });
  q.project.forEach((e, pos) => {
    if (e.k === 'col' && joined.has(e.index)) out.add(pos);
  });
  return out;
}

/** ChangelogNormalizeRequirementResolver.isRequired, for a normalize already under ONLY_UPDATE_AFTER. */
function normalizeRemovable(q: UpdateKindQuery, side: 0 | 1, p: InputPlan, def: TableDef): boolean {
  if (p.filter !== undefined || q.cdcEventsDuplicate || def.nature !== 'upsert') return false;
  const read = sourceColumnsRead(p, side, q.joinKeys[side] as readonly number[], { exprs: joinedReads(q), leftWidth: q.leftWidth });
  return !read.some((c) => def.columns[c]?.kind === 'metadata');
}

function joinedReads(q: UpdateKindQuery): TExpr[] {
  return [...q.project, ...(q.residual ? [q.residual] : []), ...(q.postFilter ? [q.postFilter] : [])];
}
