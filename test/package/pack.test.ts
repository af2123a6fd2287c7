/**
 * The published package: `npm pack` gives a tarball that carries the built bundle, the bin, the
 * scenarios, the schema, the docs, the README and the LICENSE, and nothing of the sources or
 * tests; installed into an empty folder without dev dependencies (as `npm install joinstep`
 * does), its `joinstep` runs --version, run, explain, test and the app.
 *
 * The tarball is packed with --ignore-scripts from the bundle `ensureBuilt` made: `prepare`
 * would rebuild dist/ while other test files read it. The install takes the registry packages
 * from npm's cache when they are there (--prefer-offline), as after `npm install` in the clone.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasTmux, Tmux } from '../e2e/tmux-helpers.js';
import { cli, ROOT } from '../cli/helpers.js';

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  readonly files: readonly string[];
  readonly bin: Record<string, string>;
  readonly scripts: Record<string, string>;
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
const WORK = mkdtempSync(join(tmpdir(), 'joinstep-pack-'));
const APP = join(WORK, 'app');
const SCENARIO = 'node_modules/joinstep/scenarios/temporal-eur-rate.yaml';
let tarball = '';
let installed = false;

/** `joinstep` as installed in the empty folder, with no TTY. */
function installedCli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(join(APP, 'node_modules', '.bin', 'joinstep'), [...args], { cwd: APP, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined }, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  await ensureBuilt();
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', WORK], { cwd: ROOT, encoding: 'utf8' });
  tarball = join(WORK, out.trim().split('\n').at(-1)!);
}, 180_000);

afterAll(() => rmSync(WORK, { recursive: true, force: true }));

describe('the tarball', () => {
  const entries = (): string[] =>
    execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.replace(/^package\//, ''));

  it('carries the bundle, the bin, every scenario, the schema, the docs, README and LICENSE', () => {
    const files = new Set(entries());
    const walk = (dir: string): string[] => readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
    const wanted = [
      'package.json',
      'README.md',
      'LICENSE',
      ...Object.values(PKG.bin).map((b) => b.replace(/^\.\//, '')),
      ...walk('dist'),
      ...walk('scenarios'),
      ...walk('schema'),
      ...walk('docs'),
    ];
    expect(wanted.filter((f) => !files.has(f))).toEqual([]);
    expect(files.has('dist/cli.mjs')).toBe(true);
  });

  it('carries nothing of the sources, tests, build scripts or dependencies', () => {
    const stray = entries().filter((f) => /^(src|test|bench|build-stubs|node_modules|\.ci|dist\.new)\//.test(f) || ['build.mjs', 'tsconfig.json', 'vitest.config.ts'].includes(f));
    expect(stray).toEqual([]);
  });

  it('package.json: Apache-2.0 with the LICENSE text, `prepare` builds dist/, `files` lists what ships', () => {
    expect(PKG.license).toBe('Apache-2.0');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(PKG.scripts['prepare']).toBe('node build.mjs');
    expect([...PKG.files].sort()).toEqual(['LICENSE', 'README.md', 'bin/', 'dist/', 'docs/', 'scenarios/', 'schema/']);
  });
});

describe('installed in an empty folder without dev dependencies', () => {
  beforeAll(() => {
    execFileSync('mkdir', ['-p', APP]);
    writeFileSync(join(APP, 'package.json'), '{ "name": "try-joinstep", "private": true }\n');
    execFileSync('npm', ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: APP, encoding: 'utf8', timeout: 170_000 });
    installed = true;
  }, 180_000);

  it('installs the runtime dependencies only', () => {
    expect(installed).toBe(true);
    const modules = new Set(readdirSync(join(APP, 'node_modules')));
    expect(modules.has('joinstep')).toBe(true);
    for (const dep of Object.keys(PKG.dependencies)) expect(modules.has(dep.split('/')[0]!), dep).toBe(true);
    for (const dev of Object.keys(PKG.devDependencies)) expect(modules.has(dev.split('/')[0]!), dev).toBe(false);
    expect(existsSync(join(APP, 'node_modules', 'joinstep', 'src'))).toBe(false);
  });

  it('`joinstep --version` is the package version; `joinstep help run` works', () => {
    expect(installedCli(['--version'])).toMatchObject({ status: 0, stdout: `joinstep ${PKG.version}\n` });
    const help = installedCli(['help', 'run']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('joinstep run FILE');
  });

  it('`run` and `explain` on a bundled scenario print what the repository build prints', () => {
    for (const args of [['run'], ['run', '--result'], ['explain']]) {
      const mine = installedCli([args[0]!, SCENARIO, ...args.slice(1)]);
      expect(mine.stderr).toBe('');
      expect(mine.status).toBe(0);
      expect(mine.stdout).toBe(cli([args[0]!, join(ROOT, 'scenarios', 'temporal-eur-rate.yaml'), ...args.slice(1)]).stdout);
    }
    expect(installedCli(['run', SCENARIO]).stdout).toContain('+I[o1, 2026-10-01T09:30, 110.000000]');
  });

  it('`test` passes every bundled scenario; the schema ships beside them', () => {
    const r = installedCli(['test', 'node_modules/joinstep/scenarios']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+ passed, 0 failed$/m);
    expect(existsSync(join(APP, 'node_modules', 'joinstep', 'schema', 'scenario.schema.json'))).toBe(true);
  });

  it.skipIf(!hasTmux)('the app opens a bundled scenario in a terminal and quits on q', async () => {
    const t = new Tmux();
    try {
      t.start(`cd ${APP} && node_modules/.bin/joinstep ${SCENARIO}; echo "EXIT=$?"; sleep 600`);
      await t.waitFor((s) => s.includes('EUR order at 09:30') && s.includes('n next'), 'the app with the scenario');
      t.keys('q');
      const done = await t.waitFor((s) => s.includes('EXIT='), 'the exit status');
      expect(done).toContain('EXIT=0');
    } finally {
      t.kill();
    }
  });
});
