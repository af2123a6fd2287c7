/**
 * A join side's store (state/record-store.ts): a map key -> n over the key's main log
 * (a registry shared by all versions of a run), or another log's version. Whatever log holds a
 * bucket, a version reads, compares and serialises as its own keys and entries; a branch from a
 * kept version (a replay, a what-if) and the first run never see each other's entries, also when
 * a key was emptied and came back, or when the branch creates a key that the first run created
 * after the kept version.
 */
import { describe, expect, it } from 'vitest';
import { newEdit } from '../../../src/engine/collections/edit.js';
import { Cursor, cursorEntries, cursorPut, cursorRemove, entryHash } from '../../../src/engine/state/record-bucket.js';
import type { SideSpec } from '../../../src/engine/state/record-state.js';
import { SideStore } from '../../../src/engine/state/record-store.js';
import type { Row } from '../../../src/values/types.js';
import { within } from '../collections/within.js';

const spec: SideSpec = {
  side: 1,
  name: 'r',
  layout: { kind: 'InputSideHasNoUniqueKey' },
  outer: false,
  ttlMs: 0,
  types: [
    { kind: 'STRING', nullable: true },
    { kind: 'INT', nullable: true },
  ],
  keyIdx: [0],
};

let seq = 0;
const c = new Cursor();

function add(s: SideStore, row: Row): SideStore {
  const key = row[0] as string;
  s.read(key, c);
  cursorPut(spec, c, row, 1, -1, seq++, 0, entryHash(spec, row), true);
  return s.write(key, c);
}

function remove(s: SideStore, row: Row): SideStore {
  const key = row[0] as string;
  s.read(key, c);
  return cursorRemove(spec, c, row) ? s.write(key, c) : s;
}

function rowsOf(s: SideStore, key: string): unknown[] {
  s.read(key, c);
  return cursorEntries(c).map((e) => e.row[1]);
}

/** Everything a version shows: keys in order with their rows. */
function shown(s: SideStore): [string, unknown[]][] {
  return [...s].map(([k, es]) => [k, es.map((e) => e.row[1])]);
}

describe('join side store', () => {
  for (const edits of [false, true]) {
    it(`${edits ? 'in transient edits' : 'without edits'}: kept versions never change; branches and the first run are apart`, () => {
      const e = () => (edits ? newEdit() : null);
      const rows = Array.from({ length: 8 }, (_, i): Row => [i % 2 === 0 ? 'a' : 'b', i]);
      let s = SideStore.empty();
      s = within(e(), () => add(add(s, rows[0] as Row), rows[1] as Row));
      const kept = s;
      const keptJson = JSON.stringify(kept);
      const later: Row = ['c', 100];
      // The first run: more rows, a new key, then key b emptied and back.
      const first = within(e(), () => {
        let f = add(add(kept, rows[2] as Row), later);
        f = remove(f, rows[1] as Row);
        return add(f, rows[3] as Row);
      });
      // A branch from the kept version: other rows, and key c, which the first run created since.
      const branch = within(e(), () => add(add(add(kept, rows[4] as Row), ['c', 7]), rows[5] as Row));
      expect(shown(kept)).toEqual([['a', [0]], ['b', [1]]]);
      expect(JSON.stringify(kept)).toBe(keptJson);
      expect(shown(first)).toEqual([['a', [0, 2]], ['b', [3]], ['c', [100]]]);
      expect(shown(branch)).toEqual([['a', [0, 4]], ['b', [1, 5]], ['c', [7]]]);
      expect(rowsOf(first, 'c')).toEqual([100]);
      expect(rowsOf(branch, 'c')).toEqual([7]);
      expect(first.size).toBe(3);
    });
  }

  for (const edits of [false, true]) {
    it(`${edits ? 'in transient edits' : 'without edits'}: the first run going on after a branch never sees the branch's rows, nor the branch the first run's`, () => {
      const e = () => (edits ? newEdit() : null);
      // The first run stores a under key a, keeps that version, then writes key b only.
      const kept = within(e(), () => add(SideStore.empty(), ['a', 1]));
      const second = within(e(), () => add(kept, ['b', 1]));
      // A branch from the kept version appends to key a, which the first run has not touched since.
      const branch = within(e(), () => add(kept, ['a', 2]));
      // The first run goes on (another key), then reads key a.
      const third = within(e(), () => add(second, ['c', 1]));
      const fourth = within(e(), () => add(third, ['a', 3]));
      expect(rowsOf(kept, 'a')).toEqual([1]);
      expect(rowsOf(second, 'a')).toEqual([1]);
      expect(rowsOf(third, 'a')).toEqual([1]);
      expect(rowsOf(fourth, 'a')).toEqual([1, 3]);
      expect(rowsOf(branch, 'a')).toEqual([1, 2]);
      expect(shown(third)).toEqual([['a', [1]], ['b', [1]], ['c', [1]]]);
      // A branch of the branch, and a branch from the first run's newer version, stay apart too.
      const twig = within(e(), () => add(branch, ['a', 4]));
      const late = within(e(), () => add(second, ['a', 5]));
      expect(rowsOf(twig, 'a')).toEqual([1, 2, 4]);
      expect(rowsOf(late, 'a')).toEqual([1, 5]);
      expect(rowsOf(fourth, 'a')).toEqual([1, 3]);
      expect(rowsOf(branch, 'a')).toEqual([1, 2]);
    });
  }

  it('versions compare and serialise by content, whichever logs and registries hold them', () => {
    const rows: Row[] = [['a', 1], ['b', 2], ['a', 3]];
    let x = SideStore.empty();
    for (const r of rows) x = within(newEdit(), () => add(x, r));
    // The same content reached another way: b first, and a's log copied by a removal.
    let y = SideStore.empty();
    y = add(add(add(add(y, rows[1] as Row), ['a', 0]), rows[0] as Row), rows[2] as Row);
    y = remove(y, ['a', 0]);
    expect(shown(y)).toEqual(shown(x));
    // Entries carry their seq, so compare the rows only through a fresh pair of equal stores.
    const same = (s: SideStore) => JSON.parse(JSON.stringify(s)).map(([k, es]: [string, { row: Row }[]]) => [k, es.map((q) => q.row)]);
    expect(same(y)).toEqual(same(x));
    expect(SideStore.empty()).toEqual(SideStore.empty());
    expect(x).not.toEqual(SideStore.empty());
    expect(x).not.toEqual(remove(x, rows[2] as Row));
  });
});
