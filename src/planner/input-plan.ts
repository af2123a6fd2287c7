/**
 * InputSource → InputPlan: the planner-inserted steps that change semantics (ChangelogNormalize
 * after an upsert source, DropUpdateBefore before a temporal join's versioned side), each input's
 * changelog mode and upsert keys, and the regular join's state layout (JoinInputSideSpec).
 */
import type { RowKind } from '../values/types.js';
import { inputUniqueKey, sourceChangelog, type InputSource } from './input.js';
import type { EngineConfig, FlinkVersion, InputPlan, StateLayout } from './plan.js';
import { columnsOf } from './texpr-util.js';
import { qualifiedName } from './connector.js';
import { fail } from './errors.js';

/** How the operator consumes the input. */
export type InputRole = 'stream' | 'versioned' | 'lookup';

export interface InputPlanDraft {
  readonly plan: InputPlan;
  /** Why each planner step was inserted, for Plan.notes. */
  readonly notes: readonly string[];
  /** The node producing this input's changes, in Flink's plan wording (for changelog errors). */
  readonly producer: string;
}

const ALL: readonly RowKind[] = ['+I', '-U', '+U', '-D'];

function scanNode(src: InputSource): string {
  const fields = src.def.columns.map((c) => c.name).join(', ');
  return `TableSourceScan(table=[[default_catalog, default_database, ${src.def.name}]], fields=[${fields}])`;
}

/**
 * A filter on the versioned side of an event-time temporal join (Flink plans one only over a
 * Kafka scan, see join-temporal.ts). A filter over updates needs their -U unless it reads only
 * the upsert key (from 2.1 Flink checks which columns it reads; 2.0 asks for -U whatever they
 * are), and over an upsert source Flink keeps the ChangelogNormalize that produces them, or from
 * 2.1 (FLINK-37390) the normalize evaluates the filter itself and sends no -U. Returns undefined
 * where the side is planned as if unfiltered (a Kafka upsert side filtered on its key, from 2.1).
 * Unfiltered, an upsert side has no ChangelogNormalize from 2.1 (each row is a version); 2.0 still
 * plans one (sending no -U), which restores a tombstone's row from its state.
 */
function filteredVersions(src: InputSource, version: FlinkVersion): { normalize: boolean; updateBefore: boolean } | undefined {
  const def = src.def;
  if (src.filter === undefined && !src.dedup && def.nature === 'upsert' && version < '2.1') return { normalize: true, updateBefore: false };
  if (src.filter === undefined || src.dedup || (def.nature !== 'upsert' && def.nature !== 'changelog')) return undefined;
  const key = def.primaryKey ?? [];
  const keyOnly = [...columnsOf(src.filter)].every((c) => key.includes(c));
  if (version < '2.1') return { normalize: def.nature === 'upsert', updateBefore: true };
  if (keyOnly) return def.nature === 'upsert' ? undefined : { normalize: false, updateBefore: false };
  return { normalize: def.nature === 'upsert', updateBefore: def.nature !== 'upsert' };
}

