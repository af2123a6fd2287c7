/**
 * Runs a job written by `joinstep flink FILE --job DIR` on a local MiniCluster (the harness's
 * RunSqlScript entry point, standing in for Flink's SQL client), with the two jars a SQL client
 * has in lib/ and the harness does not need: the filesystem connector and the JSON format.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ensureHarnessBuilt, harnessDir, javaCommand, launchClasspath, mavenCommand } from '../../src/flink/harness-build.js';

const JOB_JARS = ['flink-connector-files', 'flink-json'];

export async function runJobOnMiniCluster(minor: string, script: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const build = await ensureHarnessBuilt(minor);
  const libs = join(harnessDir(), 'target', minor, 'job-libs');
  const jars = JOB_JARS.map((a) => join(libs, `${a}-${build.mavenVersion}.jar`));
  for (const [i, jar] of jars.entries()) {
    if (existsSync(jar)) continue;
    const r = spawnSync(mavenCommand(), ['-B', '-q', '-Dstyle.color=never', '-f', join(harnessDir(), 'pom.xml'), `-Dflink.version=${build.mavenVersion}`, `-Dharness.minor=${minor}`, 'dependency:copy', `-Dartifact=org.apache.flink:${JOB_JARS[i]}:${build.mavenVersion}`, `-DoutputDirectory=${libs}`], { encoding: 'utf8', timeout: 600_000 });
    if (r.status !== 0) throw new Error(`cannot fetch ${JOB_JARS[i]}: ${r.stdout}${r.stderr}`);
  }
  const classpath = [launchClasspath(build), ...jars].join(delimiter);
  const r = spawnSync(javaCommand(), [...build.jvmOptions, '-cp', classpath, 'dev.joinstep.harness.job.RunSqlScript', script], { encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The result a printed changelog ends with: +I/+U add a row, -U/-D take one away (sorted, as expected-result.txt is). */
export function foldPrinted(lines: readonly string[]): string[] {
  const rows: string[] = [];
  for (const line of lines) {
    const m = /^([+-][IUD])(\[.*\])$/.exec(line.trim());
    if (m === null) continue;
    if (m[1] === '+I' || m[1] === '+U') rows.push(m[2]!);
    else {
      const at = rows.indexOf(m[2]!);
      if (at >= 0) rows.splice(at, 1);
      else rows.push(`(retracted but never added) ${m[2]}`);
    }
  }
  return rows.sort();
}
