/**
 * `joinstep test [FILE|DIR ...]`: runs every scenario that has an `expect:` block, prints a diff
 * for each failure and ends with `N passed, N failed` (spec §6); exit 1 if any failed.
 * A file with `queries:` is checked query by query (`expect: { queries: { NAME: {...} } }`), and
 * its failures are reported under each query's name; the file counts once.
 */
import { existsSync } from 'node:fs';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { Diagnostic, LoadResult } from '../scenario/types.js';
import type { Command } from './args.js';
import { printable } from '../values/printable.js';
import { paintFor } from './color.js';
import { writeErr, writeOut, writeOutExact } from './output.js';
import { findScenarioFiles } from './scenario-files.js';
import { checkRun, type Verdict } from './test-check.js';

export async function testCommand(cmd: Extract<Command, { name: 'test' }>): Promise<number> {
  const paths = cmd.paths.length > 0 ? cmd.paths : [existsSync('scenarios') ? 'scenarios' : '.'];
  const { files, missing } = findScenarioFiles(paths);
  for (const path of missing) writeErr(`joinstep: no such file or directory: ${printable(path)}\n`);
  let passed = 0;
  let failed = missing.length;
  let skipped = 0;
  const p = paintFor('stdout');
  for (const file of files) {
    const verdict = checkScenario(await loadScenarioFile(file));
    if (verdict.status === 'skip') {
      skipped++;
      continue;
    }
    if (verdict.status === 'pass') {
      passed++;
      // Escaped first, then coloured (writeOut would escape the colour too).
      writeOutExact(`${p.green('PASS')} ${printable(file)}\n`);
    } else {
      failed++;
      // Each detail is one line: a line break inside a value or an expected line is shown as \n.
      writeOutExact(`${p.red('FAIL')} ${printable(file)}\n${verdict.details.map((l) => `  ${printable(l)}`).join('\n')}\n`);
    }
  }
  if (skipped > 0) writeOut(`(${skipped} file${skipped === 1 ? '' : 's'} without an expect: block skipped)\n`);
  writeOut(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

function checkScenario(loaded: LoadResult): Verdict {
  if (loaded.ok) return checkRun(loaded.scenario);
  const perQuery = loaded.expect?.queries;
  if (perQuery !== undefined) return checkQueryErrors(loaded.diagnostics, perQuery);
  const expected = loaded.expect?.error;
  const messages = loaded.diagnostics.map((d) => formatDiagnostic(d));
  if (expected !== undefined && loaded.diagnostics.some((d) => d.message.includes(expected))) return { status: 'pass' };
  const head = expected === undefined ? ['the scenario does not load:'] : [`expected an error containing: ${expected}`, 'got:'];
  return { status: 'fail', details: [...head, ...messages.flatMap((m) => m.split('\n'))] };
}

/**
 * A multi-query file that does not load: it passes only when every problem is a planning error
 * of a query that expects one (`error:`), and every query that expects an error got it.
 */
function checkQueryErrors(diagnostics: readonly Diagnostic[], perQuery: Readonly<Record<string, { error?: string; changelog?: readonly string[]; result?: readonly string[] }>>): Verdict {
  const details: string[] = [];
  for (const [name, expect] of Object.entries(perQuery)) {
    const own = diagnostics.filter((d) => d.query === name);
    if (expect.error !== undefined) {
      if (own.some((d) => d.message.includes(expect.error!))) continue;
      details.push(`query ${name}:`, `  expected planning to fail with: ${expect.error}`, ...(own.length > 0 ? ['  got:', ...own.flatMap((d) => formatDiagnostic(d).split('\n').map((l) => `    ${l}`))] : ['  but it planned']));
    } else if (expect.changelog !== undefined || expect.result !== undefined) {
      details.push(`query ${name}:`, '  not run: the file does not load (see below)');
    }
  }
  const unexpected = diagnostics.filter((d) => d.query === undefined || perQuery[d.query]?.error === undefined || !d.message.includes(perQuery[d.query]!.error!));
  if (unexpected.length > 0) details.push('the scenario does not load:', ...unexpected.flatMap((d) => formatDiagnostic(d).split('\n')));
  return details.length === 0 ? { status: 'pass' } : { status: 'fail', details };
}
