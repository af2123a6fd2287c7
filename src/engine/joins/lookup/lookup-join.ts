/**
 * Lookup join: Flink's LookupJoinRunner (with CachingLookupFunction / DefaultLookupCache).
 *
 * Planned for `JOIN t FOR SYSTEM_TIME AS OF left.proctime` when t is a lookup source. Nothing is
 * kept for the probe side and watermarks play no part: each row looks the table up at the moment
 * it is processed.
 *
 *   processElement(row):                       // any kind: +I, -U, +U, -D
 *     key = lookup key values of row
 *     if any key value is null: rows = []      // Flink skips the lookup (skipIfArgsNull)
 *     else if cache has a live entry for key: rows = cached rows        // hit, maybe stale
 *     else: rows = store(key)                  // the table as it is *now*
 *           cache.put(key, rows) unless rows empty and !cache-missing-key
 *     for r in rows where condition(row, r): send <row.kind>[row + r]   // the input's kind
 *     if LEFT and nothing was sent:          send <row.kind>[row + nulls]
 *
 * A `-D` input therefore looks the table up again and may retract a row that differs from the
 * one emitted earlier: that is Flink's behaviour, not a bug in the simulation.
 * processStoreWrite(kind, row): upsert (+I/+U) or delete (-D) in the external table; the cache is
 * not told, so it keeps serving what it fetched until the entry expires.
 */
import { bulkWhy } from '../../why.js';
import type { Plan } from '../../../planner/plan.js';
import { compileExpr } from '../../../values/eval.js';
import { formatResultRow, formatValue } from '../../../values/format.js';
import type { Row, RowKind, Value } from '../../../values/types.js';
import type { Collector, JoinOperator, OpTime, StateView } from '../../types.js';
import { EMPTY_CACHE, putCache, readCache, type LookupCache } from '../../state/lookup-cache.js';
import { describeLookupSide } from './lookup-describe.js';
import { EMPTY_STORE, fetchRows, keyString, storeLayout, writeStore, type LookupStore, type StoredRow } from '../../state/lookup-store.js';

export interface LookupJoinState {
  readonly store: LookupStore;
  readonly cache: LookupCache;
}

