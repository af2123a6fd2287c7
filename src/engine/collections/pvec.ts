/**
 * PVec: a persistent (immutable, structurally shared) vector, as a 32-way trie with a tail
 * (Clojure's PersistentVector layout). Appends copy at most the 32-slot tail, and push a full tail
 * into the trie once every 32 appends, so pvPush is O(1) amortised; reads are O(log32 n).
 *
 * Plain data (objects and arrays, JSON-serialisable); nothing is mutated after it is returned,
 * except a tail created in the current transient edit (edit.ts), which appends in place.
 * Layout: `n` size, `s` the root's shift (5 * levels above the leaves), `r` the root (arrays of
 * arrays ... of leaf arrays of 32 items), `t` the tail (the last 1..32 items, outside the trie).
 */

export interface PVec<T> {
  readonly n: number;
  readonly s: number;
  readonly r: readonly unknown[];
  readonly t: readonly T[];
}

import { created, isEditable } from './edit.js';

const BITS = 5;
const WIDTH = 32;
const MASK = 31;

export const PVEC_EMPTY: PVec<never> = Object.freeze({ n: 0, s: BITS, r: [], t: [] }) as PVec<never>;

/** Index of the first item held in the tail. */
function tailOffset(v: PVec<unknown>): number {
  return v.n < WIDTH ? 0 : ((v.n - 1) >>> BITS) << BITS;
}

function leafFor<T>(v: PVec<T>, i: number): readonly T[] {
  if (i >= tailOffset(v)) return v.t;
  let node: readonly unknown[] = v.r;
  for (let level = v.s; level > 0; level -= BITS) {
    node = node[(i >>> level) & MASK] as readonly unknown[];
  }
  return node as readonly T[];
}

/** The leaf array holding item i (0 <= i < size): items i & ~31 .. are at leaf[j & 31]. */
export function pvLeaf<T>(v: PVec<T>, i: number): readonly T[] {
  return leafFor(v, i);
}

export function pvGet<T>(v: PVec<T>, i: number): T {
  if (i < 0 || i >= v.n || !Number.isInteger(i)) {
    throw new RangeError(`pvGet: index ${i} out of range 0..${v.n - 1}`);
  }
  return leafFor(v, i)[i & MASK] as T;
}

export function pvSize(v: PVec<unknown>): number {
  return v.n;
}

/** A path of single-child nodes from `level` down to `leaf`. */
function newPath(level: number, leaf: readonly unknown[]): readonly unknown[] {
  return level === 0 ? leaf : created([newPath(level - BITS, leaf)]);
}

/**
 * A copy of `a` with room for index `i`, at its exact size: assigning past the end of a copy
 * (or pushing) would leave V8's growth slack in every node and tail a snapshot retains.
 */
function copyFor(a: readonly unknown[], i: number): unknown[] {
  const c = new Array<unknown>(Math.max(a.length, i + 1));
  for (let j = 0; j < a.length; j++) c[j] = a[j];
  return c;
}

function pushTail(n: number, level: number, parent: readonly unknown[], tail: readonly unknown[]): unknown[] {
  const sub = ((n - 1) >>> level) & MASK;
  // A parent created in this transient edit takes the new child in place.
  const copy = isEditable(parent) ? (parent as unknown[]) : created(copyFor(parent, sub));
  if (level === BITS) {
    copy[sub] = tail;
  } else {
    const child = parent[sub] as readonly unknown[] | undefined;
    copy[sub] = child !== undefined ? pushTail(n, level - BITS, child, tail) : newPath(level - BITS, tail);
  }
  return copy;
}

/**
 * The tail of `v` to write `room` more items into: itself when this transient edit created it
 * (and no older, dead version appended past `used`), else an exact-size copy of its `used` items.
 */
function writableTail<T>(v: PVec<T>, used: number, room: number): T[] {
  if (isEditable(v.t) && v.t.length === used) return v.t as T[];
  const t = created(new Array<T>(used + room));
  for (let j = 0; j < used; j++) t[j] = v.t[j] as T;
  return t;
}

export function pvPush<T>(v: PVec<T>, x: T): PVec<T> {
  // Room in the tail: append in place if this edit owns it, else copy it (at most 32 slots).
  const used = v.n - tailOffset(v);
  if (used < WIDTH) {
    const t = writableTail(v, used, 1);
    t[used] = x;
    return { n: v.n + 1, s: v.s, r: v.r, t };
  }
  // Full tail: move it into the trie, growing the root when the trie is full.
  let r: readonly unknown[];
  let s = v.s;
  if ((v.n >>> BITS) > (1 << v.s)) {
    r = created([v.r, newPath(v.s, v.t)]);
    s += BITS;
  } else {
    r = pushTail(v.n, v.s, v.r, v.t);
  }
  return { n: v.n + 1, s, r, t: created([x]) };
}

/** `v` with `xs` appended: like pvPush in a loop, with one new header per tail filled. */
export function pvPushAll<T>(v: PVec<T>, xs: readonly T[]): PVec<T> {
  let cur = v;
  let i = 0;
  while (i < xs.length) {
    const used = cur.n - tailOffset(cur);
    if (used === WIDTH) {
      cur = pvPush(cur, xs[i++] as T);
      continue;
    }
    const room = Math.min(WIDTH - used, xs.length - i);
    const t = writableTail(cur, used, room);
    for (let j = 0; j < room; j++) t[used + j] = xs[i + j] as T;
    i += room;
    cur = { n: cur.n + room, s: cur.s, r: cur.r, t };
  }
  return cur;
}

/** Items [from, to) as a fresh array (bounds are clamped to 0..size). */
export function pvSlice<T>(v: PVec<T>, from: number, to: number): T[] {
  const lo = Math.max(0, Math.floor(from));
  const hi = Math.min(v.n, Math.floor(to));
  const out: T[] = [];
  let i = lo;
  while (i < hi) {
    const leaf = leafFor(v, i);
    const end = Math.min(hi, (i | MASK) + 1);
    for (let j = i; j < end; j++) out.push(leaf[j & MASK] as T);
    i = end;
  }
  return out;
}

export function pvToArray<T>(v: PVec<T>): T[] {
  return pvSlice(v, 0, v.n);
}

export function pvFromArray<T>(xs: readonly T[]): PVec<T> {
  let v: PVec<T> = PVEC_EMPTY;
  for (const x of xs) v = pvPush(v, x);
  return v;
}

export function pvLast<T>(v: PVec<T>): T | undefined {
  return v.n === 0 ? undefined : pvGet(v, v.n - 1);
}

function setIn(level: number, node: readonly unknown[], i: number, x: unknown): unknown[] {
  const copy = isEditable(node) ? (node as unknown[]) : created(node.slice());
  if (level === 0) copy[i & MASK] = x;
  else {
    const sub = (i >>> level) & MASK;
    copy[sub] = setIn(level - BITS, node[sub] as readonly unknown[], i, x);
  }
  return copy;
}

/** Replace item `i` (0 <= i < size). */
export function pvSet<T>(v: PVec<T>, i: number, x: T): PVec<T> {
  if (i < 0 || i >= v.n || !Number.isInteger(i)) {
    throw new RangeError(`pvSet: index ${i} out of range 0..${v.n - 1}`);
  }
  if (i >= tailOffset(v)) {
    const used = v.n - tailOffset(v);
    const t = writableTail(v, used, 0);
    t[i & MASK] = x;
    return t === v.t ? v : { n: v.n, s: v.s, r: v.r, t };
  }
  const r = setIn(v.s, v.r, i, x);
  return r === v.r ? v : { n: v.n, s: v.s, r, t: v.t };
}
