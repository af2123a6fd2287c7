// Bundles the CLI into one ESM file: loading hundreds of separate ESM modules (ink, react)
// costs ~300 ms at start-up, a single bundle ~190 ms (docs/decisions.md).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Old chunks would pile up under dist/chunks: start clean.
rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: ['src/cli/main.tsx'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Code splitting keeps Ink and React out of `run` / `test` / `explain`: the app is loaded by a
  // dynamic import only when the full-screen UI starts.
  outdir: 'dist',
  entryNames: 'cli',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  jsx: 'automatic',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Ink imports the optional devtools peer statically; a stub keeps the bundle loadable.
  alias: { 'react-devtools-core': './build-stubs/react-devtools-core.mjs' },
  // Bundled CommonJS dependencies call require(); give them one.
  banner: { js: "import {createRequire as __cr} from 'node:module'; const require = __cr(import.meta.url);" },
});
