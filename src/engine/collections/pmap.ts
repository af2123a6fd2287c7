/**
 * PMap: a persistent (immutable, structurally shared) string-keyed map, as a hash array mapped
 * trie (32-way, 5 hash bits per level, collision buckets below the last level).
 *
 * Everything is plain data (objects and arrays, JSON-serialisable) so that engine snapshots can
 * hold it directly; nothing is mutated after it is returned, so old snapshots stay valid. The one
 * exception is a transient edit (edit.ts): nodes created in the current edit change in place.
 * Deletes pull lone leaves back up, so the trie's shape is a function of its key set.
 */

export type Slot = string | null | unknown;
/**
 * A node is a flat array, so that a lookup chases one pointer per level instead of three:
 *   bitmap node    [lo16, hi16, k0, v0, k1, v1, ...]  the 32-bit bitmap split into two small ints
 *                                                    (a full 32-bit number would be boxed by V8);
 *                                                    a null key means "v is a child node"
 *   collision node [-1, 0, k0, v0, ...]              keys sorted, so iteration order is a function
 *                                                    of the key set alone
 */
export type Node = readonly Slot[];

/** An immutable string-keyed map. Treat as opaque; `V` is carried for typing only. */
export interface PMap<V> {
  readonly n: number;
  readonly r: Node | null;
  /** Phantom: never present at runtime. */
  readonly __v?: V;
}

export const PMAP_EMPTY: PMap<never> = Object.freeze({ n: 0, r: null }) as PMap<never>;

import { created, isEditable } from './edit.js';
import { hashString, popcount } from './hash.js';

export { hashString } from './hash.js';
export { pmEntries, pmForEach, pmFromEntries, pmKeys, pmValues } from './pmap-iter.js';

const BITS = 5;
const MASK = 31;
/** At or beyond this shift every hash bit is used: keys with equal hashes share a collision node. */
const MAX_SHIFT = 35;
const COLLISION = -1;

function isCollision(n: Node): boolean {
  return n[0] === COLLISION;
}

function bitmapOf(n: Node): number {
  return ((n[0] as number) | ((n[1] as number) << 16)) >>> 0;
}

function bitmapNode(bitmap: number, slots: Slot[]): Node {
  slots[0] = bitmap & 0xffff;
  slots[1] = bitmap >>> 16;
  return created(slots);
}

/** Slot index of the entry for `bit` in a bitmap node. */
function slotOf(bitmap: number, bit: number): number {
  return 2 + 2 * popcount(bitmap & (bit - 1));
}

function getIn(node: Node, hash: number, key: string): unknown {
  let n: Node = node;
  let s = 0;
  for (;;) {
    if (n[0] === COLLISION) {
      for (let i = 2; i < n.length; i += 2) if (n[i] === key) return n[i + 1];
      return undefined;
    }
    const bitmap = bitmapOf(n);
    const bit = (1 << ((hash >>> s) & MASK)) >>> 0;
    if ((bitmap & bit) === 0) return undefined;
    const idx = slotOf(bitmap, bit);
    const k = n[idx];
    if (k === null) {
      n = n[idx + 1] as Node;
      s += BITS;
      continue;
    }
    return k === key ? n[idx + 1] : undefined;
  }
}

/**
 * The last key hashed and its hash: a step looks up and then writes the same key (the same
 * string object) several times in a row, so this saves rehashing it each time.
 */
let lastKey: string | undefined;
let lastHash = 0;

function hashOf(key: string): number {
  if (key !== lastKey) {
    lastKey = key;
    lastHash = hashString(key);
  }
  return lastHash;
}

/**
 * The last lookup (map, key, value): a step often reads the same key of the same map twice before
 * writing it. Any write forgets it, since a transient write may change a map in place.
 */
let lookMap: PMap<unknown> | undefined;
let lookKey: string | undefined;
let lookValue: unknown;

export function pmGet<V>(m: PMap<V>, key: string): V | undefined {
  if (m.r === null) return undefined;
  if (m === lookMap && key === lookKey) return lookValue as V | undefined;
  const v = getIn(m.r, hashOf(key), key) as V | undefined;
  lookMap = m;
  lookKey = key;
  lookValue = v;
  return v;
}

export function pmHas(m: PMap<unknown>, key: string): boolean {
  return pmGet(m, key) !== undefined;
}

/** Set by setIn when a key was added rather than replaced (avoids a result object per level). */
let added = false;

/** `a` with slot i set: in place when `a` belongs to the current edit, else a copy. */
function withSlot(a: Node, i: number, v: Slot): Slot[] {
  const c = isEditable(a) ? (a as Slot[]) : created(a.slice());
  c[i] = v;
  return c;
}

/** A node holding two leaves whose hashes agree below `shift`. */
function twoLeaves(shift: number, h1: number, k1: string, v1: unknown, h2: number, k2: string, v2: unknown): Node {
  if (shift >= MAX_SHIFT) {
    return created(k1 < k2 ? [COLLISION, 0, k1, v1, k2, v2] : [COLLISION, 0, k2, v2, k1, v1]);
  }
  const i1 = (h1 >>> shift) & MASK;
  const i2 = (h2 >>> shift) & MASK;
  if (i1 === i2) {
    return bitmapNode((1 << i1) >>> 0, [0, 0, null, twoLeaves(shift + BITS, h1, k1, v1, h2, k2, v2)]);
  }
  const m = ((1 << i1) | (1 << i2)) >>> 0;
  return bitmapNode(m, i1 < i2 ? [0, 0, k1, v1, k2, v2] : [0, 0, k2, v2, k1, v1]);
}

