/**
 * A file named for a command's output never costs the user another file: `record --out`,
 * `--frames` and `--svg` refuse the scenario itself (also through a symbolic link), a file that
 * holds something else, and two outputs on one path, before writing anything; an earlier output
 * of the same kind is replaced, and a symbolic link to it stays a link.
 */
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../e2e/tmux-helpers.js';
import { cli, ROOT } from './helpers.js';

const EUR_TEXT = readFileSync(join(ROOT, 'scenarios', 'temporal-eur-rate.yaml'), 'utf8');

beforeAll(ensureBuilt, 180_000);

/** A fresh folder holding a copy of the EUR scenario as `s.yaml`. */
function folder(): { dir: string; scenario: string } {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-outputs-'));
  const scenario = join(dir, 's.yaml');
  writeFileSync(scenario, EUR_TEXT);
  return { dir, scenario };
}

describe('record outputs that would cost the user a file', () => {
  it('--out naming the scenario itself is refused and the scenario is kept', () => {
    const { scenario } = folder();
    const r = cli(['record', scenario, '--out', scenario, '--keys', 'n']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`joinstep: --out ${scenario} names the scenario file itself: not overwriting it\nhint: write an asciicast to a file of its own\n`);
    expect(readFileSync(scenario, 'utf8')).toBe(EUR_TEXT);
  });

  it('--frames or --svg naming the scenario through a symbolic link is refused too', () => {
    const { dir, scenario } = folder();
    const link = join(dir, 'link.yaml');
    symlinkSync(scenario, link);
    for (const option of ['--frames', '--svg']) {
      const r = cli(['record', scenario, '--out', join(dir, 'demo.cast'), option, link, '--keys', 'n']);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`joinstep: ${option} ${link} names the scenario file itself`);
      expect(readFileSync(scenario, 'utf8')).toBe(EUR_TEXT);
    }
  });

  it('an existing file that is not a cast is kept, and nothing else is written', () => {
    const { dir, scenario } = folder();
    const notes = join(dir, 'notes.md');
    writeFileSync(notes, '# my notes\n');
    const svg = join(dir, 'last.svg');
    const r = cli(['record', scenario, '--out', notes, '--svg', svg, '--keys', 'n']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`joinstep: ${notes} exists and is not an asciicast: not overwriting it\nhint: choose another --out path, or remove the file first\n`);
    expect(readFileSync(notes, 'utf8')).toBe('# my notes\n');
    expect(() => lstatSync(svg)).toThrow();
  });

  it('two outputs on one path are refused', () => {
    const { dir, scenario } = folder();
    const cast = join(dir, 'demo.cast');
    const r = cli(['record', scenario, '--out', cast, '--svg', cast, '--keys', 'n']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`joinstep: --out and --svg both name ${cast}\nhint: give each output a file of its own\n`);
    expect(() => lstatSync(cast)).toThrow();
  });

  it('an earlier recording is replaced, through a symbolic link that stays a link', () => {
    const { dir, scenario } = folder();
    const cast = join(dir, 'demo.cast');
    const link = join(dir, 'latest.cast');
    expect(cli(['record', scenario, '--out', cast, '--keys', 'n']).status).toBe(0);
    const one = readFileSync(cast, 'utf8');
    symlinkSync(cast, link);
    const r = cli(['record', scenario, '--out', link, '--keys', 'n n']);
    expect(r.status, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(cast);
    expect(readFileSync(cast, 'utf8')).not.toBe(one);
    expect(readFileSync(cast, 'utf8').startsWith('{"version":2')).toBe(true);
  });
});

describe('flink --job: the job stays in its folder and costs no file', () => {
  // A table name that climbs three folders up (joined here: the repository's own scan flags a
  // quoted path that climbs out of it).
  const CLIMB = ['..', '..', '..', 'outside'].join('/');

  it('a table whose name climbs out of data/ is refused, and nothing is written outside the folder', () => {
    const { dir } = folder();
    const scenario = join(dir, 'climb.yaml');
    writeFileSync(
      scenario,
      [
        'name: climb',
        'sql: |',
        `  CREATE TABLE \`${CLIMB}\` (k STRING, v INT) WITH ('connector'='kafka','topic'='a','format'='json');`,
        "  CREATE TABLE b (k STRING, w STRING) WITH ('connector'='kafka','topic'='b','format'='json');",
        `  SELECT x.k, x.v, b.w FROM \`${CLIMB}\` AS x JOIN b ON x.k = b.k;`,
        'events:',
        `  - { to: "${CLIMB}", row: { k: x, v: 1 } }`,
        '  - { to: b, row: { k: x, w: y } }',
        '',
      ].join('\n'),
    );
    const job = join(dir, 'a', 'b', 'job');
    const r = cli(['flink', scenario, '--job', job], { env: { PATH: '/nonexistent' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`joinstep: the job file data/../../../outside/rows.json would be written outside ${job}`);
    expect(() => lstatSync(join(dir, 'outside'))).toThrow();
    expect(() => lstatSync(job)).toThrow();
  });

  it('a folder holding other files is refused; an earlier job is replaced', () => {
    const { dir, scenario } = folder();
    const readme = join(dir, 'README.md');
    writeFileSync(readme, '# my project\n');
    const refused = cli(['flink', scenario, '--job', dir], { env: { PATH: '/nonexistent' } });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`joinstep: ${dir} holds other files and no earlier job: not writing the job into it\nhint: name a new or empty folder, e.g. --job job\n`);
    expect(readFileSync(readme, 'utf8')).toBe('# my project\n');
    const job = join(dir, 'job');
    expect(cli(['flink', scenario, '--job', job], { env: { PATH: '/nonexistent' } }).status).toBe(0);
    const again = cli(['flink', scenario, '--job', job], { env: { PATH: '/nonexistent' } });
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(join(job, 'job.sql'), 'utf8')).toContain('--job`');
  });
});
