/**
 * Nothing in the repository's code reaches for a file outside it: a clone with nothing beside
 * it must pass `npm test`. Scans the tests, sources, benchmarks and build scripts for string
 * literals that name a path leaving the repository: a relative path that climbs out of it from
 * its own file, an absolute path into a home or work folder, `..` joined onto the repository
 * root, or the spec's shared folder by name. test/conformance/vendored-examples.test.ts is the
 * one file allowed to look outside (it compares the vendored copy with the spec's).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';

// The comparison with the spec's copy, and this scan (its own examples of what it flags).
const ALLOWED = new Set(['test/conformance/vendored-examples.test.ts', 'test/conformance/outside-paths.test.ts']);
const SCANNED_DIRS = ['test', 'src', 'bench', 'bin', 'build-stubs'];
const SCANNED_ROOT_FILES = ['build.mjs', 'vitest.config.ts'];
const CODE = /\.(ts|tsx|mts|js|mjs|cjs)$/;

/**
 * Why a source text reaches outside the repository, one line per finding (none: it does not).
 * Looks at every quoted path (the quote right before it), so comments that quote a path count
 * too: a plain pattern scan, no JavaScript parsing, that errs on the strict side.
 */
export function outsideReferences(text: string, file: string, root: string): string[] {
  const found: string[] = [];
  const inside = (p: string): boolean => p === root || p.startsWith(root + sep);
  for (const m of text.matchAll(/['"`](\.\.?\/[^'"`\s$]*)/g)) {
    if (!inside(resolve(dirname(file), m[1]!))) found.push(`'${m[1]}' climbs out of the repository`);
  }
  for (const m of text.matchAll(/['"`](\/(?:work|home|root|Users)\/[^'"`\s]*)/g)) found.push(`'${m[1]}' is an absolute path outside the repository`);
  for (const m of text.matchAll(/['"`/]shared\/(?:spec|notes)\b/g)) found.push(`'${m[0]}' names the spec's shared folder`);
  for (const m of text.matchAll(/\b(?:join|resolve)\(\s*\w*(?:ROOT|Root|root)\s*,\s*['"`]\.\.(?:\/[^'"`]*)?['"`]/g)) {
    found.push(`${m[0]} climbs out of the repository root`);
  }
  return found;
}

function codeFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : codeFiles(path);
    return CODE.test(e.name) ? [path] : [];
  });
}

describe('the repository stands alone', () => {
  it('no test, source, benchmark or build script names a path outside the repository', () => {
    const files = [...SCANNED_DIRS.flatMap((d) => codeFiles(join(REPO_ROOT, d))), ...SCANNED_ROOT_FILES.map((f) => join(REPO_ROOT, f))];
    expect(files.length).toBeGreaterThan(100);
    const findings = files
      .filter((f) => !ALLOWED.has(relative(REPO_ROOT, f).split(sep).join('/')))
      .flatMap((f) => outsideReferences(readFileSync(f, 'utf8'), f, REPO_ROOT).map((why) => `${relative(REPO_ROOT, f)}: ${why}`));
    expect(findings).toEqual([]);
  });

  describe('the scan itself', () => {
    const root = '/repo';
    const at = (text: string, file = '/repo/test/cli/helpers.ts') => outsideReferences(text, file, root);

    it('flags the shapes that once made the suite depend on a sibling folder', () => {
      expect(at("new URL('../../../shared/spec/examples/', import.meta.url)")).not.toEqual([]);
      expect(at("const SHARED = fileURLToPath(new URL('../../shared', import.meta.url));", '/repo/test/paths.ts')).toHaveLength(1);
      expect(at('const d = join(REPO_ROOT, "../shared/spec/examples");')).not.toEqual([]);
      expect(at("join(ROOT, '..', 'x')")).not.toEqual([]);
      expect(at('read(`/work/shared/notes/x.md`)')).not.toEqual([]);
    });

    it('passes paths that stay inside', () => {
      expect(at("import { cli } from '../../src/cli/main.js';")).toEqual([]);
      expect(at("new URL('../conformance/examples/', import.meta.url)")).toEqual([]);
      expect(at("join(ROOT, 'scenarios')")).toEqual([]);
      expect(at('`${dir}/../x`')).toEqual([]);
    });
  });
});
