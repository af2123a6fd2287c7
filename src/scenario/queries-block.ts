/**
 * The `queries:` map (a joinstep extension of the spec's "several named queries"): query name →
 * one SQL query (SELECT or INSERT INTO) over the tables and views declared in `sql:`.
 */
import { isMap, isScalar } from 'yaml';
import type { Node, Scalar } from 'yaml';
import { describeNode, entries, report } from './context.js';
import type { Entry, LoadContext } from './context.js';
import { printable } from '../values/printable.js';

export interface QueryEntry {
  readonly name: string;
  readonly keyNode: Node;
  readonly text: string;
  /** The query's scalar, to map SQL offsets inside it back to the file. */
  readonly node: Scalar;
}

/** A name the CLI can take after --query and print after `-- `: a word, with `-` and `.` allowed. */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** The entries that are well formed (problems reported); [] when none, so the file stays multi-query. */
export function readQueries(ctx: LoadContext, e: Entry): QueryEntry[] {
  if (!isMap(e.value)) {
    report(ctx, e.valueWhere, `queries must map each query's name to its SQL, not ${describeNode(e.value)}`, 'e.g. `queries: { regular: "SELECT ... FROM orders JOIN rates ON ..." }`, or a `|` block per name');
    return [];
  }
  const out: QueryEntry[] = [];
  let ok = true;
  for (const q of entries(ctx, e.value)) {
    if (!NAME.test(q.key)) {
      report(ctx, q.keyNode, `query name \`${printable(q.key)}\` must be a word (letters, digits, _ . -, starting with a letter)`, 'e.g. `regular`, `temporal`, `lookup-join`');
      ok = false;
      continue;
    }
    const v = q.value;
    if (isScalar(v) && typeof v.value === 'string' && v.value.trim() !== '') {
      out.push({ name: q.key, keyNode: q.keyNode, text: v.value, node: v });
    } else {
      report(ctx, q.valueWhere, `queries.${q.key} must be the SQL text of one query, not ${describeNode(v)}`, 'write `NAME: |` and the SELECT (or INSERT INTO) on the following lines, indented');
      ok = false;
    }
  }
  if (out.length === 0 && ok) {
    report(ctx, e.valueWhere, 'queries must name at least one query', 'or leave `queries:` out and put the one query at the end of `sql:`');
  }
  return out;
}
