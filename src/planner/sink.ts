/**
 * INSERT INTO: the sink's schema check, whether the sink accepts the query's changelog, and the
 * SinkUpsertMaterializer decision (table.exec.sink.upsert-materialize, FlinkChangelogModeInferenceProgram).
 */
import type { InsertStmt } from '../sql/ast.js';
import type { RowKind, SqlType } from '../values/types.js';
import { qualifiedName } from './connector.js';
import { didYouMean, fail } from './errors.js';
import type { FlinkVersion, JoinFamily, JoinType, SinkPlan, TableDef } from './plan.js';
import { flinkTypeName } from './type-names.js';
import { comparable, isCharacter } from './type-rules.js';

const JOIN_NODE: Record<JoinType, string> = { inner: 'InnerJoin', left: 'LeftOuterJoin', right: 'RightOuterJoin', full: 'FullOuterJoin' };

export interface SinkInput {
  readonly names: readonly string[];
  readonly types: readonly SqlType[];
  readonly changelogMode: readonly RowKind[];
  readonly upsertKeys: readonly (readonly number[])[];
  readonly family: JoinFamily;
  readonly joinType: JoinType;
}

export interface SinkDecision {
  readonly sink: SinkPlan;
  readonly notes: string[];
}

function castable(from: SqlType, to: SqlType): boolean {
  // Flink inserts implicit casts into the sink's types; only unrelated families fail
  return comparable(from, to) || isCharacter(to);
}

export function planSink(stmt: InsertStmt, tables: ReadonlyMap<string, TableDef>, q: SinkInput, version: FlinkVersion, mode: 'AUTO' | 'NONE' | 'FORCE'): SinkDecision {
  const def = tables.get(stmt.target.value);
  if (!def) fail(`Object '${stmt.target.value}' not found`, stmt.target, didYouMean(stmt.target.value, [...tables.keys()], 'table'));
  const full = qualifiedName(def.name);
  const physical = def.columns.filter((c) => c.kind !== 'computed' && !(c.kind === 'metadata' && c.virtual));
  const schemas = `\n\nQuery schema: [${q.names.map((n, i) => `${n}: ${flinkTypeName(q.types[i] as SqlType)}`).join(', ')}]\nSink schema:  [${physical.map((c) => `${c.name}: ${flinkTypeName(c.type)}`).join(', ')}]`;
  if (physical.length !== q.names.length) {
    fail(`Column types of query result and sink for '${full}' do not match.\nCause: Different number of columns.${schemas}`, stmt.target,
      `the query produces ${q.names.length} columns, ${def.name} has ${physical.length}`);
  }
  physical.forEach((c, i) => {
    const from = q.types[i] as SqlType;
    if (!castable(from, c.type)) {
      fail(`Column types of query result and sink for '${full}' do not match.\nCause: Incompatible types for sink column '${c.name}' at position ${i}.${schemas}`, stmt.target,
        `CAST the query's column ${q.names[i]} (${flinkTypeName(from)}) to ${flinkTypeName(c.type)}`);
    }
  });
  if (stmt.onConflict && version < '2.3') {
    fail(`ON CONFLICT is a Flink 2.3 feature, but the scenario simulates Flink ${version}`, stmt.target, 'set flink-version: "2.3" or remove ON CONFLICT');
  }
  const notes: string[] = [];
  // the primary key in sink-row positions (the query's output positions)
  const pk = def.primaryKey?.map((i) => physical.indexOf(def.columns[i] as (typeof physical)[number]));
  const updating = q.changelogMode.some((k) => k !== '+I');
  const acceptsUpdates = pk !== undefined || def.connector === 'print' || def.connector === 'blackhole';
  if (updating && !acceptsUpdates) {
    const kinds = [q.changelogMode.some((k) => k === '-U' || k === '+U') ? 'update' : '', q.changelogMode.includes('-D') ? 'delete' : ''].filter(Boolean).join(' and ');
    fail(`Table sink '${full}' doesn't support consuming ${kinds} changes which is produced by node Join(joinType=[${q.family === 'semi' ? 'LeftSemiJoin' : q.family === 'anti' ? 'LeftAntiJoin' : JOIN_NODE[q.joinType]}], ...)`,
      stmt.target, `${def.name} is append-only (${def.connector}); declare a PRIMARY KEY on an upsert sink (upsert-kafka, jdbc) to write this join's updates`);
  }
  const sinkKeyCovers = pk !== undefined && q.upsertKeys.some((k) => k.every((c) => pk.includes(c)));
  let upsertMaterialize = false;
  if (pk && mode === 'FORCE') upsertMaterialize = true;
  else if (pk && mode === 'AUTO') {
    const dedupInsertOnly = !updating && stmt.onConflict === 'DEDUPLICATE';
    upsertMaterialize = updating && !sinkKeyCovers && !dedupInsertOnly;
  }
  if (pk) {
    const pkNames = pk.map((i) => physical[i]?.name).join(', ');
    if (upsertMaterialize) {
      notes.push(mode === 'FORCE'
        ? `SinkUpsertMaterializer before ${def.name}: table.exec.sink.upsert-materialize = FORCE`
        : `SinkUpsertMaterializer before ${def.name}: the join's changes are not keyed by the sink's primary key (${pkNames}), so Flink keeps every live row per key to order them (table.exec.sink.upsert-materialize = AUTO)`);
    } else if (updating) {
      notes.push(mode === 'NONE'
        ? `no SinkUpsertMaterializer (table.exec.sink.upsert-materialize = NONE): out-of-order changes for a key reach ${def.name} as they come`
        : `no SinkUpsertMaterializer: the join's upsert key is contained in the sink's primary key (${pkNames})`);
    }
  }
  const sink: SinkPlan = {
    table: def.name,
    ...(pk ? { primaryKey: pk } : {}),
    upsertMaterialize,
    ...(stmt.onConflict ? { onConflict: stmt.onConflict } : {}),
    columns: physical.map((c) => ({ name: c.name, type: c.type })),
  };
  if (stmt.onConflict && stmt.onConflict !== 'DEDUPLICATE') notes.push(`ON CONFLICT DO ${stmt.onConflict}: Flink 2.3 uses a watermark-compacting materializer here, which joinstep has not studied; the plan records the clause`);
  return { sink, notes };
}
