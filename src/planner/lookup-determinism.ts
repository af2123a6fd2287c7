/**
 * Whether Flink really materializes a lookup join under TRY_RESOLVE:
 * StreamNonDeterministicUpdatePlanVisitor only wraps it in KeyedLookupJoinWrapper when the sink
 * needs a column of the lookup table to be deterministic, and that column is not the table's
 * primary key looked up by key.
 *
 *   sink needs:  an upsert sink keyed by its primary key, without a SinkUpsertMaterializer -> the
 *                columns feeding that key; any other sink (a SELECT, a sink without key, or one
 *                with a materializer) -> every output column (visitSink)
 *   lookup join: requireRight = needed columns from the lookup table; none -> no wrapper; all of
 *                them key columns and the key fully looked up -> no wrapper (visitLookupJoin)
 *   left source: the needed left columns go on down to the scan; a changelog source without
 *                ChangelogNormalize (a CDC format, unless cdc-events-duplicate with a primary
 *                key) cannot make a metadata column among them deterministic, and the planner
 *                rejects the query (visitTableSourceScan)
 */
import type { InputPlan, LookupSpec, SinkPlan, TableDef, TExpr } from './plan.js';
import { columnsOf } from './texpr-util.js';
import { rejectChangelogMetadata } from './update-determinism.js';

export interface KeyedLookupDecision {
  readonly lookup: LookupSpec;
  readonly left: InputPlan;
  readonly omitted: boolean;
}

export function resolveKeyedLookup(
  lookup: LookupSpec,
  left: InputPlan,
  project: readonly TExpr[],
  postFilter: TExpr | undefined,
  sink: SinkPlan | undefined,
  rightPrimaryKey: readonly number[] | undefined,
  leftTable: TableDef | undefined,
  cdcEventsDuplicate: boolean,
): KeyedLookupDecision {
  if (lookup.materialize !== true) return { lookup, left, omitted: false };
  const keyed = sink?.primaryKey !== undefined && sink.primaryKey.length > 0 && !sink.upsertMaterialize;
  const needed = keyed ? (sink.primaryKey ?? []).map((i) => project[i]) : [...project];
  const cols = new Set<number>();
  for (const e of needed) if (e !== undefined) columnsOf(e, cols);
  // a filter between the join and the sink reads its columns too
  if (postFilter !== undefined) columnsOf(postFilter, cols);
  const width = left.columns.length;
  if (leftTable !== undefined) rejectChangelogMetadata(left, leftTable, [...cols].filter((c) => c < width), cdcEventsDuplicate);
  const requireRight = [...cols].filter((c) => c >= width).map((c) => c - width);
  const pk = rightPrimaryKey ?? [];
  const pkLookedUp = pk.length > 0 && pk.every((c) => lookup.keys.some((k) => k.rightColumn === c));
  const omit = requireRight.length === 0 || (pkLookedUp && requireRight.every((c) => pk.includes(c)));
  if (!omit) return { lookup, left, omitted: false };
  const { materialize: _m, stateKey: _s, lookupKeyContainsPrimaryKey: _p, ...plain } = lookup;
  return { lookup: plain, left: { ...left, stateTtlMs: 0, stateTtlSource: 'none' }, omitted: true };
}
