/**
 * The agreement table of docs/flink-harness.md: one row per bundled scenario and test/flink-cases
 * file, its outcome on Flink 2.3 and on the version the file names. The same function writes a
 * cell (print-agreement-table.ts) and checks it (real-flink.test.ts), so the table in the docs is
 * what real Flink does today, not what someone remembered.
 */
import { readFileSync } from 'node:fs';
import { compareQuery, compareRejected, type FlinkVerdict } from '../../src/cli/flink-compare.js';
import { HarnessError } from '../../src/flink/harness-client.js';
import type { HarnessPool } from '../../src/flink/harness-pool.js';
import type { FlinkVersion } from '../../src/planner/plan.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

export interface TableRow {
  readonly file: string;
  readonly on23: string;
  /** The cell for the version the file names ('—' when that is 2.3). */
  readonly named: string;
}

/** The outcome of `file` on Flink `minor` (joinstep planned as that version too), as the table writes it. */
export async function agreementCell(pool: HarnessPool, file: string, minor: FlinkVersion): Promise<string> {
  if (minor === '2.4') return 'not run (2.4 is not released)';
  const loaded = await loadScenarioFile(file, { flinkVersion: minor });
  if (!loaded.ok && loaded.rejectedSql === undefined) return `not run (the file does not load: ${loaded.diagnostics[0]?.message ?? '?'})`;
  const entry = await pool.get(minor);
  if (!entry.ok) return `not run (${entry.message.split('\n')[0]})`;
  const verdicts: { name: string; v: FlinkVerdict }[] = [];
  try {
    if (!loaded.ok) verdicts.push({ name: 'main', v: await compareRejected(entry.harness, loaded.rejectedSql!, loaded.diagnostics, 0) });
    else for (let i = 0; i < loaded.scenario.queries.length; i++) verdicts.push({ name: loaded.scenario.queries[i]!.name, v: await compareQuery(entry.harness, loaded.scenario, i) });
  } catch (error) {
    if (error instanceof HarnessError) return `not run (harness failure: ${error.message.split('\n')[0]})`;
    throw error;
  }
  const multi = verdicts.length > 1;
  const named = (x: { name: string; v: FlinkVerdict }): string => (multi ? `query ${x.name}: ` : '') + x.v.summary;
  const differ = verdicts.filter((x) => x.v.status === 'differ');
  const notExpressible = verdicts.filter((x) => x.v.status === 'not-expressible');
  let text: string;
  if (differ.length > 0) text = `differs: ${differ.map(named).join('; ')}`;
  else if (notExpressible.length > 0) text = `not expressible: ${notExpressible.map(named).join('; ')}`;
  else text = verdicts.every((x) => x.v.summary === 'agrees') ? 'agrees' : `agrees: ${[...new Set(verdicts.map((x) => x.v.summary))].join('; ')}`;
  return escapeCell(text);
}

/** The version a file names (`flink-version:`), 2.3 by default. */
export function namedVersion(file: string): FlinkVersion {
  const v = /^flink-version:\s*["']?(2\.[0-4])["']?\s*$/m.exec(readFileSync(file, 'utf8'))?.[1];
  return (v ?? '2.3') as FlinkVersion;
}

export async function tableRow(pool: HarnessPool, file: string, path: string): Promise<TableRow> {
  const named = namedVersion(file);
  const on23 = await agreementCell(pool, file, '2.3');
  return { file: path, on23, named: named === '2.3' ? '—' : `${named}: ${await agreementCell(pool, file, named)}` };
}

export function formatRow(r: TableRow): string {
  return `| \`${r.file}\` | ${r.on23} | ${r.named} |`;
}

/** The rows of the table in the markdown text (between its header and the next blank line). */
export function parseAgreementTable(markdown: string): TableRow[] {
  const rows: TableRow[] = [];
  for (const line of markdown.split('\n')) {
    const m = /^\| `([^`]+\.yaml)` \| (.*) \| (.*) \|$/.exec(line);
    if (m !== null) rows.push({ file: m[1]!, on23: m[2]!, named: m[3]! });
  }
  return rows;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
