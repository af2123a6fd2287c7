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
  /** Tables the query scans (a lookup table is not scanned), with whether each declares a WATERMARK. */
  readonly sources: readonly { readonly table: string; readonly watermark: boolean }[];
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

/**
 * What the sink connector's getChangelogMode(input mode) makes of the sink, in
 * FlinkChangelogModeInferenceProgram's terms: upsert-kafka and jdbc (JdbcDynamicTableSink: INSERT,
 * UPDATE_AFTER, DELETE whatever the input) are always upsert sinks; print passes the requested mode
 * through (a retract sink once the input updates); blackhole keeps every requested kind but
 * UPDATE_BEFORE, so it is an append sink for an insert-only query.
 */
function sinkKind(connector: string, updating: boolean): 'append' | 'retract' | 'upsert' {
  if (connector === 'upsert-kafka' || connector === 'jdbc') return 'upsert';
  if (!updating) return 'append';
  return connector === 'print' ? 'retract' : 'upsert';
}

export function planSink(stmt: InsertStmt, tables: ReadonlyMap<string, TableDef>, q: SinkInput, version: FlinkVersion, mode: 'AUTO' | 'NONE' | 'FORCE', requireOnConflict = true): SinkDecision {
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
  const kind = sinkKind(def.connector, updating);
  const since23 = version >= '2.3';
  if (since23 && stmt.onConflict) checkOnConflict(stmt, full, kind, q);
  let upsertMaterialize = false;
  if (pk && mode === 'FORCE') upsertMaterialize = kind !== 'retract';
  else if (pk && mode === 'AUTO' && kind === 'upsert') {
    // FlinkChangelogModeInferenceProgram.analyzeUpsertMaterializeStrategy. Up to 2.2 an insert-only
    // input never gets a materializer; from 2.3 only ON CONFLICT DO DEDUPLICATE spares it, and a
    // key mismatch without ON CONFLICT is rejected (table.exec.sink.require-on-conflict).
    if (!since23) upsertMaterialize = updating && !sinkKeyCovers;
    else if (!(!updating && stmt.onConflict === 'DEDUPLICATE')) {
      if (!sinkKeyCovers && requireOnConflict && stmt.onConflict === undefined) rejectMissingOnConflict(stmt, full, pk, q.upsertKeys, physical);
      upsertMaterialize = !sinkKeyCovers;
    }
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

/** Flink 2.3's checks of an ON CONFLICT clause (analyzeUpsertMaterializeStrategy). */
function checkOnConflict(stmt: InsertStmt, full: string, kind: 'append' | 'retract' | 'upsert', q: SinkInput): void {
  if (kind !== 'upsert') {
    const reason = kind === 'append' ? 'it only accepts INSERT (append-only) changes' : 'it requires UPDATE_BEFORE (retract mode)';
    fail(`ON CONFLICT clause is only allowed for upsert sinks. The sink '${full}' is not an upsert sink because ${reason}.`, stmt.target,
      kind === 'append' ? 'this query only inserts, so the sink never sees a conflict to resolve: drop ON CONFLICT' : 'a print sink takes retractions as they come: drop ON CONFLICT, or write to an upsert sink (upsert-kafka, jdbc)');
  }
  if (stmt.onConflict === 'ERROR' || stmt.onConflict === 'NOTHING') {
    const missing = q.sources.filter((s) => !s.watermark).map((s) => qualifiedName(s.table));
    if (missing.length > 0) {
      fail(`ON CONFLICT DO ${stmt.onConflict} requires all source tables to define watermarks, but the following source(s) do not: ${missing.join(', ')}. Please add a WATERMARK declaration to these tables.`,
        stmt.target, 'Flink compacts the conflicting rows per watermark: declare WATERMARK FOR <time column> on every scanned table, or use ON CONFLICT DO DEDUPLICATE');
    }
  }
}

/** table.exec.sink.require-on-conflict (2.3+): a primary key that does not contain the upsert key needs ON CONFLICT. */
function rejectMissingOnConflict(stmt: InsertStmt, full: string, pk: readonly number[], upsertKeys: readonly (readonly number[])[], physical: readonly { readonly name: string }[]): never {
  // the primary key in its declared order; an upsert key is a bit set, printed in ascending order
  const names = (k: readonly number[]) => `[${k.map((i) => physical[i]?.name).join(', ')}]`;
  const cols = (k: readonly number[]) => names([...k].sort((a, b) => a - b));
  // StreamPhysicalSink.getUpsertKeyNames prints every upsert key, comma-separated ('' when there is none)
  fail(`The query has an upsert key that differs from the primary key of the sink table '${full}'. Primary key: ${names(pk)}, upsert key: ${upsertKeys.map(cols).join(', ')}. `
    + 'This can lead to non-deterministic results when multiple records with different upsert keys map to the same primary key. '
    + 'Please specify an ON CONFLICT clause to define how conflicts should be handled: ON CONFLICT DO DEDUPLICATE (update to the latest record, state intensive, since we need to keep the entire history), or ON CONFLICT DO ERROR (fail on conflict), or ON CONFLICT DO NOTHING (keep first record).',
  stmt.target, 'Flink 2.3 asks how rows of different upsert keys that share a sink key should resolve: add ON CONFLICT DO DEDUPLICATE to keep the 2.2 behaviour (a SinkUpsertMaterializer), or set table.exec.sink.require-on-conflict: false');
}
