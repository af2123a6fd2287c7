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
  it('calls back when the file is saved, and not after unsubscribing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-watch-'));
    dirs.push(dir);
    const file = join(dir, 's.yaml');
    writeFileSync(file, 'name: a\n');
    let calls = 0;
    const changed = new Promise<void>((resolve) => {
      const stop = watchPath(file, () => {
        calls++;
        stop();
        resolve();
      });
    });
    writeFileSync(file, 'name: b\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await changed;
    expect(calls).toBe(1);
  });
});
