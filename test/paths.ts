/** Paths the tests use, relative to this checkout: CI runs a fresh clone with shared/ beside it. */
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
/** The steering repo's shared/ folder, beside the checkout. */
export const SHARED = fileURLToPath(new URL('../../shared', import.meta.url)).replace(/\/$/, '');
export const SPEC_EXAMPLES_DIR = `${SHARED}/spec/examples`;
