/**
 * Finding, building and locating the Java harness (flink-harness/, one build per Flink minor
 * version). The first use of a version runs Maven (which downloads Flink from Maven Central);
 * later uses reuse `flink-harness/target/<minor>/` until the pom, versions.json or the harness
 * sources change. Builds are serialized across processes by a lock file: Maven's own output
 * folders are shared between versions.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printable } from '../values/printable.js';

/** Where a built harness is, ready to launch. */
export interface HarnessBuild {
  readonly minor: string;
  readonly mavenVersion: string;
  readonly jar: string;
  readonly classpath: string;
  readonly jvmOptions: readonly string[];
}

export class HarnessBuildError extends Error {
  override readonly name = 'HarnessBuildError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

const STAMP = 'joinstep-build.sha256';
const LOCK_STALE_MS = 30 * 60_000;

/** The flink-harness/ folder: JOINSTEP_FLINK_HARNESS, else the first one above this module. */
export function harnessDir(): string {
  const fromEnv = process.env['JOINSTEP_FLINK_HARNESS'];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'flink-harness');
    if (existsSync(join(candidate, 'pom.xml'))) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new HarnessBuildError('the Flink harness (flink-harness/pom.xml) is not part of this joinstep installation', 'run joinstep from a clone of its repository, or set JOINSTEP_FLINK_HARNESS to the flink-harness folder');
}

