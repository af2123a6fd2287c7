/**
 * Changing one join key's state in the interval join (its layout, as one flat array, and the
 * reads: interval-key-layout.ts, re-exported here).
 *
 * Persistence (edit.ts): every change returns a writable array, either `ks` itself when the
 * current edit created it, or a copy. The caller may go on changing that array until it stores it
 * in the key map (the copy is not shared before). A small key state is copied at its exact size
 * and not registered (V8's growth slack would be retained by checkpoints, and a copy costs about
 * what the edit's Set entry would); from GROW_IN_PLACE slots on, copies are registered so that a
 * large cache grows in place within an edit (amortised O(1) per row).
 */
import type { Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';
import { created, isEditable } from '../collections/edit.js';
import { CLEANUP, HEAD, META, SPLIT_UNIT, start, stop, widthOf, type IntervalKeyState, type Slot, type WritableKeyState } from './interval-key-layout.js';

export {
  cacheSize,
  cleanupOf,
  EMPTY_KEY_STATE,
  isEmptyKey,
  joinedAt,
  keyRowOf,
  keySideOf,
  layoutOf,
  newKeyState,
  rowAt,
  timeAt,
  type IntervalKeyState,
  type WritableKeyState,
} from './interval-key-layout.js';

/** From this many slots (16 to 24 cached rows) on, a key state created in the edit changes in place. */
const GROW_IN_PLACE = HEAD + 48;

/** `ks` itself when the current edit created it, else a copy the caller may change. */
export function writable(ks: IntervalKeyState): WritableKeyState {
  return mayChange(ks) ? (ks as WritableKeyState) : noted(resized(ks, ks.length, 0, 0));
}

/**
 * Whether the current edit created `ks`. Only copies of GROW_IN_PLACE slots or more are
 * registered, so a smaller one is not looked up in the edit's set (a registered state that shrank
 * below it is then merely copied once more); the last small copy that removed rows or set flags
 * is known here instead (see `noted`).
 */
function mayChange(ks: IntervalKeyState): boolean {
  if (ks === lastCopy) return isEditable(copiedIn);
  return ks.length >= GROW_IN_PLACE && isEditable(ks);
}

/**
 * The last copy made by `writable` or `withoutFirst`, and a token registered in the edit it was
 * made in: while that edit is current, nothing kept can see the copy, so it may change in place.
 * Expiry takes a key's rows out one cleanup timer after another (one per row time), mostly within
 * one edit: the first removal copies the key state, the next ones reuse that copy (and the key
 * map is not written again). Only shrinking reuses it: growing in place would leave V8's slack in
 * what checkpoints keep. A shrunk copy keeps its capacity, at most the slots removed in the edit.
 */
let lastCopy: IntervalKeyState | undefined;
let copiedIn: object = {};

function noted(w: WritableKeyState): WritableKeyState {
  if (!isEditable(copiedIn)) copiedIn = created({});
  lastCopy = w;
  return w;
}

/** A copy with `remove` slots at `at` taken out and `insert` free slots put there. */
function resized(ks: IntervalKeyState, at: number, remove: number, insert: number): WritableKeyState {
  const n = ks.length - remove + insert;
  const w = new Array<Slot>(n);
  for (let i = 0; i < at; i++) w[i] = ks[i];
  for (let i = at + remove; i < ks.length; i++) w[i - remove + insert] = ks[i];
  return n >= GROW_IN_PLACE ? created(w) : w;
}

/**
 * Cache a row on `side` after every cached row timed <= time (rows mostly arrive in time order)
 * and set side's cleanup time.
 */
export function withRow(ks: IntervalKeyState, side: Side, time: number, row: Row, joined: boolean, cleanup: number): WritableKeyState {
  const cw = widthOf(ks, side);
  const from = start(ks, side);
  let at = stop(ks, side);
  while (at > from && (ks[at - cw] as number) > time) at -= cw;
  let w: WritableKeyState;
  if (mayChange(ks)) {
    w = ks as WritableKeyState;
    for (let k = 0; k < cw; k++) w.push(undefined);
    for (let i = w.length - 1; i >= at + cw; i--) w[i] = w[i - cw];
  } else {
    w = resized(ks, at, 0, cw);
  }
  w[at] = time;
  w[at + 1] = row;
  if (cw === 3) w[at + 2] = joined;
  if (side === 0) w[META] = (w[META] as number) + cw * SPLIT_UNIT;
  w[CLEANUP + side] = cleanup;
  return w;
}

/** Without side's first `k` rows. `inPlace`: `ks` is already the caller's to change. */
export function withoutFirst(ks: IntervalKeyState, side: Side, k: number, inPlace = false): WritableKeyState {
  const from = start(ks, side);
  const cut = k * widthOf(ks, side);
  let w: WritableKeyState;
  if (inPlace || mayChange(ks)) {
    w = ks as WritableKeyState;
    if (cut > 0) {
      for (let i = from + cut; i < w.length; i++) w[i - cut] = w[i];
      w.length -= cut;
    }
  } else {
    w = noted(resized(ks, from, cut, 0));
  }
  if (side === 0) w[META] = (w[META] as number) - cut * SPLIT_UNIT;
  return w;
}

/** Flag side's row i joined, in `w` (the caller's to change); an inner side keeps no flag. */
export function setJoined(w: WritableKeyState, side: Side, i: number): void {
  if (widthOf(w, side) === 3) w[start(w, side) + i * 3 + 2] = true;
}

/** Set side's cleanup time in `w` (the caller's to change). */
export function setCleanup(w: WritableKeyState, side: Side, at: number | undefined): void {
  w[CLEANUP + side] = at;
}
