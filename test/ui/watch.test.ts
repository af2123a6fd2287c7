/** --watch: saving the scenario file calls back (the app then reloads, keeping the step). */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchPath } from '../../src/ui/start.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('watchPath', () => {
  it('calls back when the file is saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-watch-'));
    dirs.push(dir);
    const file = join(dir, 's.yaml');
    writeFileSync(file, 'name: a\n');
    let calls = 0;
    let stop = (): void => {};
    const changed = new Promise<void>((resolve) => {
      stop = watchPath(file, () => {
        calls++;
        resolve();
      });
    });
    // The watcher takes its first stat asynchronously: keep saving (newer mtime each time)
    // until it notices, so the test does not depend on when that baseline was taken.
    let version = 0;
    const saver = setInterval(() => {
      version++;
      writeFileSync(file, `name: v${version}\n`);
      utimesSync(file, new Date(), new Date(Date.now() + version * 1000));
    }, 100);
    await changed;
    clearInterval(saver);
    stop();
    expect(calls).toBeGreaterThanOrEqual(1);
  });
});