/** versions.json: Flink minor version → the Maven release the harness is built against. */
export function harnessVersions(dir = harnessDir()): Readonly<Record<string, string>> {
  const path = join(dir, 'versions.json');
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed === null || typeof parsed !== 'object') throw new Error('not an object');
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch (error) {
    throw new HarnessBuildError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`, 'the harness checkout looks incomplete; restore flink-harness/ from the repository');
  }
}

/**
 * A fingerprint of everything the build depends on: the pom, versions.json and the harness's
 * own sources. A different fingerprint than the last build's means build again.
 */
function fingerprint(dir: string, mavenVersion: string): string {
  const hash = createHash('sha256');
  hash.update(mavenVersion);
  for (const file of ['pom.xml', 'versions.json', ...listFiles(join(dir, 'src'), dir)]) {
    hash.update(file);
    hash.update(readFileSync(join(dir, file)));
  }
  return hash.digest('hex');
}

function listFiles(root: string, base: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path, base));
    else out.push(path.slice(base.length + 1));
  }
  return out;
}

export interface BuildOptions {
  /** Build when missing or stale (default true); false = fail instead. */
  readonly build?: boolean;
  /** Where Maven's output goes while building (default: stderr, each line prefixed). */
  readonly progress?: (line: string) => void;
}

/** The harness for `minor`, built first when needed. */
export async function ensureHarnessBuilt(minor: string, opts: BuildOptions = {}): Promise<HarnessBuild> {
  const dir = harnessDir();
  const versions = harnessVersions(dir);
  const mavenVersion = versions[minor];
  if (mavenVersion === undefined) {
    throw new HarnessBuildError(`Flink ${minor} cannot be run: the harness knows the released versions ${Object.keys(versions).join(', ')}`, minor === '2.4' ? 'Flink 2.4 is not released; rules marked 2.4 come from Flink\'s main branch. Use --flink-version 2.3' : `use --flink-version with one of ${Object.keys(versions).join(', ')}`);
  }
  const out = join(dir, 'target', minor);
  const want = fingerprint(dir, mavenVersion);
  if (!isCurrent(out, want)) {
    if (opts.build === false) throw new HarnessBuildError(`the Flink ${minor} harness is not built`, `build it: mvn -B -q -f ${join(dir, 'pom.xml')} -Dflink.version=${mavenVersion} -Dharness.minor=${minor} package -DskipTests`);
    await withBuildLock(dir, async () => {
      // Another process may have built it while this one waited for the lock.
      if (isCurrent(out, want)) return;
      await runMaven(dir, minor, mavenVersion, opts.progress ?? defaultProgress);
      if (!existsSync(join(out, 'joinstep-flink-harness.jar')) || !existsSync(join(out, 'classpath.txt'))) {
        throw new HarnessBuildError(`the Maven build finished but did not produce ${join(out, 'joinstep-flink-harness.jar')} and classpath.txt`, 'the harness pom does not follow docs/flink-harness.md; this is a bug in joinstep');
      }
      writeFileSync(join(out, STAMP), want);
    });
  }
  return {
    minor,
    mavenVersion,
    jar: join(out, 'joinstep-flink-harness.jar'),
    classpath: readFileSync(join(out, 'classpath.txt'), 'utf8').trim(),
    jvmOptions: readJvmOptions(dir),
  };
}

function isCurrent(out: string, want: string): boolean {
  try {
    return readFileSync(join(out, STAMP), 'utf8').trim() === want && existsSync(join(out, 'joinstep-flink-harness.jar'));
  } catch {
    return false;
  }
}

function readJvmOptions(dir: string): string[] {
  const path = join(dir, 'jvm-options.txt');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function defaultProgress(line: string): void {
  process.stderr.write(`  mvn | ${line}\n`);
}

async function runMaven(dir: string, minor: string, mavenVersion: string, progress: (line: string) => void): Promise<void> {
  const started = Date.now();
  progress(`building the Flink ${minor} harness against Flink ${mavenVersion} (first use; Maven downloads Flink once, this takes minutes)`);
  // -q of the documented command is left out on purpose: Maven's download lines are the progress.
  const args = ['-B', '-Dstyle.color=never', '-f', join(dir, 'pom.xml'), `-Dflink.version=${mavenVersion}`, `-Dharness.minor=${minor}`, 'package', '-DskipTests'];
  const tail: string[] = [];
  const code = await new Promise<number>((done, fail) => {
    const child = spawn(mavenCommand(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (chunk: Buffer): void => {
      for (const raw of chunk.toString('utf8').split('\n')) {
        // Maven resets colours at exit even with style.color=never; those codes are not text.
        const line = raw.replace(/\u001b\[[0-9;]*m/g, '');
        if (line.trim() === '') continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        progress(printable(line));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', fail);
    child.on('close', (c) => done(c ?? 1));
  });
  if (code !== 0) {
    throw new HarnessBuildError(`building the Flink ${minor} harness failed (mvn exited with ${code}); its last lines:\n${tail.slice(-15).join('\n')}`, 'check that Maven can reach Maven Central (or its mirror in ~/.m2/settings.xml), then run again');
  }
  progress(`built the Flink ${minor} harness in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

export function mavenCommand(): string {
  return process.env['JOINSTEP_MVN'] ?? 'mvn';
}

export function javaCommand(): string {
  const home = process.env['JAVA_HOME'];
  if (home !== undefined && home !== '' && existsSync(join(home, 'bin', 'java'))) return join(home, 'bin', 'java');
  return 'java';
}

/** The classpath for launching: the harness jar, then its dependencies. */
export function launchClasspath(build: HarnessBuild): string {
  return [build.jar, build.classpath].filter((p) => p !== '').join(delimiter);
}

/**
 * Runs `body` holding the build lock (a file created exclusively). A lock older than half an
 * hour is a crashed build's and is taken over.
 */
async function withBuildLock(dir: string, body: () => Promise<void>): Promise<void> {
  const target = join(dir, 'target');
  mkdirSync(target, { recursive: true });
  const lock = join(target, '.joinstep-build.lock');
  let announced = false;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - safeMtime(lock);
      if (age > LOCK_STALE_MS) {
        rmSync(lock, { force: true });
        continue;
      }
      if (!announced) process.stderr.write('joinstep: another joinstep is building the Flink harness; waiting for it\n');
      announced = true;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    await body();
  } finally {
    rmSync(lock, { force: true });
  }
}

function safeMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** Java's major version from `java -version` (stderr), or undefined when java does not run. */
export function javaMajorVersion(): number | undefined {
  const r = spawnSync(javaCommand(), ['-version'], { encoding: 'utf8', timeout: 20_000 });
  if (r.error !== undefined || r.status !== 0) return undefined;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${r.stderr}${r.stdout}`);
  if (m === null) return undefined;
  const major = Number(m[1]);
  // Java 8 and older call themselves 1.x.
  return major === 1 ? Number(m[2]) : major;
}

export function mavenPresent(): boolean {
  const r = spawnSync(mavenCommand(), ['-v'], { encoding: 'utf8', timeout: 30_000 });
  return r.error === undefined && r.status === 0;
}
