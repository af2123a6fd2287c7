/**
 * One join key's state in the interval join (Flink's TimeIntervalJoin: per key a MapState per
 * side from row time to rows with an "emitted" flag, plus one cleanup-timer time per side), as
 * ONE flat array:
 *
 *   [meta, keyRow, cleanup0, cleanup1, time, row, (joined,) time, row, (joined,) ...]
 *                                        left cache: [HEAD, split)  right cache: [split, end)
 *
 * - meta = flags | split << 3: flags bit 0 the side the key was first seen with (keySide); bits
 *   1 and 2 whether the left / right side is outer (its rows then carry a joined flag: see
 *   below); split where the right cache starts (one slot for both: 8 bytes less per key state);
 * - keySide / keyRow: the side and row the key was first seen with (the printed key is built from
 *   them only when a trace or the state pane needs it);
 * - cleanupN: the time of the timer that cleans side N's cache (Flink stores these crossed: its
 *   `rightTimerState` cleans the left cache), undefined = none;
 * - each side's cached rows in ascending time then arrival order; `joined` = joined (and emitted)
 *   at least once. Flink keeps it up to date only for an outer side and nothing reads it for an
 *   inner one, so an inner side's rows take 2 slots (time, row), an outer side's 3.
 *
 * Why one array: checkpoints retain every key state they saw, and a key is mostly touched in one
 * edit and not again until its rows expire, so what a key costs is what the GC copies and keeps.
 * An object and two cache arrays cost three objects and three headers; this costs one.
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

type Slot = number | Row | boolean | undefined;
export type IntervalKeyState = readonly Slot[];
/** A key state that the caller may still change (not yet stored, or created in this edit). */
export type WritableKeyState = Slot[];

/** flags (3 bits) | split << 3 */
const META = 0;
const KEY_ROW = 1;
/** cleanup0 at CLEANUP, cleanup1 at CLEANUP + 1. */
const CLEANUP = 2;
const HEAD = 4;
/** What moving `split` by one slot adds to META. */
const SPLIT_UNIT = 8;
/** From this many slots (16 to 24 cached rows) on, a key state created in the edit changes in place. */
const GROW_IN_PLACE = HEAD + 48;

/** The layout flags of a join: which sides are outer (their rows carry a joined flag). */
export function layoutOf(outerLeft: boolean, outerRight: boolean): number {
  return (outerLeft ? 2 : 0) | (outerRight ? 4 : 0);
}

/** Slots per cached row of side: 3 with the joined flag (outer side), else 2. */
function widthOf(ks: IntervalKeyState, side: Side): number {
  return ((ks[META] as number) >> (1 + side)) & 1 ? 3 : 2;
}

export function keySideOf(ks: IntervalKeyState): Side {
  return ((ks[META] as number) & 1) as Side;
}

export function keyRowOf(ks: IntervalKeyState): Row {
  return ks[KEY_ROW] as Row;
}

export function cleanupOf(ks: IntervalKeyState, side: Side): number | undefined {
  return ks[CLEANUP + side] as number | undefined;
}

function splitOf(ks: IntervalKeyState): number {
  return (ks[META] as number) >> 3;
}

function start(ks: IntervalKeyState, side: Side): number {
  return side === 0 ? HEAD : splitOf(ks);
}

function stop(ks: IntervalKeyState, side: Side): number {
  return side === 0 ? splitOf(ks) : ks.length;
}

/** How many rows side's cache holds. */
export function cacheSize(ks: IntervalKeyState, side: Side): number {
  return (stop(ks, side) - start(ks, side)) / widthOf(ks, side);
}

export function timeAt(ks: IntervalKeyState, side: Side, i: number): number {
  return ks[start(ks, side) + i * widthOf(ks, side)] as number;
}

export function rowAt(ks: IntervalKeyState, side: Side, i: number): Row {
  return ks[start(ks, side) + i * widthOf(ks, side) + 1] as Row;
}

export function joinedAt(ks: IntervalKeyState, side: Side, i: number): boolean {
  // An inner side keeps no flag: nothing reads it there.
  return widthOf(ks, side) === 3 && (ks[start(ks, side) + i * 3 + 2] as boolean);
}

/** A key state with nothing left: what an expiry returns instead of copying, as putKey drops it. */
export const EMPTY_KEY_STATE: IntervalKeyState = Object.freeze([0, undefined, undefined, undefined]);

/** No cached row and no cleanup timer: Flink would hold no state for the key. */
export function isEmptyKey(ks: IntervalKeyState): boolean {
  return ks.length === HEAD && ks[CLEANUP] === undefined && ks[CLEANUP + 1] === undefined;
}

/**
 * A new key's state: one row cached on `side`, whose cache is cleaned by a timer at `cleanup`.
 * `layout`: the join's layoutOf.
 */
export function newKeyState(layout: number, side: Side, row: Row, time: number, joined: boolean, cleanup: number): WritableKeyState {
  const left = side === 0;
  const flags = layout | side;
  if (((layout >> (1 + side)) & 1) === 0) {
    return [flags | ((left ? HEAD + 2 : HEAD) << 3), row, left ? cleanup : undefined, left ? undefined : cleanup, time, row];
  }
  return [flags | ((left ? HEAD + 3 : HEAD) << 3), row, left ? cleanup : undefined, left ? undefined : cleanup, time, row, joined];
}

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
