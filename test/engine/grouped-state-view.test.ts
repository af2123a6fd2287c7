/**
 * A state view of rows in groups (describe.ts `groupedStateView`): the rows in group order, each
 * built from its group and its index there, empty groups anywhere taking no row.
 */
import { describe, expect, it } from 'vitest';
import { groupedStateView } from '../../src/engine/describe.js';

const view = (counts: readonly number[]) =>
  groupedStateView('layout', counts.map((n, g) => ({ g, n })), (x) => x.n, (x, r) => ({ key: `g${x.g}`, row: `r${r}`, tags: [] }));

describe('groupedStateView', () => {
  it('numbers the rows across groups, skipping empty ones at the start, middle and end', () => {
    const v = view([0, 2, 0, 0, 1, 3, 0]);
    expect(v.size).toBe(6);
    expect(v.entries.map((e) => `${e.key}/${e.row}`)).toEqual(['g1/r0', 'g1/r1', 'g4/r0', 'g5/r0', 'g5/r1', 'g5/r2']);
    expect(v.entryAt(3)).toEqual({ key: 'g5', row: 'r0', tags: [] });
  });

  it('is empty without groups or rows', () => {
    expect(view([]).size).toBe(0);
    expect(view([0, 0]).entries).toEqual([]);
  });

  it('builds a row only when it is read', () => {
    let built = 0;
    const v = groupedStateView('layout', [5, 5], (n) => n, (_g, r) => (built++, { key: 'k', row: `r${r}`, tags: [] }));
    expect(v.entryAt(7).row).toBe('r2');
    expect(built).toBe(1);
  });
});