export function buildInputPlan(src: InputSource, role: InputRole, config: EngineConfig, version?: FlinkVersion): InputPlanDraft {
  const notes: string[] = [];
  const def = src.def;
  const pk = def.primaryKey;
  const keyNames = (k: readonly number[]): string => k.map((i) => def.columns[i]?.name ?? `#${i}`).join(', ');
  let mode: readonly RowKind[] = role === 'lookup' ? [] : sourceChangelog(def);
  let producer = scanNode(src);
  let changelogNormalize: InputPlan['changelogNormalize'];
  let dropUpdateBefore = false;
  if (role !== 'lookup' && def.nature === 'changelog' && config.cdcEventsDuplicate && !pk) {
    // Flink checks this when it translates the source scan, before any join rule
    fail(`Configuration 'table.exec.source.cdc-events-duplicate' is enabled which requires the changelog sources to define a PRIMARY KEY. However, table '${qualifiedName(def.name)}' doesn't have a primary key.`,
      src.span, `declare PRIMARY KEY (...) NOT ENFORCED on ${def.name}, or set table.exec.source.cdc-events-duplicate to false`);
  }
  const filtered = role === 'versioned' && version !== undefined ? filteredVersions(src, version) : undefined;
  if ((role === 'stream' || filtered?.normalize) && pk && (def.nature === 'upsert' || (def.nature === 'changelog' && config.cdcEventsDuplicate))) {
    changelogNormalize = { key: pk };
    mode = ALL;
    producer = `ChangelogNormalize(key=[${keyNames(pk)}])`;
    notes.push(def.nature === 'upsert'
      ? `ChangelogNormalize on ${def.name} (key ${keyNames(pk)}): an upsert source sends +I/+U/-D without the old row, so Flink keeps the last row per key to produce -U and proper -D`
      : `ChangelogNormalize on ${def.name} (key ${keyNames(pk)}): table.exec.source.cdc-events-duplicate=true, so Flink deduplicates the CDC events per key; it reads only +U, so a DropUpdateBefore below it drops every -U`);
  }
  if (src.dedup) {
    const keepFirstProctime = !src.dedup.keepLast && def.columns[src.dedup.orderBy]?.timeAttr === 'proctime';
    mode = keepFirstProctime ? ['+I'] : ['+I', '-U', '+U'];
    const order = def.columns[src.dedup.orderBy]?.timeAttr === 'proctime' ? 'PROCTIME' : 'ROWTIME';
    producer = `Deduplicate(keep=[${src.dedup.keepLast ? 'LastRow' : 'FirstRow'}], key=[${keyNames(src.dedup.key)}], order=[${order}])`;
    notes.push(`${src.viewName ?? src.refName} is a deduplication (keep ${src.dedup.keepLast ? 'last' : 'first'} row per ${keyNames(src.dedup.key)}, ordered by ${def.columns[src.dedup.orderBy]?.name ?? '?'}): Flink's Deduplicate operator, keyed by ${keyNames(src.dedup.key)}`);
  }
  if (filtered?.updateBefore) {
    notes.push(`the filter on ${src.viewName ?? def.name} reads ${filtered.normalize ? 'the normalized updates' : 'updates'} and needs their -U rows, so they reach the temporal join, where a -U ends its version`);
  } else if (role === 'versioned') {
    if (mode.includes('-U') && !src.dedup && !changelogNormalize) {
      dropUpdateBefore = true;
      notes.push(`DropUpdateBefore on ${def.name}: the temporal join needs only +U from the versioned side, so Flink drops -U rows before the join`);
    }
    // the versioned side is consumed as ONLY_UPDATE_AFTER: no -U reaches the operator
    mode = mode.filter((k) => k !== '-U');
  }
  const uk = inputUniqueKey(src);
  const upsertKeys = uk ? [uk] : [];
  const plan: InputPlan = {
    table: def.name,
    alias: src.alias,
    ...(src.filter ? { filter: src.filter } : {}),
    ...(changelogNormalize ? { changelogNormalize } : {}),
    ...(src.dedup ? { deduplicate: src.dedup } : {}),
    dropUpdateBefore,
    ...(src.project ? { project: src.project } : {}),
    columns: src.columns.map((c) => (c.timeAttr ? { name: c.name, type: c.type, timeAttr: c.timeAttr } : { name: c.name, type: c.type })),
    changelogMode: mode,
    upsertKeys,
    stateTtlMs: 0,
    stateTtlSource: 'none',
  };
  return { plan, notes, producer };
}

/** Flink's JoinInputSideSpec from the input's upsert keys and its join-key columns. */
export function stateLayout(upsertKeys: readonly (readonly number[])[], joinKey: readonly number[]): StateLayout {
  if (upsertKeys.length === 0) return { kind: 'InputSideHasNoUniqueKey' };
  const smallest = (keys: readonly (readonly number[])[]): readonly number[] =>
    [...keys].sort((a, b) => a.length - b.length || a.join(',').localeCompare(b.join(',')))[0] as readonly number[];
  const contained = upsertKeys.filter((k) => k.every((c) => joinKey.includes(c)));
  if (contained.length > 0) return { kind: 'JoinKeyContainsUniqueKey', uniqueKey: smallest(contained) };
  return { kind: 'InputSideHasUniqueKey', uniqueKey: smallest(upsertKeys) };
}

export function withPlan(d: InputPlanDraft, patch: Partial<InputPlan>): InputPlanDraft {
  return { ...d, plan: { ...d.plan, ...patch } };
}
