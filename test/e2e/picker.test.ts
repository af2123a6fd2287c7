/** `joinstep DIR` in a real terminal: the picker lists the scenarios, enter opens one, q quits cleanly. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCommand, ensureBuilt, hasTmux, Tmux } from './tmux-helpers.js';

const DIR = join(import.meta.dirname, 'fixtures');
const t = new Tmux();

describe.skipIf(!hasTmux)(hasTmux ? 'the picker in tmux' : 'SKIPPED: tmux is not installed (apt-get install tmux)', () => {
  beforeAll(async () => {
    await ensureBuilt();
    t.start(appCommand(DIR));
  }, 180_000);
  afterAll(() => t.kill());

  it('lists every scenario by name, with the highlighted one’s error or description', async () => {
    const text = await t.waitFor((s) => s.includes('pick a scenario'), 'the picker');
    expect(text).toContain('broken on purpose  (error)');
    expect(text).toContain('EUR order released when both rate partitions pass 09:30');
    expect(text).toContain('unknown table `nowhere`');
    t.keys('Down');
    await t.waitFor((s) => s.includes('Event-time temporal join; rates has two partitions.'), 'the description');
  });

  it('enter opens the scenario; q quits and restores the terminal', async () => {
    t.keys('Enter');
    await t.waitFor((s) => s.includes('step 0/5') && s.includes('n next'), 'the debugger');
    t.keys('q');
    const text = await t.waitFor((s) => s.includes('EXIT='), 'the exit status');
    expect(text).toContain('EXIT=0');
    expect(t.display('#{alternate_on}')).toBe('0');
  });
});
