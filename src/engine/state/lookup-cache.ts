/**
 * Flink's partial lookup cache (DefaultLookupCache, a Guava cache), as plain persistent data.
 *
 * - keyed by the lookup key; a value is the whole collection of rows the lookup returned;
 * - `max-rows` bounds the number of KEYS (Guava maximumSize), evicting the least recently used;
 * - `expire-after-write` counts from the put, `expire-after-access` from the last read; an entry is
 *   expired once `now - stamp >= ttl` (Guava's check), and an expired entry is never returned;
 * - an empty result is cached only with `cache-missing-key` (default true);
 * - writes to the external table never invalidate it: a cached value can be stale. That is the point.
 * Expiry is lazy, as in Guava (cleanup happens on access); the state pane marks due entries.
 */
import type { LookupCacheConfig } from '../../planner/plan.js';
import { PMAP_EMPTY, pmDelete, pmEntries, pmGet, pmSet, pmSize, type PMap } from '../collections/pmap.js';
import type { StoredRow } from './lookup-store.js';

export interface CacheEntry {
  readonly rows: readonly StoredRow[];
  readonly writtenAt: number;
  readonly accessedAt: number;
  /** Recency stamp for LRU eviction (larger = used more recently). */
  readonly touch: number;
  readonly hits: number;
}

export interface CacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
  readonly expirations: number;
}

export interface LookupCache {
  readonly entries: PMap<CacheEntry>;
  readonly touch: number;
  readonly stats: CacheStats;
}

export const EMPTY_CACHE: LookupCache = {
  entries: PMAP_EMPTY,
  touch: 0,
  stats: { hits: 0, misses: 0, evictions: 0, expirations: 0 },
};

/** When the entry stops being served, or undefined when it never expires. */
export function expiresAt(config: LookupCacheConfig, entry: CacheEntry): number | undefined {
  const byWrite = config.expireAfterWriteMs === undefined ? undefined : entry.writtenAt + config.expireAfterWriteMs;
  const byAccess = config.expireAfterAccessMs === undefined ? undefined : entry.accessedAt + config.expireAfterAccessMs;
  if (byWrite === undefined) return byAccess;
  if (byAccess === undefined) return byWrite;
  return Math.min(byWrite, byAccess);
}

export type CacheRead =
  | { readonly outcome: 'hit'; readonly cache: LookupCache; readonly rows: readonly StoredRow[] }
  | { readonly outcome: 'expired'; readonly cache: LookupCache; readonly age: number }
  | { readonly outcome: 'absent'; readonly cache: LookupCache };

export function readCache(config: LookupCacheConfig, cache: LookupCache, key: string, now: number): CacheRead {
  const entry = pmGet(cache.entries, key);
  if (entry === undefined) return { outcome: 'absent', cache };
  const until = expiresAt(config, entry);
  if (until !== undefined && now >= until) {
    const stats = { ...cache.stats, expirations: cache.stats.expirations + 1 };
    return { outcome: 'expired', cache: { ...cache, entries: pmDelete(cache.entries, key), stats }, age: now - entry.writtenAt };
  }
  const touch = cache.touch + 1;
  const next: CacheEntry = { ...entry, accessedAt: now, touch, hits: entry.hits + 1 };
  const stats = { ...cache.stats, hits: cache.stats.hits + 1 };
  return { outcome: 'hit', cache: { entries: pmSet(cache.entries, key, next), touch, stats }, rows: entry.rows };
}

/** Records a miss and stores the fetched rows (unless empty and missing keys are not cached). */
export function putCache(
  config: LookupCacheConfig,
  cache: LookupCache,
  key: string,
  rows: readonly StoredRow[],
  now: number,
): { cache: LookupCache; stored: boolean; evicted?: string } {
  const missed = { ...cache.stats, misses: cache.stats.misses + 1 };
  if (rows.length === 0 && !config.cacheMissingKey) return { cache: { ...cache, stats: missed }, stored: false };
  // Guava's maximumSize(0) caches nothing at all.
  if (config.maxRows === 0) return { cache: { ...cache, stats: missed }, stored: false };
  const touch = cache.touch + 1;
  let entries = pmSet(cache.entries, key, { rows, writtenAt: now, accessedAt: now, touch, hits: 0 });
  let evicted: string | undefined;
  let stats = missed;
  if (config.maxRows !== undefined && pmSize(entries) > config.maxRows) {
    evicted = leastRecentlyUsed(entries, key);
    if (evicted !== undefined) {
      entries = pmDelete(entries, evicted);
      stats = { ...stats, evictions: stats.evictions + 1 };
    }
  }
  const result = { cache: { entries, touch, stats }, stored: true };
  return evicted === undefined ? result : { ...result, evicted };
}

function leastRecentlyUsed(entries: PMap<CacheEntry>, except: string): string | undefined {
  let victim: string | undefined;
  let oldest = Infinity;
  for (const [key, entry] of pmEntries(entries)) {
    if (key !== except && entry.touch < oldest) {
      oldest = entry.touch;
      victim = key;
    }
  }
  return victim;
}

/** Cache entries, most recently used first, for the state pane. */
export function cacheEntries(cache: LookupCache): [string, CacheEntry][] {
  return pmEntries(cache.entries).sort((a, b) => b[1].touch - a[1].touch);
}
