/**
 * Runs `f` over `ops` the way the timeline uses transient edits: every `editEvery` ops it keeps
 * what `keep` returns (as a checkpoint would) and opens a new edit; every op whose index is
 * `plain` modulo `plainEvery` runs outside any edit. Returns what was kept.
 */
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';

export function inEditRounds<T, K>(ops: readonly T[], editEvery: number, plainEvery: number, plain: number, keep: () => K, f: (op: T, i: number) => void): K[] {
  const kept: K[] = [];
  let edit = newEdit();
  ops.forEach((op, i) => {
    if (i % editEvery === 0) {
      kept.push(keep());
      edit = newEdit();
    }
    useEdit(i % plainEvery === plain ? null : edit);
    try {
      f(op, i);
    } finally {
      useEdit(null);
    }
  });
  return kept;
}
