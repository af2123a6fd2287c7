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
 *
 * A LEFT join's left-only ON conditions are the runner's pre-filter: a row failing it is not looked
 * up at all, only padded.
 *
 * What reaches processElement depends on what the sink asks for (planner/lookup-update-kind.ts):
 * with an upsert sink on the query's upsert key no -U arrives, and from 2.1 an upsert source comes
 * without ChangelogNormalize, so a tombstone arrives as -D[key, nulls]: a null lookup key, padded
 * (LEFT) or dropped (INNER) by the runner, answered from the kept rows by the keyed wrapper.
 *
 * With TRY_RESOLVE over an updating input Flink wraps the runner in KeyedLookupJoinWrapper, keyed
 * by the input's upsert key (or the whole row), with state TTL table.exec.state.ttl:
 *
 *   +I / +U: if the pre-filter passes: forget the key's rows, look up as above, and keep every
 *            fetched row (after the lookup table's filter, before the join condition; none = an
 *            empty marker); emit as above
 *   -U / -D: if the pre-filter passes: for each kept row r: send -D[row + r] (DELETE whatever the
 *            input kind); no kept rows and no marker (never seen, or expired): nothing; forget the key
 *            LEFT and nothing sent: -D[row + nulls]
 */
import { bulkWhy } from '../../why.js';
import type { Plan } from '../../../planner/plan.js';
import { compileExpr } from '../../../values/eval.js';
import { formatResultRow, formatValue } from '../../../values/format.js';
import { isAccumulate, type Row, type RowKind, type Value } from '../../../values/types.js';
import { rowKey } from '../../keys.js';
import type { Collector, JoinOperator, OpTime, StateView } from '../../types.js';
import { EMPTY_CACHE, putCache, readCache, type LookupCache } from '../../state/lookup-cache.js';
import { forgetRows, isLive, keepRows, keptRowsOf, NO_KEPT_ROWS, type KeptRowsState } from '../../state/lookup-kept-rows.js';
import { describeLookupSide } from './lookup-describe.js';
import { EMPTY_STORE, fetchRows, keyString, storeLayout, writeStore, type LookupStore, type StoredRow } from '../../state/lookup-store.js';

export interface LookupJoinState {
  readonly store: LookupStore;
  readonly cache: LookupCache;
  /** KeyedLookupJoinWrapper state by input key (materialize only). */
  readonly keyed: KeptRowsState;
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
  const preFilter = plan.lookup?.preFilter === undefined ? undefined : compileExpr(plan.lookup.preFilter);
  const keyedBy = plan.lookup?.materialize === true ? keyedStateKey(plan) : undefined;
  const keyedTtl = keyedBy === undefined ? 0 : keyedStateTtl(plan);

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

  /** The lookup table's own filter (Flink's calc on the fetched rows). */
  function fetched(candidate: StoredRow, time: OpTime): boolean {
    return lookupFilter === undefined || lookupFilter(candidate.raw, { procTime: time.procTime, timeZone: 'UTC' }) === true;
  }

  function matches(left: Row, candidate: StoredRow, time: OpTime): Row | undefined {
    const ctx = { procTime: time.procTime, timeZone: 'UTC' };
    if (!fetched(candidate, time)) return undefined;
    const joined = [...left, ...candidate.row];
    if (condition !== undefined && condition(joined, ctx) !== true) return undefined;
    return joined;
  }

  function passesPreFilter(row: Row, time: OpTime, out: Collector): boolean {
    if (preFilter === undefined || preFilter(row, { procTime: time.procTime, timeZone: 'UTC' }) === true) return true;
    out.trace({ t: 'no-match', side: 0, row: showLeft(row), reason: `the ON condition on ${plan.inputs[0].alias} alone fails: Flink does not look it up (pre-filter)` });
    return false;
  }

