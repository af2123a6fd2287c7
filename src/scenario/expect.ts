/**
 * The `expect:` block (spec §6): `changelog` and `result` are lists of strings, `error` a string.
 * A file with `queries:` uses the per-query form instead: `expect: { queries: { NAME: {...} } }`
 * (a joinstep extension); the two forms never mix.
 */
import { isMap, isScalar, isSeq } from 'yaml';
import type { Node } from 'yaml';
import { deref, describeNode, entries, knownEntries, readString, report, scalarSource } from './context.js';
import type { Entry, LoadContext } from './context.js';
import type { Expectation } from './types.js';

const EXPECT_KEYS = ['changelog', 'result', 'error', 'queries'] as const;
const PLAIN_KEYS = ['changelog', 'result', 'error'] as const;

/** The expectation, plus where its parts are, so the loader can check names against `queries:`. */
export interface ExpectRead {
  readonly expect: Expectation;
  /** The `expect:` entry itself. */
  readonly entry: Entry;
  /** The per-query keys, in file order (empty for the plain form). */
  readonly queryKeys: readonly { readonly name: string; readonly keyNode: Node }[];
  /** The `queries` key inside expect, when present. */
  readonly queriesKey?: Node;
}

export function readExpect(ctx: LoadContext, e: Entry): ExpectRead | undefined {
  if (!isMap(e.value)) {
    report(ctx, e.valueWhere, `expect must be a map with changelog, result and/or error, not ${describeNode(e.value)}`);
    return undefined;
  }
  const items = knownEntries(ctx, entries(ctx, e.value), EXPECT_KEYS, 'expect');
  const perQuery = items.find((i) => i.key === 'queries');
  if (perQuery === undefined) return { expect: readPlain(ctx, items, 'expect'), entry: e, queryKeys: [] };
  const plain = items.find((i) => i.key !== 'queries');
  if (plain !== undefined) {
    report(
      ctx,
      plain.keyNode,
      `expect has both \`queries\` and \`${plain.key}\`: use one form`,
      'with named queries, put changelog / result / error under each query: expect: { queries: { NAME: { changelog: [...] } } }',
    );
  }
  const read = readPerQuery(ctx, perQuery);
  return { expect: { queries: read.byName }, entry: e, queryKeys: read.keys, queriesKey: perQuery.keyNode };
}

function readPerQuery(ctx: LoadContext, e: Entry): { byName: Record<string, Expectation>; keys: { name: string; keyNode: Node }[] } {
  const byName: Record<string, Expectation> = {};
  const keys: { name: string; keyNode: Node }[] = [];
  if (!isMap(e.value)) {
    report(ctx, e.valueWhere, `expect.queries must map each query name to its expectations, not ${describeNode(e.value)}`, 'e.g. `queries: { regular: { changelog: [...] } }`');
    return { byName, keys };
  }
  for (const q of entries(ctx, e.value)) {
    keys.push({ name: q.key, keyNode: q.keyNode });
    if (!isMap(q.value)) {
      report(ctx, q.valueWhere, `expect.queries.${q.key} must be a map with changelog, result and/or error, not ${describeNode(q.value)}`);
      continue;
    }
    byName[q.key] = readPlain(ctx, knownEntries(ctx, entries(ctx, q.value), PLAIN_KEYS, `expect.queries.${q.key}`), `expect.queries.${q.key}`);
  }
  return { byName, keys };
}

function readPlain(ctx: LoadContext, items: readonly Entry[], where: string): Expectation {
  const out: { changelog?: string[]; result?: string[]; error?: string } = {};
  for (const item of items) {
    if (item.key === 'error') {
      const s = readString(ctx, item, `${where}.error`);
      if (s !== undefined) out.error = s;
    } else if (item.key === 'changelog' || item.key === 'result') {
      const list = readLines(ctx, item, where);
      if (list !== undefined) out[item.key] = list;
    }
  }
  return out;
}

/** A list of printed rows; plain numbers or booleans are taken by their text. */
function readLines(ctx: LoadContext, e: Entry, where: string): string[] | undefined {
  if (isScalar(e.value) && e.value.value === null) return [];
  if (!isSeq(e.value)) {
    report(ctx, e.valueWhere, `${where}.${e.key} must be a list of printed rows, not ${describeNode(e.value)}`, 'e.g. `- "+I[o1, 110.000000]"`');
    return undefined;
  }
  const out: string[] = [];
  for (const raw of e.value.items) {
    const item = deref(ctx, raw);
    if (isScalar(item) && item.value !== null && typeof item.value !== 'object') {
      out.push(typeof item.value === 'string' ? item.value : scalarSource(item));
    } else if (isSeq(item) && item.flow && item.range) {
      // An unquoted result row `- [o1, 1]` is a YAML flow list: take it as written.
      out.push(ctx.text.slice(item.range[0], item.range[1]));
    } else {
      report(ctx, item ?? e.value, `each ${where}.${e.key} item must be one printed row as a string, not ${describeNode(item)}`, 'quote rows: "+I[o1, 1]"');
    }
  }
  return out;
}
