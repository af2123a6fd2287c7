/** A temporary copy of a scenario file, loaded as the app loads it, for what-if edit tests. */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Session } from '../../src/ui/session.js';
import { loadSession } from '../../src/ui/session-load.js';
import { REPO_ROOT, SPEC_EXAMPLES_DIR } from '../paths.js';

export const SIDE_BY_SIDE = `${REPO_ROOT}/scenarios/side-by-side-rate-change.yaml`;
export const EUR_EXAMPLE = `${SPEC_EXAMPLES_DIR}/eur-order-0930.yaml`;

export async function tempCopy(file: string): Promise<{ path: string; session: Session }> {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-whatif-'));
  const path = join(dir, basename(file));
  copyFileSync(file, path);
  const loaded = await loadSession(path);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return { path, session: loaded.session };
}

/** Frame text with the column separators and runs of blanks folded to one space. */
export const words = (text: string): string => text.replace(/[\s│]+/g, ' ');
