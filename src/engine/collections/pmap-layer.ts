/**
 * The layers of a PMap (pmap.ts): each maps a key to its history of (stamp, value) pairs, on top
 * of a parent layer's version. Here: reading a history at a version, visiting a version's
 * entries, and forking a new layer on top of a version.
 */
import { IndexMap } from './index-map.js';
import type { PKey } from './pmap.js';

/**
 * A deleted key's value in a history (a deletion is a version too). An object, not a Symbol: the
 * values it is compared with (`v === GONE`, `old === value` in pmap.ts) are rows and state arrays
 * on the run's path, and V8 compares two objects by reference inline, where an object against a
 * Symbol went through its generic StrictEqual builtin on every lookup and write
 * (docs/decisions.md, sixteenth session).
 */
export const GONE: Readonly<{ deleted: true }> = Object.freeze({ deleted: true });

/** @internal */
export interface Layer {
  readonly parent: Layer | null;
  /** The parent's version this layer starts from. */
  readonly pver: number;
  /** Layers from the root (1 for a root). */
  readonly depth: number;
  /** An IndexMap for a root layer first written with a number key (interned ids), else a Map. */
  readonly map: Map<PKey, unknown[]> | IndexMap<unknown[]>;
  /** The newest version written here: only it may be written to without a fork. */
  tip: number;
}

/** Index of the last pair of `h` with stamp <= v, or -1. */
export function lastAtOrBefore(h: readonly unknown[], v: number): number {
  const last = h.length - 2;
  if ((h[last] as number) <= v) return last;
  if ((h[0] as number) > v) return -1;
  let lo = 0;
  let hi = last >> 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((h[2 * mid] as number) <= v) lo = mid;
    else hi = mid - 1;
  }
  return 2 * lo;
}

/** Calls f for every key with a value in version (layer, ver), each once. */
export function forEachVisible(layer: Layer | null, ver: number, f: (key: PKey, value: unknown) => void): void {
  if (layer === null) return;
  if (layer.parent === null) {
    for (const [k, h] of layer.map) {
      const i = lastAtOrBefore(h, ver);
      if (i >= 0 && h[i + 1] !== GONE) f(k, h[i + 1]);
    }
    return;
  }
  const seen = new Set<PKey>();
  for (let l: Layer | null = layer, v = ver; l !== null; v = l.pver, l = l.parent) {
    for (const [k, h] of l.map) {
      if (seen.has(k)) continue;
      const i = lastAtOrBefore(h, v);
      if (i < 0) continue;
      seen.add(k);
      if (h[i + 1] !== GONE) f(k, h[i + 1]);
    }
  }
}

/** Forks fold a parent fork of at most `foldMax` keys into the new layer (see fork); chains deeper than `maxDepth` are flattened into a new root on the next fork. */
const limits = { foldMax: 4096, maxDepth: 8 };

/** @internal for tests: small limits make every path of fork() happen on small maps. */
export function setPmapLimits(foldMax: number, maxDepth: number): void {
  limits.foldMax = foldMax;
  limits.maxDepth = maxDepth;
}

function newLayer(parent: Layer | null, pver: number, depth: number, tip: number, indexed = false): Layer {
  return { parent, pver, depth, map: indexed ? new IndexMap() : new Map(), tip };
}

/**
 * A new layer on top of version (l, ver). A replay from a kept snapshot forks the replay's layer
 * again and again: a small fork is folded into the new one (its entries at `ver` copied), so the
 * chain stays main run + one fork; a long chain (what-if edits on edits) is flattened.
 */
export function fork(l: Layer | null, ver: number, indexed: boolean): Layer {
  if (l === null) return newLayer(null, 0, 1, ver, indexed);
  if (l.parent !== null && l.map.size <= limits.foldMax) {
    const f = newLayer(l.parent, l.pver, l.depth, ver);
    for (const [k, h] of l.map) {
      const i = lastAtOrBefore(h, ver);
      if (i >= 0) f.map.set(k, [h[i], h[i + 1]]);
    }
    return f;
  }
  if (l.depth < limits.maxDepth) return newLayer(l, ver, l.depth + 1, ver);
  const f = newLayer(null, 0, 1, ver, indexed);
  forEachVisible(l, ver, (k, v) => f.map.set(k, [0, v]));
  return f;
}
