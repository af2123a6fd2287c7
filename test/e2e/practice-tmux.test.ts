/**
 * `joinstep practice` as a candidate runs it, built, in a real terminal (tmux): the EUR scenario
 * from the first question to the score, then quit; the score JSON is written. Waits poll the
 * screen for the expected frame; nothing sleeps a fixed time.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCommand, ensureBuilt, hasTmux, Tmux } from './tmux-helpers.js';

const t = new Tmux();
const score = join(mkdtempSync(join(tmpdir(), 'joinstep-practice-e2e-')), 'score.json');
const words = (text: string): string => text.replace(/[\s│]+/g, ' ');

describe.skipIf(!hasTmux)(hasTmux ? 'joinstep practice in tmux (80x24)' : 'SKIPPED: tmux is not installed (apt-get install tmux)', () => {
  beforeAll(async () => {
    await ensureBuilt();
    t.start(appCommand(`practice scenarios/temporal-eur-rate.yaml --score-out ${score}`), 80, 24);
  }, 180_000);

  afterAll(() => t.kill());

  it('hides what the steps ahead do, then asks before the marked step', async () => {
    await t.waitFor((s) => s.includes('step 0/6'), 'the first frame');
    const first = t.screen();
    expect(first).toContain('practice');
    // The notes of later steps are not on screen, and neither is the row step 6 emits.
    expect(first).not.toContain('Buffered');
    expect(first).not.toContain('110.000000');
    t.keys('n', 'n', 'n');
    const asked = await t.waitFor((s) => s.includes('step 3, row 1: kind:'), 'the question of step 3');
    expect(words(asked)).toContain('The order arrives.');
    expect(asked).not.toContain('110.000000');
  });

  it('takes the answers and shows the score', async () => {
    t.keys('n', 'o', 't', 'h', 'i', 'n', 'g', 'Enter');
    await t.waitFor((s) => s.includes('✓ right') && s.includes('step 3/6'), 'the reveal of step 3');
    t.keys('n', 'nothing', 'Enter');
    await t.waitFor((s) => s.includes('step 4/6'), 'the reveal of step 4');
    t.keys('n', 'n');
    await t.waitFor((s) => s.includes('step 6, row 1: kind:'), 'the question of step 6');
    t.keys('+I[o1, 09:30, 110]', 'Enter', 'Enter');
    await t.waitFor((s) => s.includes('step 6/6') && s.includes('✓ right'), 'the reveal of step 6');
    t.keys('n');
    const text = await t.waitFor((s) => s.includes('practice score'), 'the score');
    expect(text).toContain('practice score: 3 / 3 (100%)');
  });

  it('q quits with status 0 and leaves the score JSON', async () => {
    t.keys('q');
    const text = await t.waitFor((s) => s.includes('EXIT='), 'the exit status');
    expect(text).toContain('EXIT=0');
    const json = JSON.parse(readFileSync(score, 'utf8'));
    expect(json).toMatchObject({ asked: 3, answered: 3, points: 3, percent: 100 });
  });
});
