/**
 * The BUILT app in a real terminal (tmux): start, step, resize (bigger, too small, back), quit,
 * and check that the terminal is restored (alternate screen off, the shell's text back).
 * Waits poll the screen for the expected frame; nothing sleeps a fixed time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPanesWhereLaidOut } from '../ui/layout-check.js';
import { appCommand, ensureBuilt, FIXTURE, hasTmux, lines, Tmux } from './tmux-helpers.js';

const t = new Tmux();
const SESSION = t.session;
const tmux = (...args: string[]): string => t.run(...args);
const display = (format: string): string => t.display(format);
const waitFor = (ok: (text: string) => boolean, what: string): Promise<string> => t.waitFor(ok, what);

describe.skipIf(!hasTmux)(hasTmux ? 'the built app in tmux (100x30)' : 'SKIPPED: tmux is not installed (apt-get install tmux)', () => {
  beforeAll(async () => {
    await ensureBuilt();
    t.start(appCommand(FIXTURE));
  }, 180_000);

  afterAll(() => t.kill());

  it('draws the first frame in the alternate screen, rows - 1 lines', async () => {
    const text = await waitFor((t) => t.includes('n next'), 'the first frame');
    expect(display('#{alternate_on}')).toBe('1');
    const ls = lines(text);
    expect(ls[0]).toContain('step 0/5');
    expect(ls[28]).toContain('n next');
    expect(ls[29]?.trim()).toBe('');
    expect(text).toContain('▸timeline');
    expectPanesWhereLaidOut(text, 100, 30);
    for (const l of ls) expect([...l].length).toBeLessThanOrEqual(100);
  });

  it('steps and explains why nothing came out yet', async () => {
    tmux('send-keys', '-t', SESSION, 'n');
    await waitFor((t) => t.includes('step 1/5'), 'step 1');
    for (const k of ['n', 'n', 'n']) tmux('send-keys', '-t', SESSION, k);
    const text = await waitFor((t) => t.includes('step 4/5'), 'step 4');
    const words = text.replace(/[\s│]+/g, ' ');
    expect(words).toContain('nothing came out of step 4');
    expect(words).toContain('note: rates partition 1 still holds the join back');
    expect(words).toContain('held back by rates partition 1');
    expect(text).toMatch(/p1 gen\s+-∞\s+emit -∞/);
  });

  it('re-lays out on resize: wider, too small, and back', async () => {
    tmux('resize-window', '-t', SESSION, '-x', '160', '-y', '45');
    let text = await waitFor((t) => lines(t)[43]?.includes('n next') === true, 'the 160x45 frame');
    // 160 columns: three columns of panes, so the changelog title shares a line with two separators
    expect(lines(text).some((l) => /│.*│.*changelog/.test(l))).toBe(true);
    expectPanesWhereLaidOut(text, 160, 45);
    for (const l of lines(text)) expect([...l].length).toBeLessThanOrEqual(160);

    tmux('resize-window', '-t', SESSION, '-x', '70', '-y', '20');
    text = await waitFor((t) => t.replace(/\s+/g, ' ').includes('at least 80x24'), 'the too-small message');
    expect(text.replace(/\s+/g, ' ')).toContain('this one is 70x20');
    expect(text).not.toContain('timeline');

    tmux('resize-window', '-t', SESSION, '-x', '100', '-y', '30');
    text = await waitFor((t) => lines(t)[28]?.includes('n next') === true, 'the 100x30 frame again');
    expect(lines(text)[0]).toContain('step 4/5');
  });

  it('runs to the emission and shows it in the changelog and result', async () => {
    tmux('send-keys', '-t', SESSION, 'b');
    await waitFor((t) => t.includes('run to the next'), 'the run-to prompt');
    tmux('send-keys', '-t', SESSION, 'e');
    const text = await waitFor((t) => t.includes('step 5/5'), 'step 5');
    expect(text).toContain('+I[o1, 2026-10-01T09:30, 110.000000]');
    expect(text).toContain('[o1, 2026-10-01T09:30, 110.000000]');
  });

  it('q quits with status 0 and restores the terminal', async () => {
    tmux('send-keys', '-t', SESSION, 'q');
    const text = await waitFor((t) => t.includes('EXIT='), 'the exit status');
    expect(text).toContain('EXIT=0');
    expect(text).toContain('BEFORE-APP');
    expect(text).not.toContain('n next');
    expect(display('#{alternate_on}')).toBe('0');
    expect(display('#{cursor_flag}')).toBe('1');
  });
});
