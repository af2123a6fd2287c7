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
 * Changing a key state (and why a change copies or not) is in interval-key-state.ts.
 */
import type { Side } from '../../planner/plan.js';
import type { Row } from '../../values/types.js';

export type Slot = number | Row | boolean | undefined;
export type IntervalKeyState = readonly Slot[];
/** A key state that the caller may still change (not yet stored, or created in this edit). */
export type WritableKeyState = Slot[];

/** flags (3 bits) | split << 3 */
export const META = 0;
const KEY_ROW = 1;
/** cleanup0 at CLEANUP, cleanup1 at CLEANUP + 1. */
export const CLEANUP = 2;
export const HEAD = 4;
/** What moving `split` by one slot adds to META. */
export const SPLIT_UNIT = 8;

/** The layout flags of a join: which sides are outer (their rows carry a joined flag). */
export function layoutOf(outerLeft: boolean, outerRight: boolean): number {
  return (outerLeft ? 2 : 0) | (outerRight ? 4 : 0);
}

/** Slots per cached row of side: 3 with the joined flag (outer side), else 2. */
export function widthOf(ks: IntervalKeyState, side: Side): number {
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

export function start(ks: IntervalKeyState, side: Side): number {
  return side === 0 ? HEAD : splitOf(ks);
}

export function stop(ks: IntervalKeyState, side: Side): number {
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
