/**
 * Which queries a command works on. A single-query file has one ('main'); a file with `queries:`
 * has several, and without --query every command covers all of them, each under `-- NAME`.
 */
import { explainLines } from '../planner/explain.js';
import type { NamedQuery, Scenario } from '../scenario/types.js';
import { printable } from '../values/printable.js';

export type Selected = { ok: true; index: number; query: NamedQuery } | { ok: false; message: string; hint: string };

/** Picks the query named by --query (default: the first), or explains which names exist. */
export function selectQuery(scenario: Scenario, name: string | undefined): Selected {
  const index = name === undefined ? 0 : scenario.queries.findIndex((q) => q.name === name);
  const query = scenario.queries[index];
  if (index < 0 || query === undefined) {
    const names = scenario.queries.map((q) => printable(q.name)).join(', ');
    return { ok: false, message: `no query named '${printable(name ?? '')}' in ${printable(scenario.file)}`, hint: `the queries are: ${names}` };
  }
  return { ok: true, index, query };
}

/** The queries to cover: the one --query names, or all of a multi-query file, or the only one. */
export function selectQueries(scenario: Scenario, name: string | undefined): { ok: true; selected: { index: number; query: NamedQuery }[]; headed: boolean } | Extract<Selected, { ok: false }> {
  if (name !== undefined || scenario.namedQueries !== true) {
    const one = selectQuery(scenario, name);
    return one.ok ? { ok: true, selected: [{ index: one.index, query: one.query }], headed: false } : one;
  }
  return { ok: true, selected: scenario.queries.map((query, index) => ({ index, query })), headed: true };
}

/** Blocks of lines under `-- NAME` headers, a blank line between blocks; one block alone prints bare. */
export function headedBlocks(blocks: readonly { name: string; lines: readonly string[] }[], headed: boolean): string {
  if (!headed) {
    const lines = blocks.flatMap((b) => b.lines);
    return lines.length > 0 ? lines.join('\n') + '\n' : '';
  }
  return blocks.map((b) => [`-- ${b.name}`, ...b.lines].join('\n')).join('\n\n') + '\n';
}

/** `joinstep explain`: each selected query's plan, under its name for a multi-query file. */
export function explainText(scenario: Scenario, name: string | undefined): { ok: true; text: string } | Extract<Selected, { ok: false }> {
  const chosen = selectQueries(scenario, name);
  if (!chosen.ok) return chosen;
  // Names from the scenario (its name, query, table and column names) are escaped, a line break
  // inside one too: each entry is one line of the plan.
  const blocks = chosen.selected.map(({ query }) => ({
    name: printable(query.name),
    lines: explainLines(query.plan, scenario.name).map(printable),
  }));
  return { ok: true, text: headedBlocks(blocks, chosen.headed) };
}
