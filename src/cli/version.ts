/**
 * joinstep's version: package.json's, written into the bundle by build.mjs (the bundle then
 * needs no package.json beside it); from source (`npm run dev`), read from package.json.
 */
import { readFileSync } from 'node:fs';

declare const JOINSTEP_VERSION: string | undefined;

function fromPackageJson(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export const VERSION: string = typeof JOINSTEP_VERSION === 'string' ? JOINSTEP_VERSION : fromPackageJson();
