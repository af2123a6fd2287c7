/**
 * The external table behind a lookup join (a JDBC / HBase table), as plain persistent data.
 *
 * Row events addressed to a lookup table are writes to this store, not stream rows: `+I`/`+U`
 * upsert by primary key (the whole row when the table has none), `-D` deletes. A lookup reads
 * the store as it is at that processing time; rows come back in the order they were first written.
 */
import type { Plan } from '../../planner/plan.js';
import type { Row, RowKind } from '../../values/types.js';
import { compileExpr } from '../../values/eval.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmSize, pmValues, type PMap } from '../collections/pmap.js';

export interface StoredRow {
  /** The table row as written (filters on the lookup side are evaluated on it). */
  readonly raw: Row;
  /** The row as the join sees it (the input projection applied). */
  readonly row: Row;
  /** First-write order, so fetched rows come back in a stable order. */
  readonly seq: number;
  readonly pk: string;
}

export interface LookupStore {
  readonly byPk: PMap<StoredRow>;
  /** lookup key → (pk → row): the rows a lookup with that key fetches. */
  readonly byKey: PMap<PMap<StoredRow>>;
  readonly seq: number;
}

export const EMPTY_STORE: LookupStore = { byPk: PMAP_EMPTY, byKey: PMAP_EMPTY, seq: 0 };

/** JSON of the values: unambiguous for every value type (strings, numbers, booleans, null). */
export function keyString(values: readonly unknown[]): string {
  return JSON.stringify(values);
}

export interface StoreLayout {
  readonly pkIndexes: readonly number[] | undefined;
  readonly keyColumns: readonly number[];
  readonly project: ((raw: Row) => Row) | undefined;
}

export function storeLayout(plan: Plan): StoreLayout {
  const input = plan.inputs[1];
  const table = plan.tables.find((t) => t.name === input.table);
  const projectors = input.project?.map((e) => compileExpr(e));
  const ctx = { procTime: 0, timeZone: 'UTC' };
  return {
    pkIndexes: table?.primaryKey,
    keyColumns: (plan.lookup?.keys ?? []).map((k) => k.rightColumn),
    project: projectors === undefined ? undefined : (raw) => projectors.map((f) => f(raw, ctx)),
  };
}

function pkOf(layout: StoreLayout, raw: Row): string {
  return keyString(layout.pkIndexes === undefined ? raw : layout.pkIndexes.map((i) => raw[i] ?? null));
}

function lookupKeyOf(layout: StoreLayout, row: Row): string {
  return keyString(layout.keyColumns.map((i) => row[i] ?? null));
}

function unindex(store: LookupStore, layout: StoreLayout, old: StoredRow): PMap<PMap<StoredRow>> {
  const key = lookupKeyOf(layout, old.row);
  const bucket = pmGet(store.byKey, key);
  if (bucket === undefined) return store.byKey;
  const next = pmDelete(bucket, old.pk);
  return pmSize(next) === 0 ? pmDelete(store.byKey, key) : pmSet(store.byKey, key, next);
}

/** Applies one write; returns the new store and the row it replaced or deleted, if any. */
export function writeStore(
  store: LookupStore,
  layout: StoreLayout,
  kind: RowKind,
  raw: Row,
): { store: LookupStore; previous: StoredRow | undefined } {
  const pk = pkOf(layout, raw);
  const previous = pmGet(store.byPk, pk);
  let byKey = previous === undefined ? store.byKey : unindex(store, layout, previous);
  if (kind === '-D' || kind === '-U') {
    return { store: { byPk: pmDelete(store.byPk, pk), byKey, seq: store.seq }, previous };
  }
  const row = layout.project === undefined ? raw : layout.project(raw);
  const stored: StoredRow = { raw, row, pk, seq: previous?.seq ?? store.seq };
  const key = lookupKeyOf(layout, row);
  byKey = pmSet(byKey, key, pmSet(pmGet(byKey, key) ?? PMAP_EMPTY, pk, stored));
  return { store: { byPk: pmSet(store.byPk, pk, stored), byKey, seq: store.seq + 1 }, previous };
}

/** What the connector returns for a lookup key now, in first-write order. */
export function fetchRows(store: LookupStore, key: string): StoredRow[] {
  const bucket = pmGet(store.byKey, key);
  if (bucket === undefined) return [];
  return pmValues(bucket).sort((a, b) => a.seq - b.seq);
}

export function allRows(store: LookupStore): StoredRow[] {
  return pmValues(store.byPk).sort((a, b) => a.seq - b.seq);
}
