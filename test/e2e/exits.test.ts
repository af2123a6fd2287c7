/**
 * Every way out of the app restores the terminal: Ctrl-C, SIGTERM, an exception while rendering;
 * and the failures that must happen BEFORE the screen switches (scenario errors, no terminal).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appCommand, ensureBuilt, FIXTURE, hasTmux, ROOT, Tmux } from './tmux-helpers.js';

const BROKEN = join(import.meta.dirname, 'fixtures', 'broken.yaml');
const CRASH = join(import.meta.dirname, 'fixtures', 'crash-app.tsx');

beforeAll(ensureBuilt, 180_000);

const dir = mkdtempSync(join(tmpdir(), 'joinstep-exits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A file big enough to be read as its run goes (the app opens on its first steps), with a value
 * that is not a time far into it, where the first piece does not reach.
 */
function bigFileWithABadLine(): string {
  const lines = [
    'name: big and broken half-way',
    'sql: |',
    "  CREATE TABLE a (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');",
    "  CREATE TABLE b (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');",
    '  SELECT a.k, b.ts FROM a JOIN b ON a.k = b.k;',
    'events:',
  ];
  for (let i = 0; i < 150_000; i++) lines.push(`  - { to: ${i % 2 === 0 ? 'a' : 'b'}, row: { k: k${i % 100}, ts: ${i === 120_000 ? 'later' : i} } }`);
  const file = join(dir, 'big-broken.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('without a terminal', () => {
  it('stdout not a TTY: a clear message pointing to `joinstep run`, exit 2', () => {
    const r = spawnSync('node', ['bin/joinstep.mjs', FIXTURE], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'false' } });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('needs a terminal');
    expect(r.stderr).toContain('joinstep run FILE');
    expect(r.stderr).not.toContain('\x1b[?1049h');
  });
});

describe.skipIf(!hasTmux)(hasTmux ? 'ways out, in tmux' : 'SKIPPED: tmux is not installed (apt-get install tmux)', () => {
  let t: Tmux;
  afterEach(() => t.kill());

  async function started(cmd: string, ready: string, timeoutMs?: number): Promise<void> {
    t = new Tmux();
    t.start(cmd);
    await t.waitFor((s) => s.includes(ready), ready, timeoutMs);
    expect(t.display('#{alternate_on}')).toBe('1');
  }

  async function restored(status: string): Promise<string> {
    const text = await t.waitFor((s) => s.includes('EXIT='), 'the exit status');
    expect(text).toContain(`EXIT=${status}`);
    expect(text).toContain('BEFORE-APP');
    expect(t.display('#{alternate_on}')).toBe('0');
    expect(t.display('#{cursor_flag}')).toBe('1');
    return text;
  }

  it('Ctrl-C', async () => {
    await started(appCommand(FIXTURE), 'n next');
    t.keys('C-c');
    await restored('0');
  });

  it('SIGTERM', async () => {
    await started(appCommand(FIXTURE), 'n next');
    const shell = t.display('#{pane_pid}');
    const child = spawnSync('pgrep', ['-P', shell], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
    expect(child).toMatch(/^\d+$/);
    process.kill(Number(child), 'SIGTERM');
    await restored('143');
  });

  it('an exception while rendering: terminal restored, the error printed, exit 1', { timeout: 120_000 }, async () => {
    // Run from source through tsx: the crash harness is not part of the bundle.
    await started(`echo BEFORE-APP; node --import tsx ${CRASH} 2>&1; echo "EXIT=$?"; sleep 600`, 'crash-app ready', 90_000);
    t.keys('x');
    const text = await restored('1');
    expect(text).toContain('boom on purpose');
  });

  it('a big file with a problem half-way: the app leaves, the terminal restored, the whole message printed, exit 2', { timeout: 120_000 }, async () => {
    t = new Tmux();
    t.start(appCommand(bigFileWithABadLine()));
    const text = await t.waitFor((s) => s.includes('EXIT='), 'the exit status', 90_000);
    expect(text).toMatch(/big-broken\.yaml:120007:\d+: error: .*later/);
    expect(text).toContain('hint:');
    expect(text).toContain('EXIT=2');
    expect(t.display('#{alternate_on}')).toBe('0');
    expect(t.display('#{cursor_flag}')).toBe('1');
  });

  it('a scenario error is printed before the screen switches, exit 2', async () => {
    t = new Tmux();
    t.start(appCommand(BROKEN));
    const text = await t.waitFor((s) => s.includes('EXIT='), 'the exit status');
    expect(text).toContain('broken.yaml:8:11: error: unknown table `nowhere`');
    expect(text).toContain('EXIT=2');
    expect(t.display('#{alternate_on}')).toBe('0');
  });
});
