/** Checks a drawn frame against the layout: every pane's title on the row the layout gives it. */
import { expect } from 'vitest';
import { layout } from '../../src/ui/layout.js';
import type { PaneId } from '../../src/ui/state.js';

const TITLE: Record<PaneId, RegExp> = {
  timeline: /[▸ ]timeline /,
  left: /[▸ ]left state/,
  right: /[▸ ]right state/,
  watermarks: /[▸ ]watermarks/,
  changelog: /[▸ ]changelog/,
  result: /[▸ ]result/,
  why: /[▸ ]why ·/,
};

export function expectPanesWhereLaidOut(frame: string, columns: number, rows: number): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeGreaterThanOrEqual(rows - 1);
  for (const col of layout(columns, rows).columns) {
    let y = 1; // below the status line
    for (const p of col.panes) {
      expect(lines[y], `${p.id} title on row ${y}`).toMatch(TITLE[p.id]);
      y += p.height;
    }
  }
  expect(lines[rows - 2]).toContain('? help');
}
