/** The reducer without a terminal: navigation limits, run-to, play ticks, manual inserts, reload. */
import { describe, expect, it } from 'vitest';
import { layout, split } from '../../src/ui/layout.js';
import { reduce } from '../../src/ui/reducer.js';
import { procTimeAt } from '../../src/ui/session.js';
import { storySession } from './fake-timeline.js';
import { keys, stateAt } from './state-helpers.js';

describe('navigation', () => {
  it('clamps at both ends', () => {
    expect(keys(stateAt(0), 'p', 'p').step).toBe(0);
    expect(keys(stateAt(7), 'n', 'right').step).toBe(7);
  });

  it('drops a changelog selection that does not exist at the new step', () => {
    const s = keys({ ...stateAt(7), focus: 'changelog' }, 'up');
    expect(s.selected).toBe(2);
    expect(keys(s, 'g').selected).toBeUndefined();
  });

  it('run-to stops playing and lands on the first matching step after the cursor', () => {
    const s = keys({ ...stateAt(6), playing: true }, 'b', 'e');
    expect(s.step).toBe(7);
    expect(s.playing).toBe(false);
  });

  it('an unknown run-to letter says so and leaves the step alone', () => {
    const s = keys(stateAt(2), 'b', 'z');
    expect(s.step).toBe(2);
    expect(s.message).toContain('not a run-to target');
    expect(s.mode.k).toBe('normal');
  });
});

describe('play', () => {
  it('ticks forward only while playing, and stops at the end', () => {
    expect(reduce(stateAt(3), { t: 'tick' }).step).toBe(3);
    const s = reduce({ ...stateAt(6), playing: true }, { t: 'tick' });
    expect(s.step).toBe(7);
    expect(s.playing).toBe(false);
  });

  it('will not start at the last step', () => {
    expect(keys(stateAt(7), 'enter').playing).toBe(false);
  });
});

describe('manual actions', () => {
  it('insert after the current step, move onto it, and step back over it', () => {
    const s = keys(stateAt(2), 't', '1', 'space', 'm', 'i', 'n', 'enter');
    expect(s.session.timeline.length).toBe(8);
    expect(s.step).toBe(3);
    expect(s.session.timeline.events[2]).toMatchObject({ kind: 'advance', ms: 60_000 });
    expect(s.manual).toBe(1);
    expect(procTimeAt(s.session.timeline, s.session.info.dateMs, 3) - procTimeAt(s.session.timeline, s.session.info.dateMs, 2)).toBe(60_000);
    expect(keys(s, 'p').step).toBe(2);
  });

  it('a typed watermark time is read on the scenario date', () => {
    const s = keys(stateAt(0), 'w', 'down', 'enter', '0', '9', ':', '3', '0', 'enter');
    expect(s.session.timeline.events[0]).toMatchObject({ kind: 'watermark', table: 'rates', partition: 0, to: Date.UTC(2026, 9, 1, 9, 30) });
  });

  it('esc cancels a prompt without inserting anything', () => {
    const s = keys(stateAt(0), 't', '5', 'esc');
    expect(s.session.timeline.length).toBe(7);
    expect(s.mode.k).toBe('normal');
  });
});

describe('reload', () => {
  it('requests the effect, then keeps the step (clamped) and says manual steps were dropped', () => {
    const s = keys(stateAt(5), 't', '5', 'space', 's', 'enter', 'r');
    expect(s.effect?.kind).toBe('reload');
    const shorter = storySession(storySession().timeline.events.slice(0, 3).map((event) => ({ event })));
    const r = reduce(s, { t: 'reloaded', session: shorter });
    expect(r.step).toBe(3);
    expect(r.manual).toBe(0);
    expect(r.message).toContain('1 manual step dropped');
  });
});

describe('layout', () => {
  it('split always adds up to the total', () => {
    for (let total = 8; total < 80; total++) {
      const sizes = split(total, [4, 3, 3], 2);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2);
    }
  });

  it('every size from 80x24 to 250x70 fills the frame exactly', () => {
    for (let columns = 80; columns <= 250; columns += 17) {
      for (let rows = 24; rows <= 70; rows += 7) {
        const l = layout(columns, rows);
        expect(l.height).toBe(rows - 1);
        expect(l.columns.reduce((a, c) => a + c.width, 0) + l.columns.length - 1).toBe(columns);
        for (const c of l.columns) expect(c.panes.reduce((a, p) => a + p.height, 0)).toBe(rows - 3);
      }
    }
  });
});
