/**
 * The client's handling of the harness process, with stand-ins for `java` and `mvn` (small Node
 * scripts) so that it runs without Java: build on first use and reuse after, a rebuild when the
 * pom changes, answers in order, a JVM that crashes or hangs reported with the scenario's name,
 * and a fresh JVM for the next scenario.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlinkHarness, HarnessError } from '../../src/flink/harness-client.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';

const root = mkdtempSync(join(tmpdir(), 'joinstep-harness-'));
const dir = join(root, 'flink-harness');
const bin = join(root, 'jdk', 'bin');
const buildLog = join(root, 'builds.log');

// `mvn`: -v answers; `package` writes the jar and classpath where the protocol says, and logs the build.
const MVN = `#!/usr/bin/env node
const fs = require('node:fs'); const path = require('node:path');
const args = process.argv.slice(2);
if (args.includes('-v')) { console.log('Apache Maven 3.8.7'); process.exit(0); }
const minor = args.find((a) => a.startsWith('-Dharness.minor=')).split('=')[1];
const pom = args[args.indexOf('-f') + 1];
const out = path.join(path.dirname(pom), 'target', minor);
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'joinstep-flink-harness.jar'), 'jar');
fs.writeFileSync(path.join(out, 'classpath.txt'), '/nowhere/flink.jar\\n');
fs.appendFileSync(${JSON.stringify(buildLog)}, minor + '\\n');
console.log('[INFO] BUILD SUCCESS');
`;

// \`java\`: -version answers 17; otherwise a harness that echoes, crashes or hangs by scenario name.
const JAVA = `#!/usr/bin/env node
if (process.argv.includes('-version')) { console.error('openjdk version "17.0.15" 2025-04-15'); process.exit(0); }
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  const name = req.scenario.name;
  if (name === 'crash') { console.error('java.lang.OutOfMemoryError: Java heap space'); process.exit(3); }
  if (name === 'hang') return;
  const rows = req.scenario.events.filter((e) => e.kind === 'row').map((e) => ({ step: e.step, op: e.op, text: e.op + '[' + Object.values(e.row).join(', ') + ']' }));
  console.log(JSON.stringify({ id: req.id, ok: true, flinkVersion: '2.3.0', plan: 'plan of ' + name, pinnedConfig: {}, changelog: rows, result: [], watermarks: [], notExpressible: null }));
});
`;

function scenario(name: string): Scenario {
  const r = loadScenarioText(
    `${name}.yaml`,
    `name: ${name}
sql: |
  CREATE TABLE a (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');
  CREATE TABLE b (k STRING, w INT) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');
  SELECT a.k, v, w FROM a JOIN b ON a.k = b.k;
events:
  - { to: a, row: { k: x, v: 1 } }
`,
  );
  if (!r.ok) throw new Error(r.diagnostics[0]?.message);
  return r.scenario;
}

const saved = { ...process.env };
beforeAll(() => {
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(bin, 'java'), JAVA);
  writeFileSync(join(root, 'mvn'), MVN);
  chmodSync(join(bin, 'java'), 0o755);
  chmodSync(join(root, 'mvn'), 0o755);
  writeFileSync(join(dir, 'pom.xml'), '<project/>');
  writeFileSync(join(dir, 'versions.json'), '{"2.3": "2.3.0"}');
  writeFileSync(join(dir, 'jvm-options.txt'), '# no options\n');
  process.env['JOINSTEP_FLINK_HARNESS'] = dir;
  process.env['JAVA_HOME'] = join(root, 'jdk');
  process.env['JOINSTEP_MVN'] = join(root, 'mvn');
  process.env['JOINSTEP_FLINK_TIMEOUT_MS'] = '6000';
});
afterAll(() => {
  process.env = saved;
});

const builds = (): string[] => readFileSync(buildLog, 'utf8').trim().split('\n');
const quiet = { progress: () => undefined };

describe('FlinkHarness with stand-in java and mvn', () => {
  it('builds on first use, then reuses the build', async () => {
    const first = await FlinkHarness.start('2.3', quiet);
    await first.close();
    const second = await FlinkHarness.start('2.3', quiet);
    await second.close();
    expect(builds()).toEqual(['2.3']);
  });

  it('builds again when the pom changes', async () => {
    writeFileSync(join(dir, 'pom.xml'), '<project><!-- changed --></project>');
    const h = await FlinkHarness.start('2.3', quiet);
    await h.close();
    expect(builds()).toEqual(['2.3', '2.3']);
  });

  it('fails with a hint instead of building when asked not to build', async () => {
    writeFileSync(join(dir, 'pom.xml'), '<project><!-- changed again --></project>');
    await expect(FlinkHarness.start('2.3', { build: false })).rejects.toThrow(/not built/);
  });

  it('refuses a version the harness does not know, naming the ones it does', async () => {
    await expect(FlinkHarness.start('2.4', quiet)).rejects.toThrow(/Flink 2\.4 cannot be run: the harness knows the released versions 2\.3/);
  });

  it('answers many scenarios from one JVM, in order', async () => {
    const h = await FlinkHarness.start('2.3', quiet);
    try {
      const answers = await Promise.all(['one', 'two', 'three'].map((n) => h.run(scenario(n), 'plan')));
      expect(answers.map((a) => (a.ok ? a.plan : '?'))).toEqual(['plan of one', 'plan of two', 'plan of three']);
    } finally {
      await h.close();
    }
  });

  it('reports a crashed JVM with the scenario and its last output, then serves the next scenario', async () => {
    const h = await FlinkHarness.start('2.3', quiet);
    try {
      const crash = h.run(scenario('crash'));
      await expect(crash).rejects.toBeInstanceOf(HarnessError);
      await expect(crash).rejects.toThrow(/the Flink harness JVM exited with code 3 while running crash\.yaml; its last output:\njava\.lang\.OutOfMemoryError/);
      const next = await h.run(scenario('after'));
      expect(next.ok && next.changelog).toEqual([{ step: 1, op: '+I', text: '+I[x, 1]' }]);
    } finally {
      await h.close();
    }
  });

  it('stops a JVM that does not answer in time, and serves the next scenario', async () => {
    const h = await FlinkHarness.start('2.3', quiet);
    try {
      await expect(h.run(scenario('hang'))).rejects.toThrow(/real Flink did not answer within 6 s on hang\.yaml; the JVM was stopped/);
      const next = await h.run(scenario('later'), 'plan');
      expect(next.ok && next.plan).toBe('plan of later');
    } finally {
      await h.close();
    }
  });
});