export function createLookupJoin(plan: Plan): JoinOperator<LookupJoinState> {
  const layout = storeLayout(plan);
  const keyExprs = (plan.lookup?.keys ?? []).map((k) => compileExpr(k.left));
  const cacheConfig = plan.lookup?.cache;
  const condition = plan.residual === undefined ? undefined : compileExpr(plan.residual);
  const lookupFilter = plan.inputs[1].filter === undefined ? undefined : compileExpr(plan.inputs[1].filter);
  const leftTypes = plan.inputs[0].columns.map((c) => c.type);
  const rightTypes = plan.inputs[1].columns.map((c) => c.type);
  const keyTypes = (plan.lookup?.keys ?? []).map((k) => k.left.type);
  const nulls: Value[] = rightTypes.map(() => null);
  const outer = plan.joinType === 'left';
  const rightName = plan.inputs[1].alias;

  const showLeft = (row: Row) => formatResultRow(row, leftTypes);
  const showRight = (row: Row) => formatResultRow(row, rightTypes);
  const showKey = (values: readonly Value[]) => values.map((v, i) => formatValue(keyTypes[i]!, v)).join(', ');

  function lookUp(state: LookupJoinState, key: string, shownKey: string, now: number, out: Collector) {
    if (cacheConfig === undefined) {
      const rows = fetchRows(state.store, key);
      out.trace({ t: 'lookup', key: shownKey, result: 'miss', rows: rows.map((r) => showRight(r.row)) });
      return { state, rows, fromCache: false };
    }
    let cache = state.cache;
    const read = readCache(cacheConfig, cache, key, now);
    cache = read.cache;
    if (read.outcome === 'hit') {
      out.trace({ t: 'lookup', key: shownKey, result: read.rows.length === 0 ? 'miss-cached' : 'hit', rows: read.rows.map((r) => showRight(r.row)) });
      return { state: { ...state, cache }, rows: read.rows, fromCache: true };
    }
    if (read.outcome === 'expired') {
      out.trace({ t: 'cache', op: 'expire', key: shownKey, reason: `entry was ${read.age} ms old; the cache's expiry passed` });
    }
    const rows = fetchRows(state.store, key);
    out.trace({ t: 'lookup', key: shownKey, result: 'miss', rows: rows.map((r) => showRight(r.row)) });
    const put = putCache(cacheConfig, cache, key, rows, now);
    if (put.stored) out.trace({ t: 'cache', op: 'put', key: shownKey, reason: rows.length === 0 ? 'missing key cached (cache-missing-key)' : `${rows.length} row(s) cached` });
    if (put.evicted !== undefined) out.trace({ t: 'cache', op: 'evict', key: put.evicted, reason: `max-rows ${cacheConfig.maxRows ?? ''} reached: least recently used key evicted` });
    return { state: { ...state, cache: put.cache }, rows, fromCache: false };
  }

  function matches(left: Row, candidate: StoredRow, time: OpTime): Row | undefined {
    const ctx = { procTime: time.procTime, timeZone: 'UTC' };
    if (lookupFilter !== undefined && lookupFilter(candidate.raw, ctx) !== true) return undefined;
    const joined = [...left, ...candidate.row];
    if (condition !== undefined && condition(joined, ctx) !== true) return undefined;
    return joined;
  }

  return {
    outputWatermarkDelay: 0,
    init: () => ({ store: EMPTY_STORE, cache: EMPTY_CACHE }),

    processElement(state, _side, kind: RowKind, row, time, out) {
      const ctx = { procTime: time.procTime, timeZone: 'UTC' };
      const keyValues = keyExprs.map((f) => f(row, ctx));
      const shownKey = showKey(keyValues);
      let rows: readonly StoredRow[] = [];
      let fromCache = false;
      let next = state;
      if (keyValues.some((v) => v === null)) {
        out.trace({ t: 'no-match', side: 0, row: showLeft(row), reason: 'a lookup key is null: Flink skips the lookup' });
      } else {
        ({ state: next, rows, fromCache } = lookUp(state, keyString(keyValues), shownKey, time.procTime, out));
      }
      let sent = 0;
      for (const candidate of rows) {
        const joined = matches(row, candidate, time);
        if (joined === undefined) continue;
        sent++;
        const source = fromCache ? `the cached ${rightName} row` : `${rightName} as it is now`;
        if (!out.tracing) {
          out.emit(kind, joined, bulkWhy(fromCache ? 'lookup.hit' : 'lookup.match'));
          continue;
        }
        out.emit(kind, joined, {
          rule: fromCache ? 'lookup.hit' : 'lookup.match',
          text: `${kind}${showLeft(row)} looked up ${rightName}(${shownKey}) and matched ${source}; the output keeps the input's kind ${kind}`,
          rows: [`${plan.inputs[0].alias} ${kind}${showLeft(row)}`, `${rightName} ${showRight(candidate.row)}`],
        });
      }
      if (sent === 0 && outer && !out.tracing) {
        out.emit(kind, [...row, ...nulls], bulkWhy('lookup.pad'));
      } else if (sent === 0 && outer) {
        out.emit(kind, [...row, ...nulls], {
          rule: 'lookup.pad',
          text: `${kind}${showLeft(row)} found no ${rightName} row for (${shownKey}): LEFT JOIN pads with nulls, kind ${kind}`,
          rows: [`${plan.inputs[0].alias} ${kind}${showLeft(row)}`],
        });
      } else if (sent === 0) {
        out.trace({ t: 'no-match', side: 0, row: showLeft(row), reason: `no ${rightName} row for (${shownKey}): an inner lookup join emits nothing` });
      }
      return next;
    },

    processStoreWrite(state, kind, row, _time, out) {
      const { store } = writeStore(state.store, layout, kind, row);
      out.trace({ t: 'store.write', table: plan.inputs[1].table, kind, row: formatResultRow(row, rightTypesOfTable(plan)) });
      return { ...state, store };
    },

    onWatermark: (state) => state,
    onProcessingTime: (state) => state,
    nextProcessingTimer: () => undefined,

    describe(state, side, time): StateView {
      return describeLookupSide(plan, state, side, time, showRight);
    },
  };
}

function rightTypesOfTable(plan: Plan) {
  const table = plan.tables.find((t) => t.name === plan.inputs[1].table);
  return (table?.columns ?? []).map((c) => c.type);
}
