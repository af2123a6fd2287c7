/**
 * What the interval and temporal joins' state views share: the operator state opened for one
 * element or timer pass and closed into the next state, a persistent map from join key to one flat
 * key state, and copy-on-first-write of the key state that the caller holds.
 *
 * Persistence (collections/edit.ts): a kept snapshot never changes. The operator state object is
 * changed in place at close only when the current transient edit created it, else a new one is
 * made (once per element or timer pass, and only when something changed). A key state the map
 * holds is changed in place only when the current edit created it (`copy` then returns it as it
 * is); otherwise the first change copies it, and later changes in the same call reuse the copy.
 * The caller holds the key state in a local while it processes one element or timer: the verbs
 * take it and return the next one, and the view remembers only whether that one is its own.
 *
 * Stores into the view: a view lives as long as its operator, so the GC has long promoted it,
 * and storing a pointer into an old object calls V8's write-barrier stub (for a young value, and
 * for every pointer while a major GC is marking). The state object, key map and timer queues of a
 * bulk run mostly stay the same objects from one call to the next (edited in place), so the view
 * compares before it stores them; the key and its state, which change from row to row, stay with
 * the caller. Numbers in docs/decisions.md ("A join family's semantics in one file", "The caller
 * holds the key state").
 */
import { created, isEditable } from '../collections/edit.js';
import { PMAP_EMPTY, pmDelete, pmGet, pmSet, pmValues, type PMap } from '../collections/pmap.js';
import { pollDue, type FiredTimer, type TimerQueue } from './timer-service.js';

/** An operator state with a key map. */
export interface KeyedState<K> {
  readonly keys: PMap<K>;
}

export abstract class KeyedStateView<K extends readonly unknown[], S extends KeyedState<K>> {
  /** The state the view was opened on. */
  private base: S;
  protected keys: PMap<K> = PMAP_EMPTY;
  /** Whether the key state the caller holds is this view's to change (a copy it made, or a state created in the current edit). */
  protected mine = false;

  constructor(empty: S) {
    this.base = empty;
  }

  /** Open the view on `state` (an operator's view is reopened by every call; calls never nest). */
  open(state: S): this {
    // Compare before storing: see "Stores into the view" above.
    if (this.base !== state) this.base = state;
    if (this.keys !== state.keys) this.keys = state.keys;
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

  /** Read the fields of `state` besides its key map (comparing before storing, as `open` does). */
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

  /**
   * The state stored for `key` (undefined: none), for the caller to hold in a local while it
   * processes one element or timer: the verbs that change a key state take the caller's and return
   * the next one, and `storeKey` puts the last one back. So the view stores no key and no key state
   * per row (see "Stores into the view"); it only tracks whether the held state is its to change,
   * which assumes that the caller passes each verb the state the previous one returned.
   */
  takeKey(key: string): K | undefined {
    this.mine = false;
    return pmGet(this.keys, key);
  }

  /** Store `ks`, the state of `key` after the call (`stored`: what takeKey returned); an empty one drops the key. */
  storeKey(key: string, stored: K | undefined, ks: K | undefined): void {
    if (ks === undefined) return;
    const empty = this.isEmpty(ks);
    // Changed in place, the stored state needs no second map walk.
    if (empty ? stored === undefined : ks === stored) return;
    const keys = empty ? pmDelete(this.keys, key) : pmSet(this.keys, key, ks);
    if (keys !== this.keys) this.keys = keys;
  }

  /** The caller's key state `ks`, to change: itself when it is this view's, else its `copy`. */
  protected changeable(ks: K): K {
    if (this.mine) return ks;
    this.mine = true;
    return this.copy(ks);
  }

  /** `ks`, a key state this view may change (one it made or copied), as the caller's next state. */
  protected made(ks: K): K {
    this.mine = true;
    return ks;
  }

  /** `ks`, a key state this view may not change (a shared empty state), as the caller's next state. */
  protected sharedState(ks: K): K {
    this.mine = false;
    return ks;
  }

  /** The timer the last takeDue took (key undefined: none was due). */
  protected readonly fired: FiredTimer = { key: undefined, time: 0 };

  /** The time of the timer the last pop returned. */
  get firedAt(): number {
    return this.fired.time;
  }

  /**
   * q without its earliest timer when that one is due (time <= upTo), which goes to `fired`;
   * else q, with `fired.key` undefined.
   */
  protected takeDue(q: TimerQueue, upTo: number): TimerQueue {
    return pollDue(q, upTo, this.fired);
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
