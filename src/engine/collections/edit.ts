/**
 * Transient edits, as in Clojure's transients or Immer's drafts. In a bulk run (the timeline's
 * run from one checkpoint to the next) only the newest snapshot stays alive, so a collection node
 * created during that run can be changed in place instead of copied: nothing else can see it.
 * Every other node (anything a kept snapshot can reach) is copied on write, as always.
 *
 * The driver opens an edit for a run of steps and opens a new one before the next run: a node is
 * editable only while the edit that created it is current, so a checkpoint taken between two
 * edits is never changed again. Outside an edit (plain `step()` calls, traced steps) nothing is
 * editable and every collection stays fully persistent.
 *
 * Two marks of "created in this edit": objects are kept in the edit's set; the versioned map
 * (pmap.ts) instead compares a history pair's stamp with the edit's stamp, which costs nothing
 * to record and keeps nothing alive.
 */

/** The nodes created in one edit, and its version stamp (pmap.ts). Opaque to callers. */
export interface Edit {
  readonly nodes: Set<object>;
  /** Renewed when the edit is resumed after other writes, so that stamps only ever increase. */
  stamp: number;
}

let current: Edit | null = null;
/** Version stamps, increasing: one per edit, and one per write made outside any edit. */
let stamps = 0;

export function newEdit(): Edit {
  return { nodes: new Set(), stamp: ++stamps };
}

/**
 * The version stamp of a write: the current edit's (writes in one edit share it, so a versioned
 * node may change in place), or a fresh one outside an edit (every write is a new version).
 */
export function writeStamp(): number {
  return current !== null ? current.stamp : ++stamps;
}

/** Make `edit` (or none) current; returns the previous one so that the caller can restore it. */
export function useEdit(edit: Edit | null): Edit | null {
  const prev = current;
  current = edit;
  // Resumed after writes under newer stamps: a fresh stamp, so that a layer's history stays in
  // stamp order (versions written under the old stamp are then merely not editable).
  if (edit !== null && edit.stamp !== stamps) edit.stamp = ++stamps;
  return prev;
}

/** Whether `x` was created in the current edit, so it may be changed in place. */
export function isEditable(x: object): boolean {
  return current !== null && current.nodes.has(x);
}

/** Record a freshly allocated node as editable in the current edit (if any); returns it. */
export function created<T extends object>(x: T): T {
  if (current !== null) current.nodes.add(x);
  return x;
}

/**
 * A copy of `a` with `remove` slots at `at` taken out and `insert` free slots put there, at its
 * exact size (V8's growth slack would be kept by every checkpoint that sees the copy). It is
 * registered in the edit only from `registerFrom` slots on: a small copy costs about what the
 * edit's Set entry would, while a large one is then changed in place (amortised O(1) growth).
 */
export function resizedCopy<T>(a: readonly T[], at: number, remove: number, insert: number, registerFrom: number): T[] {
  const n = a.length - remove + insert;
  const w = new Array<T>(n);
  for (let i = 0; i < at; i++) w[i] = a[i] as T;
  for (let i = at + remove; i < a.length; i++) w[i - remove + insert] = a[i] as T;
  return n >= registerFrom ? created(w) : w;
}
