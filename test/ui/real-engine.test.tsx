/**
 * The app over the real loader and engine, on the spec's conformance example: the panes show
 * what the engine computed, and the why view explains the wait and the release.
 */
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App.js';
import { loadSession } from '../../src/ui/session-load.js';
import { frame, KEY, press, render, unmount } from './helpers.js';
import { REPO_ROOT, SPEC_EXAMPLES_DIR } from '../paths.js';

const EXAMPLE = `${SPEC_EXAMPLES_DIR}/eur-order-0930.yaml`;
const words = (text: string): string => text.replace(/[\s│]+/g, ' ');

describe('the app over the real engine', () => {
  it('steps through the EUR example: wait, then release with the 09:00 rate', async () => {
    const loaded = await loadSession(EXAMPLE);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const r = await render(<App session={loaded.session} />, { columns: 120, rows: 40 });
    expect(frame(r)).toContain('step 0/6');
    await press(r, 'n', 'n', 'n');
    let text = words(frame(r));
    expect(text).toContain('orders[0] +I (o1, EUR, 100.00, 09:30)');
    expect(text).toContain('nothing came out of step 3');
    expect(text).toContain('left state · orders AS o');
    expect(text).toContain('+I[o1, EUR, 100.00, 2026-10-01T09:30]');
    await press(r, 'b', 'e');
    text = words(frame(r));
    expect(text).toContain('step 6/6');
    expect(text).toContain('+I[o1, 2026-10-01T09:30, 110.000000]');
    expect(text).toContain('[o1, 2026-10-01T09:30, 110.000000]');
    expect(text).toContain('join wm 10:00');
    await press(r, KEY.left);
    expect(frame(r)).toContain('step 5/6');
    expect(frame(r)).toContain('changelog  0 rows');
    await unmount(r);
  });

  it('a scenario error comes back as printable diagnostics', async () => {
    const loaded = await loadSession(`${REPO_ROOT}/test/e2e/fixtures/broken.yaml`);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.errors[0]).toMatch(/broken\.yaml:8:11: error: unknown table `nowhere`/);
  });
});
