/**
 * What the interval and temporal joins' state views share: the operator state opened for one
 * element or timer pass and closed into the next state, a persistent map from join key to one flat
 * key state, a current key, and copy-on-first-write of that key's state.
 *
 * Persistence (collections/edit.ts): a kept snapshot never changes. The operator state object is
 * changed in place at close only when the current transient edit created it, else a new one is
 * made (once per element or timer pass, and only when something changed). A key state the map
 * holds is changed in place only when the current edit created it (`copy` then returns it as it
 * is); otherwise the first change copies it, and later changes in the same call reuse the copy.
 */
import { created, isEditable } from '../collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';
import { dropFirstTimer, dueKey, nextTimerTime, type TimerQueue } from './timer-service.js';

/** An operator state with a key map. */
export interface KeyedState<K> {
  readonly keys: PMap<K>;
}

export abstract class KeyedStateView<K extends readonly unknown[], S extends KeyedState<K>> {
  /** The state the view was opened on. */
  private base: S;
  protected keys: PMap<K> = PMAP_EMPTY;
  private key = '';
  /** What the key map held for the current key when it was opened. */
  private found: K | undefined = undefined;
  /** The current key's state (undefined: none yet). */
  protected ks: K | undefined = undefined;
  /** Whether `ks` is this view's to change (a copy it made, or created in the current edit). */
  protected mine = false;
  /** The time of the timer the last pop returned. */
  firedAt = 0;
  /** The queue without the timer the last pop returned. */
  private rest: TimerQueue | undefined = undefined;

  constructor(empty: S) {
    this.base = empty;
  }

  /** Open the view on `state` (an operator's view is reopened by every call; calls never nest). */
  open(state: S): this {
    this.base = state;
    this.keys = state.keys;
    this.load(state);
    return this;
  }

  /** The state after the call: `state` itself when nothing changed. */
  close(): S {
    const b = this.base;
    if (this.keys === b.keys && this.unchanged(b)) return b;
    if (isEditable(b)) {
      this.storeIn(b, this.keys);
      return b;
    }
    return created(this.fresh(this.keys));
  }

  /** Read the fields of `state` besides its key map. */
  protected abstract load(state: S): void;

  /** Whether the fields besides the key map are still those of `state`. */
  protected abstract unchanged(state: S): boolean;

  /** Write the view's fields into `state`, which the current edit created. */
  protected abstract storeIn(state: S, keys: PMap<K>): void;

  /** A new state object with the view's fields (a literal with its fields listed: one hidden class for every state object). */
  protected abstract fresh(keys: PMap<K>): S;

  /** Whether a key state holds nothing (Flink would hold no state for the key: it is dropped). */
  protected abstract isEmpty(ks: K): boolean;

  /** `ks` itself when the current edit created it, else a copy this view may change. */
  protected abstract copy(ks: K): K;

  /** Make `key` the current key; whether state is held for it. */
  openKey(key: string): boolean {
    this.key = key;
    this.found = pmGet(this.keys, key);
    this.ks = this.found;
    this.mine = false;
    return this.found !== undefined;
  }

  /** Store the current key's state in the key map; an empty one drops the key. */
  closeKey(): void {
    const ks = this.ks;
    if (ks === undefined) return;
    const empty = this.isEmpty(ks);
    // Changed in place, the stored state needs no second map walk.
    if (empty ? this.found === undefined : ks === this.found) return;
    this.keys = empty ? pmDelete(this.keys, this.key) : pmSet(this.keys, this.key, ks);
  }

  /** The current key's state, to change. */
  protected writable(): K {
    if (!this.mine) this.replace(this.copy(this.ks as K));
    return this.ks as K;
  }

  /** The current key's state is now `ks`, this view's to change. */
  protected replace(ks: K): void {
    this.ks = ks;
    this.mine = true;
  }

  /** The key of q's earliest timer if it is timed <= upTo (its time in `firedAt`; `popped()` is then q without it). */
  protected due(q: TimerQueue, upTo: number): string | undefined {
    const key = dueKey(q, upTo);
    if (key === undefined) return undefined;
    this.firedAt = nextTimerTime(q) as number;
    this.rest = dropFirstTimer(q);
    return key;
  }

  protected popped(): TimerQueue {
    return this.rest as TimerQueue;
  }
}

/** Every key's state of a key map (no order), for the state pane and state counts. */
export function keyStatesOf<K>(keys: PMap<K>): K[] {
  return pmValues(keys);
}

/**
 * What Flink's harness reports as numKeyedStateEntries: per key, the (key, state) pairs that hold
 * a value (`entriesOf` counts them for one key state).
 */
export function keyedStateEntriesOf<K>(keys: PMap<K>, entriesOf: (ks: K) => number): number {
  let n = 0;
  for (const ks of pmValues(keys)) n += entriesOf(ks);
  return n;
}
