/** The lookup join's state for the state pane: the probe side keeps nothing; the table side shows the cache and the store. */
import type { Plan } from '../../../planner/plan.js';
import type { Row } from '../../../values/types.js';
import type { OpTime, StateEntryView, StateView } from '../../types.js';
import { cacheEntries, expiresAt } from '../../state/lookup-cache.js';
import { allKeptRows } from '../../state/lookup-kept-rows.js';
import { keyedStateTtl, type LookupJoinState } from './lookup-join.js';
import { allRows } from '../../state/lookup-store.js';
import { stateViewOf } from '../../describe.js';

function cacheLayout(plan: Plan): string {
  const c = plan.lookup?.cache;
  if (c === undefined) return 'no cache: every row queries the table';
  const parts = [
    c.maxRows === undefined ? undefined : `max-rows ${c.maxRows} keys`,
    c.expireAfterWriteMs === undefined ? undefined : `expire-after-write ${c.expireAfterWriteMs} ms`,
    c.expireAfterAccessMs === undefined ? undefined : `expire-after-access ${c.expireAfterAccessMs} ms`,
    c.cacheMissingKey ? 'caches missing keys' : 'does not cache missing keys',
  ].filter((p): p is string => p !== undefined);
  return `partial cache (${parts.join(', ')})`;
}

export function describeLookupSide(
  plan: Plan,
  state: LookupJoinState,
  side: 0 | 1,
  time: OpTime,
  showRight: (row: Row) => string,
): StateView {
  if (side === 0) {
    if (plan.lookup?.materialize !== true) {
      return stateViewOf('lookup join keeps no state for its input: each row is looked up when it arrives', []);
    }
    const ttl = keyedStateTtl(plan);
    const kept: StateEntryView[] = [];
    for (const [key, entry] of allKeptRows(state.keyed)) {
      const row = entry.rights.length === 0 ? '(nothing fetched)' : entry.rights.map(showRight).join(' ');
      kept.push(ttl > 0 ? { key, row, tags: ['kept'], expiresAt: entry.writtenAt + ttl, expiryDomain: 'proc' } : { key, row, tags: ['kept'] });
    }
    return stateViewOf('KeyedLookupJoinWrapper: the rows fetched per input key, answering its -U/-D', kept);
  }
  const entries: StateEntryView[] = [];
  const config = plan.lookup?.cache;
  if (config !== undefined) {
    for (const [key, entry] of cacheEntries(state.cache)) {
      const until = expiresAt(config, entry);
      const due = until !== undefined && time.procTime >= until;
      const rows = entry.rows.length === 0 ? '(missing key)' : entry.rows.map((r) => showRight(r.row)).join(' ');
      const tags = ['cache', `hits=${entry.hits}`, ...(due ? ['expired'] : [])];
      entries.push(until === undefined ? { key, row: rows, tags } : { key, row: rows, tags, expiresAt: until, expiryDomain: 'proc' });
    }
  }
  for (const stored of allRows(state.store)) {
    entries.push({ key: stored.pk, row: showRight(stored.row), tags: ['table'] });
  }
  const s = state.cache.stats;
  const stats = config === undefined ? '' : ` · hits ${s.hits}, misses ${s.misses}, evictions ${s.evictions}, expired ${s.expirations}`;
  return stateViewOf(`${plan.inputs[1].table} (external table) · ${cacheLayout(plan)}${stats}`, entries);
}
