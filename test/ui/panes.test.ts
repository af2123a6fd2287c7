/**
 * The panes are pure functions of (state, size): tested by their text at 80x24 and 200x60, and
 * the frame's shape at every size in between (never more lines than rows - 1, never wider).
 */
import { describe, expect, it } from 'vitest';
import { WM_MIN } from '../../src/engine/types.js';
import { textWidth } from '../../src/ui/lines.js';
import { renderPane } from '../../src/ui/panes/index.js';
import { plain } from '../../src/ui/lines.js';
import type { PaneId } from '../../src/ui/state.js';
import { INFO, fakeTimeline, storySteps, T, wmView } from './fake-timeline.js';
import { screenText, stateAt } from './state-helpers.js';
import { stateViewOf } from '../../src/engine/describe.js';

const pane = (id: PaneId, step: number, width = 60, height = 12): string[] =>
  renderPane(stateAt(step), id, width, height).map(plain);

describe('frame shape', () => {
  it.each([
    [80, 24],
    [100, 30],
    [149, 40],
    [150, 40],
    [200, 60],
    [250, 70],
  ])('%ix%i: rows - 1 lines, each exactly as wide as the terminal', (columns, rows) => {
    for (const step of [0, 3, 6, 7]) {
      const lines = screenText(stateAt(step), columns, rows);
      expect(lines).toHaveLength(rows - 1);
      for (const l of lines) expect(textWidth(l)).toBe(columns);
    }
  });

  it('a terminal below 80x24 gets a clear message inside the frame and nothing else', () => {
    for (const [c, r] of [[79, 24], [80, 23], [40, 10], [20, 5]] as const) {
      const lines = screenText(stateAt(3), c, r);
      expect(lines).toHaveLength(r - 1);
      const words = lines.join(' ').replace(/\s+/g, ' ');
      expect(words).toContain('needs a terminal of at least 80x24');
      expect(words).toContain(`${c}x${r}`);
      expect(lines.join('\n')).not.toContain('timeline');
    }
  });
});

describe('at 80x24 every pane is visible at once', () => {
  const text = screenText(stateAt(6), 80, 24).join('\n');
  it.each(['timeline', 'left state · orders AS o', 'right state · rates AS r', 'watermarks', 'changelog', 'result', 'why · step 6'])('%s', (title) => {
    expect(text).toContain(title);
  });
  it('status line and key bar', () => {
    const lines = screenText(stateAt(6), 80, 24);
    expect(lines[0]).toContain('step 6/7');
    expect(lines[0]).toContain('wm 09:30');
    expect(lines[22]).toContain('n next');
    // help and quit lead the bar, so a narrow terminal never clips them
    expect(lines[22]).toMatch(/^ \? help\s+q quit/);
  });
});

describe('at 200x60 the panes show more', () => {
  it('three columns with the whole timeline and the full rows', () => {
    const lines = screenText(stateAt(7), 200, 60);
    const text = lines.join('\n');
    for (let i = 0; i <= 7; i++) expect(text).toMatch(new RegExp(`[ ▶]${i} [·ERLWX]{5}|[ ▶]0 ·····`));
    expect(text).toContain('+U[o1, 2026-10-01T09:30, null]');
    expect(text).toContain('rates  right wm 10:00');
    // the changelog sits in the third column: its title shares a line with a state pane or timeline
    expect(lines.find((l) => l.includes('changelog'))).toMatch(/│.*│.*changelog/);
  });
});

describe('timeline pane', () => {
  it('marks the current step, the flags, late rows, notes and manual steps', () => {
    const lines = pane('timeline', 5, 70, 10);
    expect(lines[0]).toContain('step 5/7');
    expect(lines.find((l) => l.includes('▶5'))).toContain('LATE');
    expect(lines.find((l) => l.includes(' 6 '))).toMatch(/E··W· wm rates\[all\] → 10:00 — release/);
    expect(lines.find((l) => l.includes(' 7 '))).toContain('ER··· rates[0] -D (EUR, 1.10, 09:00)');
    expect(lines.find((l) => l.includes(' 4 '))).toContain('note: Nothing yet: the order waits.');
  });

  it('keeps the current step in view on a long run', () => {
    const steps = Array.from({ length: 500 }, (_, i) => ({ event: { kind: 'advance' as const, ms: 1000, pos: { line: i + 1, col: 1 } } }));
    const s = { ...stateAt(0, { info: INFO, timeline: fakeTimeline(steps, wmView(WM_MIN, WM_MIN, WM_MIN)) }), step: 400 };
    const lines = renderPane(s, 'timeline', 60, 10).map(plain);
    expect(lines).toHaveLength(10);
    expect(lines.some((l) => l.includes('▶400'))).toBe(true);
    expect(lines.some((l) => l.includes(' 402 '))).toBe(true);
  });
});

