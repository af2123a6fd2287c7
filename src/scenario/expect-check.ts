/**
 * Checks the `expect:` form against the file's queries: the plain form belongs to a single-query
 * file, the per-query form (`expect: { queries: {...} }`) to a file with `queries:`, and each
 * per-query name must be one of the declared queries.
 */
import { report } from './context.js';
import type { LoadContext } from './context.js';
import { suggestionHint } from './did-you-mean.js';
import type { TopLevel } from './top-level.js';
import { printable } from '../values/printable.js';

export function checkExpectForm(ctx: LoadContext, top: TopLevel): void {
  const read = top.expectRead;
  if (read === undefined) return;
  const plain = read.expect;
  const hasPlain = plain.changelog !== undefined || plain.result !== undefined || plain.error !== undefined;
  if (top.queries !== undefined) {
    if (hasPlain && read.queriesKey === undefined) {
      report(ctx, read.entry.keyNode, 'this file has named queries, so its expectations are per query',
        'write expect: { queries: { NAME: { changelog: [...], result: [...] } } }');
    }
    const names = top.queries.map((q) => q.name);
    for (const k of read.queryKeys) {
      if (!names.includes(k.name)) report(ctx, k.keyNode, `expect.queries: no query named \`${printable(k.name)}\``, suggestionHint(k.name, names, 'the queries are', 'the scenario has no queries'));
    }
  } else if (read.queriesKey !== undefined) {
    report(ctx, read.queriesKey, 'expect.queries is for a file with named queries (a top-level `queries:` map)',
      'for the one query in `sql:`, write changelog / result / error directly under expect');
  }
}