  /** KeyedLookupJoinWrapper, retract branch: answer from the kept rows, always as DELETE. */
  function retractFromState(state: LookupJoinState, kind: RowKind, row: Row, time: OpTime, out: Collector): LookupJoinState {
    let sent = 0;
    let next = state;
    if (passesPreFilter(row, time, out)) {
      const key = rowKey(row, keyedBy);
      const entry = keptRowsOf(state.keyed, key);
      const live = entry !== undefined && isLive(entry, keyedTtl, time.procTime) ? entry : undefined;
      if (live === undefined) {
        out.trace({ t: 'no-match', side: 0, row: showLeft(row), reason: entry === undefined
          ? `no rows kept for this ${plan.inputs[0].alias} key: nothing to retract (KeyedLookupJoinWrapper)`
          : `the rows kept for this ${plan.inputs[0].alias} key expired (table.exec.state.ttl): nothing to retract` });
      }
      for (const right of live?.rights ?? []) {
        sent++;
        const joined = [...row, ...right];
        if (!out.tracing) {
          out.emit('-D', joined, bulkWhy('lookup.retract-kept'));
          continue;
        }
        out.emit('-D', joined, {
          rule: 'lookup.retract-kept',
          text: `${kind}${showLeft(row)} is answered from the rows kept for its key, not by a new lookup: KeyedLookupJoinWrapper sends -D whatever the input kind`,
          rows: [`${plan.inputs[0].alias} ${kind}${showLeft(row)}`, `${rightName} ${showRight(right)} (kept)`],
        });
      }
      if (entry !== undefined) next = { ...state, keyed: forgetRows(state.keyed, key) };
    }
    if (sent === 0 && outer) {
      out.emit('-D', [...row, ...nulls], out.tracing
        ? { rule: 'lookup.pad', text: `${kind}${showLeft(row)} has no kept ${rightName} row: LEFT JOIN retracts the padded row, as -D`, rows: [`${plan.inputs[0].alias} ${kind}${showLeft(row)}`] }
        : bulkWhy('lookup.pad'));
    }
    return next;
  }

  return {
    outputWatermarkDelay: 0,
    init: () => ({ store: EMPTY_STORE, cache: EMPTY_CACHE, keyed: NO_KEPT_ROWS }),

    processElement(state, _side, kind: RowKind, row, time, out) {
      if (keyedBy !== undefined && !isAccumulate(kind)) return retractFromState(state, kind, row, time, out);
      const ctx = { procTime: time.procTime, timeZone: 'UTC' };
      const keyValues = keyExprs.map((f) => f(row, ctx));
      const shownKey = showKey(keyValues);
      let rows: readonly StoredRow[] = [];
      let fromCache = false;
      let next = state;
      const looked = passesPreFilter(row, time, out);
      if (!looked) {
        // neither looked up nor kept: the wrapper leaves the key's state as it was
      } else if (keyValues.some((v) => v === null)) {
        out.trace({ t: 'no-match', side: 0, row: showLeft(row), reason: 'a lookup key is null: Flink skips the lookup' });
      } else {
        ({ state: next, rows, fromCache } = lookUp(state, keyString(keyValues), shownKey, time.procTime, out));
      }
      if (keyedBy !== undefined && looked) {
        // every fetched row is kept, matched by the join condition or not (the wrapper's
        // listener sees rows before the condition)
        const rights = rows.filter((r) => fetched(r, time)).map((r) => r.row);
        next = { ...next, keyed: keepRows(next.keyed, rowKey(row, keyedBy), rights, time.procTime) };
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

/** The wrapper's key: the planned state key, without processing-time columns (not materialized, so equal in every row). */
function keyedStateKey(plan: Plan): readonly number[] {
  const cols = plan.inputs[0].columns;
  return (plan.lookup?.stateKey ?? cols.map((_, i) => i)).filter((i) => cols[i]?.timeAttr !== 'proctime');
}

/**
 * table.exec.state.ttl for the wrapper's state. Up to 2.1 the list state (lookup keys without the
 * table's primary key) was created before its TTL was set, so it never expired; fixed in 2.2
 * ("Fix incorrect state ttl setting in KeyedLookupJoinWrapper", 2025-09).
 */
export function keyedStateTtl(plan: Plan): number {
  const ttl = plan.inputs[0].stateTtlMs;
  if (plan.lookup?.lookupKeyContainsPrimaryKey === true) return ttl;
  return plan.flinkVersion === '2.0' || plan.flinkVersion === '2.1' ? 0 : ttl;
}

function rightTypesOfTable(plan: Plan) {
  const table = plan.tables.find((t) => t.name === plan.inputs[1].table);
  return (table?.columns ?? []).map((c) => c.type);
}
