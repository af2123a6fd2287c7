// Bundles the CLI into one ESM file: loading hundreds of separate ESM modules (ink, react)
// costs ~300 ms at start-up, a single bundle ~190 ms (docs/decisions.md).
import { readFile, rename, rm } from 'node:fs/promises';
import { build } from 'esbuild';

// `joinstep --version` prints the version the bundle was built from.
const { version } = JSON.parse(await readFile('package.json', 'utf8'));

/**
 * Ink's text helpers (string-width, slice-ansi, ansi-tokenize) build Intl.Segmenters and Unicode
 * property regexes (`/^\p{RGI_Emoji}$/v`) when their modules load: ICU data, about 30 ms of the
 * app's cold start before anything is drawn. The app draws its own frames and never needs them;
 * the picker does, later. So a top-level `const x = new Intl.Segmenter(...)` becomes an object
 * that builds the segmenter on its first `segment()` call (the only method these modules use),
 * and a top-level `const x = /.../v` used only as `x.test(...)` one that builds it on its first
 * `test()`. A module that does not match these exact shapes is bundled as it is.
 */
const lazy = (method, make) => `((make) => { let v; return { ${method}: (t) => (v ??= make()).${method}(t) }; })(() => ${make})`;

function lazyTopLevel(text) {
  let out = text.replace(/^(const|let|var) (\w+) = (new Intl\.Segmenter\([^)]*\));$/gm, (_m, kind, name, make) => `${kind} ${name} = ${lazy('segment', make)};`);
  out = out.replace(/^(const|let|var) (\w+) = (\/.+\/v);$/gm, (m, kind, name, literal) => {
    const uses = out.split(name).length - 2;
    const tests = out.split(`${name}.test(`).length - 1;
    return uses > 0 && uses === tests ? `${kind} ${name} = ${lazy('test', literal)};` : m;
  });
  return out;
}

const lazyUnicodeData = {
  name: 'lazy-unicode-data',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('new Intl.Segmenter(') && !/\/v;$/m.test(text)) return undefined;
      return { contents: lazyTopLevel(text), loader: 'js' };
    });
  },
};

// Built into a fresh folder (old chunks would pile up under dist/chunks), which replaces dist
// only once the build succeeded: a failed build leaves the last good bundle in place.
const OUT = 'dist.new';
await rm(OUT, { recursive: true, force: true });

await build({
  entryPoints: ['src/cli/main.tsx'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Code splitting keeps Ink and React out of `run` / `test` / `explain`: the app is loaded by a
  // dynamic import only when the full-screen UI starts.
  outdir: OUT,
  entryNames: 'cli',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  jsx: 'automatic',
  logLevel: 'warning',
  plugins: [lazyUnicodeData],
  define: { 'process.env.NODE_ENV': '"production"', JOINSTEP_VERSION: JSON.stringify(version) },
  // Ink imports the optional devtools peer statically; a stub keeps the bundle loadable.
  alias: { 'react-devtools-core': './build-stubs/react-devtools-core.mjs' },
  // Bundled CommonJS dependencies call require(); give them one.
  banner: { js: "import {createRequire as __cr} from 'node:module'; const require = __cr(import.meta.url);" },
});

await rm('dist', { recursive: true, force: true });
await rename(OUT, 'dist');
