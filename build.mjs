// Bundles the CLI into one ESM file: loading hundreds of separate ESM modules (ink, react)
// costs ~300 ms at start-up, a single bundle ~190 ms (see docs/decisions.md).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/main.tsx'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: 'dist/cli.mjs',
  jsx: 'automatic',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Ink imports the optional devtools peer statically; a stub keeps the bundle loadable.
  alias: { 'react-devtools-core': './build-stubs/react-devtools-core.mjs' },
  // Bundled CommonJS dependencies call require(); give them one.
  banner: { js: "import {createRequire as __cr} from 'node:module'; const require = __cr(import.meta.url);" },
});
