import type { NamedQuery, Scenario } from '../scenario/types.js';

/** Picks the query named by --query (default: the first), or explains which names exist. */
export function selectQuery(
  scenario: Scenario,
  name: string | undefined,
): { ok: true; index: number; query: NamedQuery } | { ok: false; message: string; hint: string } {
  const index = name === undefined ? 0 : scenario.queries.findIndex((q) => q.name === name);
  const query = scenario.queries[index];
  if (index < 0 || query === undefined) {
    const names = scenario.queries.map((q) => q.name).join(', ');
    return { ok: false, message: `no query named '${name ?? ''}' in ${scenario.file}`, hint: `the queries are: ${names}` };
  }
  return { ok: true, index, query };
}