function setCollision(n: Node, key: string, value: unknown): Node {
  let i = 2;
  while (i < n.length && (n[i] as string) < key) i += 2;
  if (i < n.length && n[i] === key) {
    return n[i + 1] === value ? n : withSlot(n, i + 1, value);
  }
  added = true;
  return inserted(n, i, key, value);
}

/**
 * A copy of `n` with (k, v) inserted at slot i, allocated at its exact size: growing a copy by
 * push would leave V8's growth slack (about half again) in every node a snapshot retains.
 */
function inserted(n: Node, i: number, k: Slot, v: Slot): Slot[] {
  const c = new Array<Slot>(n.length + 2);
  for (let j = 0; j < i; j++) c[j] = n[j];
  c[i] = k;
  c[i + 1] = v;
  for (let j = i; j < n.length; j++) c[j + 2] = n[j];
  return created(c);
}

function setIn(n: Node, shift: number, hash: number, key: string, value: unknown): Node {
  if (isCollision(n)) return setCollision(n, key, value);
  const bitmap = bitmapOf(n);
  const bit = (1 << ((hash >>> shift) & MASK)) >>> 0;
  const idx = slotOf(bitmap, bit);
  if ((bitmap & bit) === 0) {
    added = true;
    return bitmapNode((bitmap | bit) >>> 0, inserted(n, idx, key, value));
  }
  const k = n[idx];
  if (k === null) {
    const child = n[idx + 1] as Node;
    const next = setIn(child, shift + BITS, hash, key, value);
    return next === child ? n : withSlot(n, idx + 1, next);
  }
  if (k === key) {
    return n[idx + 1] === value ? n : withSlot(n, idx + 1, value);
  }
  added = true;
  const sub = twoLeaves(shift + BITS, hashString(k as string), k as string, n[idx + 1], hash, key, value);
  const c = withSlot(n, idx, null);
  c[idx + 1] = sub;
  return c;
}

export function pmSet<V>(m: PMap<V>, key: string, value: V): PMap<V> {
  lookMap = undefined;
  const hash = hashOf(key);
  if (m.r === null) {
    return { n: 1, r: bitmapNode((1 << (hash & MASK)) >>> 0, [0, 0, key, value]) } as PMap<V>;
  }
  added = false;
  const r = setIn(m.r, 0, hash, key, value);
  // Same root and size: unchanged, or changed in place within the current edit.
  if (r === m.r && !added) return m;
  return { n: added ? m.n + 1 : m.n, r } as PMap<V>;
}

/** Delete result: undefined = key absent (node unchanged); null = node became empty. */
type DelResult = Node | null | undefined;

/** A node with exactly one leaf and no children can be inlined into its parent. */
function singleLeaf(n: Node): boolean {
  return n.length === 4 && n[2] !== null;
}

function removeSlot(n: Node, bitmap: number, bit: number, idx: number): Node | null {
  if (n.length === 4) return null;
  const c = new Array<Slot>(n.length - 2);
  for (let j = 0; j < idx; j++) c[j] = n[j];
  for (let j = idx + 2; j < n.length; j++) c[j - 2] = n[j];
  return isCollision(n) ? created(c) : bitmapNode((bitmap & ~bit) >>> 0, c);
}

function delIn(n: Node, shift: number, hash: number, key: string): DelResult {
  if (isCollision(n)) {
    for (let i = 2; i < n.length; i += 2) {
      if (n[i] === key) return removeSlot(n, 0, 0, i);
    }
    return undefined;
  }
  const bitmap = bitmapOf(n);
  const bit = (1 << ((hash >>> shift) & MASK)) >>> 0;
  if ((bitmap & bit) === 0) return undefined;
  const idx = slotOf(bitmap, bit);
  const k = n[idx];
  if (k === null) {
    const r = delIn(n[idx + 1] as Node, shift + BITS, hash, key);
    if (r === undefined) return undefined;
    if (r === null) return removeSlot(n, bitmap, bit, idx);
    if (!singleLeaf(r)) return withSlot(n, idx + 1, r);
    // Pull a lone leaf up so that the trie stays canonical (and shallow).
    const c = withSlot(n, idx, r[2]);
    c[idx + 1] = r[3];
    return c;
  }
  if (k !== key) return undefined;
  return removeSlot(n, bitmap, bit, idx);
}

export function pmDelete<V>(m: PMap<V>, key: string): PMap<V> {
  lookMap = undefined;
  if (m.r === null) return m;
  const r = delIn(m.r, 0, hashOf(key), key);
  if (r === undefined) return m;
  if (r === null) return PMAP_EMPTY;
  // A delete always shrinks the map: a new header even when the root changed in place.
  return { n: m.n - 1, r } as PMap<V>;
}

export function pmSize(m: PMap<unknown>): number {
  return m.n;
}

/** Set `key` to `f(current)`; `undefined` from `f` deletes the key. */
export function pmUpdate<V>(m: PMap<V>, key: string, f: (cur: V | undefined) => V | undefined): PMap<V> {
  const next = f(pmGet(m, key));
  return next === undefined ? pmDelete(m, key) : pmSet(m, key, next);
}

