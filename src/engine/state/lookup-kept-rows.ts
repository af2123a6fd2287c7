/**
 * KeyedLookupJoinWrapper's keyed state (a lookup join over an updating input with TRY_RESOLVE):
 * per input key, the right rows fetched last (none = the empty marker), as plain persistent data.
 * The state TTL counts from the write (OnCreateAndWrite) and an expired entry is never returned.
 */
import type { Row } from '../../values/types.js';
import { PMAP_EMPTY, pmDelete, pmEntries, pmGet, pmSet, type PMap } from '../collections/pmap.js';

/** The rows kept for one input key. */
export interface KeptRows {
  readonly rights: readonly Row[];
  /** Processing time of the write: the state TTL counts from it. */
  readonly writtenAt: number;
}

export type KeptRowsState = PMap<KeptRows>;

export const NO_KEPT_ROWS: KeptRowsState = PMAP_EMPTY;

/** What is kept for `key`, expired or not (undefined: never kept, or forgotten). */
export function keptRowsOf(state: KeptRowsState, key: string): KeptRows | undefined {
  return pmGet(state, key);
}

/** Whether kept rows are still live at `now` under state TTL `ttlMs` (0: no TTL). */
export function isLive(kept: KeptRows, ttlMs: number, now: number): boolean {
  return !(ttlMs > 0 && kept.writtenAt + ttlMs <= now);
}

/** Keep `rights` for `key`, written at `now` (replacing what was kept). */
export function keepRows(state: KeptRowsState, key: string, rights: readonly Row[], now: number): KeptRowsState {
  return pmSet(state, key, { rights, writtenAt: now });
}

export function forgetRows(state: KeptRowsState, key: string): KeptRowsState {
  return pmDelete(state, key);
}

/** Every key's kept rows, for the state pane. */
export function allKeptRows(state: KeptRowsState): [string, KeptRows][] {
  return pmEntries(state);
}
