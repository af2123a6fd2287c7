import { isMap } from 'yaml';
import type { LoadContext } from '../../src/scenario/context.js';
import { parseYaml } from '../../src/scenario/yaml-doc.js';

/** A loader context for a YAML text that must parse. */
export function contextFor(text: string, file = 'test.yaml'): LoadContext {
  const r = parseYaml(file, text);
  if (!r.ok) throw new Error(`YAML did not parse: ${r.diagnostic.message}`);
  return r.ctx;
}

/** The value node of a top-level key. */
export function topNode(ctx: LoadContext, key: string): ReturnType<typeof nodeOf> {
  return nodeOf(ctx, key);
}

function nodeOf(ctx: LoadContext, key: string) {
  const root = ctx.doc.contents;
  if (!isMap(root)) throw new Error('not a map');
  const pair = root.items.find((p) => (p.key as { value?: unknown }).value === key);
  if (!pair) throw new Error(`no key ${key}`);
  return { key: pair.key as never, value: pair.value as never };
}

/** Diagnostics as `LINE:COL message` strings, for compact assertions. */
export function where(ctx: LoadContext): string[] {
  return ctx.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
}
