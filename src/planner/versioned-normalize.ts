/**
 * The ChangelogNormalize in front of an event-time temporal join's upsert versioned side, from 2.1.
 * Flink plans one and then drops it when nothing needs it (ChangelogNormalizeRequirementResolver,
 * in FlinkChangelogModeInferenceProgram): the temporal join takes updates without -U, so it stays
 * only when it holds a filter (filtered sides: input-plan.ts) or when a metadata column reaches it.
 * Everything the versioned side passes on reaches it (the columns the query reads of that side, its
 * join key and its rowtime, and what their computed columns are computed from), so reading a
 * Kafka metadata column there (an offset, the record timestamp as event time, ...) keeps it: a
 * tombstone then becomes -D of the stored row, at the stored row's time, not a key-only delete.
 */
import type { InputPlanDraft } from './input-plan.js';
import { sourceColumnsRead, type JoinedReads } from './input-columns.js';
import type { FlinkVersion, TableDef } from './plan.js';
import { columnsOf } from './texpr-util.js';

export function keepVersionedNormalize(d: InputPlanDraft, def: TableDef | undefined, joinKey: readonly number[], reads: JoinedReads, version: FlinkVersion): InputPlanDraft {
  const p = d.plan;
  const pk = def?.primaryKey;
  if (def === undefined || pk === undefined || version < '2.1' || def.nature !== 'upsert') return d;
  if (p.changelogNormalize !== undefined || p.filter !== undefined || p.deduplicate !== undefined) return d;
  const time = p.timeAttr === undefined ? [] : [p.timeAttr.index];
  const source = new Set(sourceColumnsRead(p, 1, [...joinKey, ...time], reads));
  for (const c of [...source]) {
    const expr = def.columns[c]?.expr;
    if (expr !== undefined) columnsOf(expr, source);
  }
  const metadata = def.columns.filter((c, i) => c.kind === 'metadata' && source.has(i)).map((c) => c.name);
  if (metadata.length === 0) return d;
  const keyNames = pk.map((i) => def.columns[i]?.name ?? `#${i}`).join(', ');
  return {
    ...d,
    plan: { ...p, changelogNormalize: { key: pk }, changelogMode: ['+I', '+U', '-D'] },
    producer: `ChangelogNormalize(key=[${keyNames}])`,
    notes: [...d.notes, `ChangelogNormalize on ${def.name} (key ${keyNames}) stays: the query reads its metadata column${metadata.length > 1 ? 's' : ''} ${metadata.join(', ')}, so Flink keeps it (ChangelogNormalizeRequirementResolver); it sends no -U, and a tombstone becomes -D of the stored row`],
  };
}
