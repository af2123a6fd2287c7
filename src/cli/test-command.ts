/**
 * `joinstep test [FILE|DIR ...]`: runs every scenario that has an `expect:` block, prints a diff
 * for each failure and ends with `N passed, N failed` (spec §6); exit 1 if any failed.
 * A file with `queries:` is checked query by query (`expect: { queries: { NAME: {...} } }`), and
 * its failures are reported under each query's name; the file counts once.
 */
import { existsSync } from 'node:fs';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { loadScenarioText, readScenarioFile } from '../scenario/load.js';
import { runStreamedThreaded } from './run-streamed.js';
import type { Diagnostic, LoadResult } from '../scenario/types.js';
import type { Command } from './args.js';
import { printable } from '../values/printable.js';
import { paintFor } from './color.js';
import { writeErr, writeOut, writeOutExact } from './output.js';
import { findScenarioFiles } from './scenario-files.js';
import { stderrProgress } from './progress.js';
import { checkRun, queriesToRun, type Verdict } from './test-check.js';
import { checkOnFlink, type FlinkCheck } from './test-flink.js';
import { flinkAvailable, HarnessError } from '../flink/harness-client.js';
import { HarnessPool } from '../flink/harness-pool.js';

/** `readThreadEntry`: the bundle's file, to read a big file's events in a second thread (read-thread.ts). */
export async function testCommand(cmd: Extract<Command, { name: 'test' }>, readThreadEntry?: string): Promise<number> {
  const paths = cmd.paths.length > 0 ? cmd.paths : [existsSync('scenarios') ? 'scenarios' : '.'];
  const { files, missing, unreadable } = findScenarioFiles(paths);
  for (const path of missing) writeErr(`joinstep: no such file or directory: ${printable(path)}\n`);
  for (const u of unreadable) writeErr(`joinstep: cannot list the folder ${printable(u.path)} (${u.code}): its scenarios are not tested\n`);
  if (cmd.flink !== undefined) {
    const available = flinkAvailable();
    if (!available.ok) {
      writeErr(`joinstep: ${available.message}\nhint: ${available.hint}\n`);
      return 2;
    }
  }
  const pool = cmd.flink !== undefined ? new HarnessPool() : undefined;
  const version = cmd.flink?.flinkVersion;
  let passed = 0;
  let failed = missing.length + unreadable.length;
  let skipped = 0;
  const p = paintFor('stdout');
  const progress = stderrProgress();
  try {
    for (const file of files) {
      const versionOption = version !== undefined ? { flinkVersion: version } : {};
      const read = await readScenarioFile(file);
      // Without --flink, a file whose checks need only the runs streams its events into them.
      const streamed =
        read.ok && pool === undefined
          ? await runStreamedThreaded(file, read.text, queriesToRun, { ...versionOption, ...(progress === undefined ? {} : { progress: progress.stage(`running ${file}`, 'events') }) }, readThreadEntry)
          : undefined;
      progress?.done();
      let verdict: Verdict;
      let loaded: LoadResult | undefined;
      if (streamed !== undefined) verdict = checkRun(streamed.head, undefined, streamed.outputs);
      else {
        loaded = read.ok ? loadScenarioText(file, read.text, { ...versionOption, ...(progress === undefined ? {} : { progress: progress.stage(`loading ${file}`, 'events read') }) }) : read;
        progress?.done();
        verdict = checkScenario(loaded, progress === undefined ? undefined : (name) => progress.stage(`running ${file}${name === 'main' ? '' : ` (${name})`}`, 'events'));
        progress?.done();
      }
      if (verdict.status === 'skip') {
        skipped++;
        continue;
      }
      const flink = pool === undefined || loaded === undefined ? undefined : await flinkCheck(pool, loaded);
      if (verdict.status === 'pass' && flink?.status !== 'fail') {
        passed++;
        // Escaped first, then coloured (writeOut would escape the colour too).
        writeOutExact(`${p.green('PASS')} ${printable(file)}${flink === undefined ? '' : ` ${printable(flinkNote(flink))}`}\n`);
      } else {
        failed++;
        // Each detail is one line: a line break inside a value or an expected line is shown as \n.
        writeOutExact(`${p.red('FAIL')} ${printable(file)}\n${failureLines(verdict, flink).map((l) => `  ${printable(l)}`).join('\n')}\n`);
      }
    }
  } finally {
    await pool?.closeAll();
  }
  if (skipped > 0) writeOut(`(${skipped} file${skipped === 1 ? '' : 's'} without an expect: block skipped)\n`);
  writeOut(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

/** The Flink side of one file; a harness failure (crash, timeout) fails that file, not the run. */
async function flinkCheck(pool: HarnessPool, loaded: LoadResult): Promise<FlinkCheck> {
  try {
    return await checkOnFlink(pool, loaded);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    return { status: 'fail', label: 'Flink', details: [...error.message.split('\n'), `hint: ${error.hint}`] };
  }
}

function flinkNote(f: FlinkCheck): string {
  if (f.status === 'skip') return `(joinstep; Flink not checked: ${f.reason})`;
  return `(joinstep and ${f.label}${f.status === 'pass' && f.note !== undefined ? `; ${f.note}` : ''})`;
}

/** Which side failed: with --flink every detail line sits under `joinstep:` or `Flink X:`. */
function failureLines(verdict: Verdict, flink: FlinkCheck | undefined): string[] {
  const mine = verdict.status === 'fail' ? verdict.details : [];
  if (flink === undefined) return [...mine];
  const out: string[] = [];
  if (mine.length > 0) out.push('joinstep:', ...mine.map((l) => `  ${l}`));
  else out.push(`joinstep: passed`);
  if (flink.status === 'fail') out.push(`${flink.label}:`, ...flink.details.map((l) => `  ${l}`));
  else out.push(flink.status === 'skip' ? `Flink: not checked (${flink.reason})` : `${flink.label}: passed${flink.note !== undefined ? ` (${flink.note})` : ''}`);
  return out;
}

function checkScenario(loaded: LoadResult, progress?: Parameters<typeof checkRun>[1]): Verdict {
  if (loaded.ok) return checkRun(loaded.scenario, progress);
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
