/**
 * `joinstep flink FILE`: the scenario on joinstep and on real Apache Flink (the Java harness in
 * flink-harness/), both changelogs step by step with the first difference marked, then the final
 * result and the emitted watermarks. Exit 0 when they agree, 1 when they differ, 2 for a bad file
 * or when real Flink cannot be run here (no Java 17 / Maven, a failed build, a crashed JVM),
 * 3 when the scenario cannot be expressed on real Flink. `--job DIR` writes a Flink SQL job.
 */
import { loadScenarioFile } from '../scenario/load.js';
import type { Command } from './args.js';
import { compareQuery, compareRejected, type FlinkVerdict, withFlinkHarness } from './flink-compare.js';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { planFlinkJob } from '../flink/flink-job.js';
import type { Scenario } from '../scenario/types.js';
import { flinkAvailable } from '../flink/harness-client.js';
import { reportDiagnostics, writeErr, writeOut } from './output.js';
import { headedBlocks, selectQueries, selectQuery } from './select-query.js';

type FlinkCmd = Extract<Command, { name: 'flink' }>;

export const EXIT_NOT_EXPRESSIBLE = 3;

export async function flinkCommand(cmd: FlinkCmd): Promise<number> {
  const loaded = await loadScenarioFile(cmd.file, cmd.flinkVersion !== undefined ? { flinkVersion: cmd.flinkVersion } : {});
  if (cmd.job !== undefined) {
    if (!loaded.ok) {
      reportDiagnostics(loaded.diagnostics);
      return 2;
    }
    return writeJob(loaded.scenario, cmd.job, cmd.query);
  }
  if (!loaded.ok && loaded.rejectedSql === undefined) {
    reportDiagnostics(loaded.diagnostics);
    return 2;
  }
  const available = flinkAvailable();
  if (!available.ok) {
    writeErr(`joinstep: ${available.message}\nhint: ${available.hint}\n`);
    return 2;
  }
  const minor = loaded.ok ? loaded.scenario.flinkVersion : loaded.rejectedSql!.flinkVersion;
  return withFlinkHarness(minor, async (harness) => {
    const verdicts: { name: string; verdict: FlinkVerdict }[] = [];
    if (!loaded.ok) {
      const rejected = loaded.rejectedSql!;
      const queries = rejected.queries ?? [{ name: 'main', sql: rejected.sql }];
      const picked = cmd.query === undefined ? queries.map((q, i) => ({ q, i })) : queries.map((q, i) => ({ q, i })).filter((x) => x.q.name === cmd.query);
      if (picked.length === 0) {
        writeErr(`joinstep: no query named '${cmd.query ?? ''}' in ${cmd.file}\nhint: the queries are: ${queries.map((q) => q.name).join(', ')}\n`);
        return 2;
      }
      for (const { q, i } of picked) {
        const own = loaded.diagnostics.filter((d) => d.query === undefined || d.query === q.name);
        verdicts.push({ name: q.name, verdict: await compareRejected(harness, rejected, own, i) });
      }
      writeOut(headedBlocks(verdicts.map((v) => ({ name: v.name, lines: v.verdict.lines })), rejected.queries !== undefined && cmd.query === undefined));
    } else {
      const scenario = loaded.scenario;
      const chosen = selectQueries(scenario, cmd.query);
      if (!chosen.ok) {
        writeErr(`joinstep: ${chosen.message}\nhint: ${chosen.hint}\n`);
        return 2;
      }
      for (const { index, query } of chosen.selected) verdicts.push({ name: query.name, verdict: await compareQuery(harness, scenario, index) });
      writeOut(headedBlocks(verdicts.map((v) => ({ name: v.name, lines: v.verdict.lines })), chosen.headed));
    }
    if (verdicts.some((v) => v.verdict.status === 'differ')) return 1;
    if (verdicts.some((v) => v.verdict.status === 'not-expressible')) return EXIT_NOT_EXPRESSIBLE;
    return 0;
  });
}

/** `--job DIR`: writes the job for the selected query (the first, or --query NAME). */
async function writeJob(scenario: Scenario, dir: string, queryName: string | undefined): Promise<number> {
  const chosen = selectQuery(scenario, queryName);
  if (!chosen.ok) {
    writeErr(`joinstep: ${chosen.message}\nhint: ${chosen.hint}\n`);
    return 2;
  }
  const target = resolve(dir);
  const job = planFlinkJob(scenario, chosen.index, target);
  if (!job.ok) {
    writeErr(`joinstep: ${scenario.file} is not expressible as a Flink job of files because ${job.reason}\nhint: docs/flink-harness.md lists what a job can express; \`joinstep flink ${scenario.file}\` still compares it with real Flink\n`);
    return EXIT_NOT_EXPRESSIBLE;
  }
  const refused = await refuseJobFolder(target, job.files.map((f) => f.path));
  if (refused !== undefined) {
    writeErr(`joinstep: ${refused.message}\nhint: ${refused.hint}\n`);
    return 2;
  }
  try {
    for (const f of job.files) {
      const path = join(target, f.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, f.content);
    }
  } catch (error) {
    writeErr(`joinstep: cannot write the job into ${dir}: ${error instanceof Error ? error.message : String(error)}\nhint: choose a folder you can write to\n`);
    return 2;
  }
  writeOut(`wrote ${job.files.map((f) => join(dir, f.path)).join(', ')}\nrun it: sql-client.sh -f ${join(dir, 'job.sql')}  (expected result: ${job.expected.length} row${job.expected.length === 1 ? '' : 's'})\n`);
  return 0;
}

/** The first line of every job.sql the command writes names the command (flink-job.ts). */
const JOB_MARK = /^-- Written by `joinstep flink .* --job`/m;

/**
 * Why the job must not be written into `target`: a file would land outside it (a table named
 * `../x` names the folder `data/../x`), or the folder holds files and is not an earlier job
 * (`--job .` in a project would replace its README.md). Undefined when it may be written.
 */
async function refuseJobFolder(target: string, paths: readonly string[]): Promise<{ message: string; hint: string } | undefined> {
  for (const path of paths) {
    const rel = relative(target, resolve(target, path));
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      return { message: `the job file ${path} would be written outside ${target}`, hint: 'a source table\'s name becomes its data folder, data/<table>: rename the table (no `..` in it)' };
    }
  }
  const present = await readdir(target).catch(() => [] as string[]);
  if (present.length === 0) return undefined;
  const earlier = await readFile(join(target, 'job.sql'), 'utf8').then(
    (text) => JOB_MARK.test(text.slice(0, 4096)),
    () => false,
  );
  if (earlier) return undefined;
  return { message: `${target} holds other files and no earlier job: not writing the job into it`, hint: 'name a new or empty folder, e.g. --job job' };
}