describe('state panes', () => {
  it('show the layout, the rows, and highlight what this step added', () => {
    const lines = pane('left', 3);
    expect(lines[1]).toContain('buffered probe rows by time');
    expect(lines[2]).toContain('*EUR +I[o1, EUR, 100.00, 2026-10-01T09:30]');
  });

  it('mark the version in use and list what the step retracted', () => {
    const at6 = pane('right', 6);
    expect(at6.find((l) => l.includes('1.1000'))).toMatch(/▸EUR .*version in use/);
    const at7 = pane('right', 7);
    expect(at7.find((l) => l.includes('retracted'))).toContain('- EUR +I[EUR, 1.1000, 2026-10-01T09:00] retracted');
  });

  it('show expiry times in the scenario clock', () => {
    const steps = storySteps();
    steps[0] = { ...steps[0]!, state: [stateViewOf('l', []), stateViewOf('ttl', [{ key: 'k', row: '+I[k]', tags: ['count=1'], expiresAt: T('10:15'), expiryDomain: 'proc' }])] };
    const s = stateAt(1, { info: INFO, timeline: fakeTimeline(steps, wmView(WM_MIN, WM_MIN, WM_MIN)) });
    expect(renderPane(s, 'right', 60, 5).map(plain).join('\n')).toContain('k +I[k] count=1 expires 10:15');
  });
});

describe('watermark pane', () => {
  it('lists tables, partitions, the join watermark and who holds it back', () => {
    const lines = pane('watermarks', 3, 60, 10);
    expect(lines).toContain(' orders left  wm 09:30');
    expect(lines.join('\n')).toContain('rates  right wm 09:00 held by p0');
    expect(lines.join('\n')).toContain('p1 gen 09:25  emit 09:25');
    expect(lines.join('\n')).toContain('join wm 09:00 held back by rates partition 0');
  });

  it('shows idle partitions', () => {
    const steps = storySteps();
    steps[1] = { ...steps[1]!, watermarks: wmView(WM_MIN, T('09:00'), T('09:25'), true) };
    const s = stateAt(2, { info: INFO, timeline: fakeTimeline(steps, wmView(WM_MIN, WM_MIN, WM_MIN)) });
    expect(renderPane(s, 'watermarks', 60, 10).map(plain).join('\n')).toMatch(/p1 gen 09:25\s+emit 09:25\s+idle/);
  });
});

describe('changelog and result panes', () => {
  it('list rows with number, step and kind, newest in view', () => {
    const lines = pane('changelog', 7, 60, 3);
    expect(lines[0]).toContain('3 rows, 2 this step');
    expect(lines[1]).toContain('2 s7 -U[o1, 2026-10-01T09:30, 110.000000]');
    expect(lines[2]).toContain('3 s7 +U[o1, 2026-10-01T09:30, null]');
  });

  it('show the materialized result', () => {
    expect(pane('result', 6)).toContain(' [o1, 2026-10-01T09:30, 110.000000]');
    expect(pane('result', 7).join('\n')).toContain('[o1, 2026-10-01T09:30, null]');
  });

  it('escape control characters in row values', () => {
    const steps = storySteps();
    steps[5] = { ...steps[5]!, emitted: [{ kind: '+I', row: ['o\u001b[31m1\n', T('09:30'), '1.000000'], why: { rule: 'match', text: 'x\u0007' } }], result: ['[o\u001b1]'] };
    const s = stateAt(6, { info: INFO, timeline: fakeTimeline(steps, wmView(WM_MIN, WM_MIN, WM_MIN)) });
    const text = screenText(s, 200, 60).join('\n');
    expect(text).toContain('+I[o\\u001b[31m1\\n, 2026-10-01T09:30, 1.000000]');
    expect(text).toContain('[o\\u001b1]');
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });
});
