#!/usr/bin/env node
// The published entry point: the esbuild bundle built by `npm install` (prepare) or `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const bundle = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('joinstep: the bundle dist/cli.mjs is missing.\nhint: run `npm run build` (npm install does it for you).\n');
  process.exit(2);
}
await import(bundle);
