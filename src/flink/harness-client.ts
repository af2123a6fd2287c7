/**
 * The client of the Java harness that runs a scenario on real Flink (docs/flink-harness.md).
 * One JVM per Flink minor version serves many scenarios: one JSON request per line on its stdin,
 * one JSON response per line on its stdout, in order. A request that takes too long, or a JVM
 * that dies, is reported as a HarnessError naming the scenario; the next request starts a fresh
 * JVM, so one bad scenario does not stop a `joinstep test --flink` over many files.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { RejectedSql, Scenario } from '../scenario/types.js';
import { ensureHarnessBuilt, javaCommand, javaMajorVersion, launchClasspath, mavenPresent, type BuildOptions, type HarnessBuild } from './harness-build.js';
import { toHarnessRequest, type HarnessOp } from './harness-request.js';

export { toHarnessRequest } from './harness-request.js';

export interface FlinkChangelogRow {
  readonly step: number;
  readonly op: string;
  /** The row as Flink's print connector prints it: `+I[o1, 2026-10-01T09:30, 110.000000]`. */
  readonly text: string;
}

export interface FlinkWatermark {
  readonly step: number;
  /** Epoch ms; Long.MAX_VALUE (end of input) arrives as Number.MAX_SAFE_INTEGER, joinstep's own "max". */
  readonly value: number;
}

export interface FlinkError {
  readonly class: string;
  readonly message: string;
  readonly rootCause?: string;
}

export type FlinkRunResult =
  | {
      readonly id: string;
      readonly ok: true;
      /** The Maven version that ran, e.g. 2.3.0. */
      readonly flinkVersion: string;
      /** Flink's explainSql text with CHANGELOG_MODE. */
      readonly plan: string;
      readonly pinnedConfig: Readonly<Record<string, string>>;
      /** Empty for a "plan" request. */
      readonly changelog: readonly FlinkChangelogRow[];
      readonly result: readonly string[];
      /** Absent when the harness does not report watermarks. */
      readonly watermarks?: readonly FlinkWatermark[];
      /** Steps whose rows' order Flink itself does not fix (compared as a multiset, and said so). */
      readonly unorderedSteps: readonly number[];
      readonly notExpressible: string | null;
    }
  | { readonly id: string; readonly ok: false; readonly phase: 'plan' | 'run'; readonly error: FlinkError };

/** A failure of the harness itself (not of the scenario): a crash, a timeout, a garbled answer. */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export type Availability = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly hint: string };

const INSTALL_HINT = 'install Java 17 or newer and Maven 3.8 or newer (Debian/Ubuntu: `apt-get install openjdk-17-jdk-headless maven`; macOS: `brew install openjdk@17 maven`), then run again';

let availability: Availability | undefined;

/** Whether real Flink can be run here: Java 17+ and Maven on the PATH (JAVA_HOME and JOINSTEP_MVN respected). */
export function flinkAvailable(): Availability {
  if (availability !== undefined) return availability;
  const java = javaMajorVersion();
  if (java === undefined) availability = { ok: false, message: 'running real Flink needs Java 17 or newer, and `java` was not found', hint: INSTALL_HINT };
  else if (java < 17) availability = { ok: false, message: `running real Flink needs Java 17 or newer, and \`java\` is Java ${java}`, hint: INSTALL_HINT };
  else if (!mavenPresent()) availability = { ok: false, message: 'running real Flink needs Maven (to build the harness on first use), and `mvn` was not found', hint: INSTALL_HINT };
  else availability = { ok: true };
  return availability;
}

/** How long one request may take before the JVM is taken to be stuck (JOINSTEP_FLINK_TIMEOUT_MS). */
function requestTimeoutMs(): number {
  const env = Number(process.env['JOINSTEP_FLINK_TIMEOUT_MS']);
  return Number.isFinite(env) && env > 0 ? env : 120_000;
}

interface Pending {
  readonly id: string;
  readonly file: string;
  readonly resolve: (r: FlinkRunResult) => void;
  readonly reject: (e: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** One JVM per Flink minor version, reused across many scenarios. */
export class FlinkHarness {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly pending: Pending[] = [];
  private stdoutBuffer = '';
  /** The JVM's last stderr lines, quoted when it dies. */
  private readonly stderrTail: string[] = [];
  private nextId = 1;
  private closing = false;
  /** Milliseconds the last JVM took from spawn to its first answer (for docs and `--verbose` users). */
  jvmStartMs: number | undefined;
  private spawnedAt = 0;

  private constructor(
    readonly minor: string,
    readonly build: HarnessBuild,
  ) {}

  /** Builds the harness for `minor` when needed (unless opts.build is false) and starts its JVM. */
  static async start(minor: string, opts: BuildOptions = {}): Promise<FlinkHarness> {
    const available = flinkAvailable();
    if (!available.ok) throw new HarnessError(available.message, available.hint);
    const build = await ensureHarnessBuilt(minor, opts);
    const harness = new FlinkHarness(minor, build);
    harness.launch();
    return harness;
  }

  /** Runs (or only plans) one query of the scenario on real Flink; SQL joinstep rejected can only be planned. */
  run(scenario: Scenario | RejectedSql, op: HarnessOp = 'run', queryIndex = 0): Promise<FlinkRunResult> {
    if (this.closing) return Promise.reject(new HarnessError('the Flink harness was closed', 'this is a bug in joinstep'));
    if (this.child === undefined) this.launch();
    const id = `r${this.nextId++}`;
    const request = toHarnessRequest(scenario, op, queryIndex, id);
    // The harness runs the scenario's own minor version; this JVM's version is the one asked for.
    request.scenario.flinkVersion = this.minor;
    return new Promise<FlinkRunResult>((resolve, reject) => {
      const timeout = requestTimeoutMs();
      const timer = setTimeout(() => {
        this.fail(new HarnessError(`real Flink did not answer within ${Math.round(timeout / 1000)} s on ${scenario.file}; the JVM was stopped`, 'a very long scenario may need more time: set JOINSTEP_FLINK_TIMEOUT_MS (milliseconds)'));
      }, timeout);
      this.pending.push({ id, file: scenario.file, resolve, reject, timer });
      this.child!.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** Ends the JVM (EOF on its stdin) and waits for it to exit. */
  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (child === undefined) return;
    await new Promise<void>((done) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('close', () => {
        clearTimeout(kill);
        done();
      });
      child.stdin.end();
    });
  }

  private launch(): void {
    const args = [...this.build.jvmOptions, '-cp', launchClasspath(this.build), 'dev.joinstep.harness.Main'];
    const child = spawn(javaCommand(), args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.spawnedAt = Date.now();
    this.jvmStartMs = undefined;
    this.stdoutBuffer = '';
    this.stderrTail.length = 0;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (line.trim() === '') continue;
        this.stderrTail.push(line);
        if (this.stderrTail.length > 30) this.stderrTail.shift();
        if (process.env['JOINSTEP_FLINK_VERBOSE'] === '1') process.stderr.write(`  jvm | ${line}\n`);
      }
    });
    // stdin errors (EPIPE after a crash) are reported through 'close' below.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => this.fail(new HarnessError(`cannot start Java for the Flink harness: ${error.message}`, INSTALL_HINT), child));
    child.on('close', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      if (this.pending.length === 0) return;
      const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
      const last = this.stderrTail.slice(-12).join('\n');
      this.rejectAll(new HarnessError(`the Flink harness JVM ${how} while running ${this.pending[0]?.file ?? 'a scenario'}${last === '' ? '' : `; its last output:\n${last}`}`, 'this is a bug in the harness or an out-of-memory JVM; run with JOINSTEP_FLINK_VERBOSE=1 to see all of its output'));
    });
  }

  private onStdout(chunk: string): void {
    this.stdoutBuffer += chunk;
    for (;;) {
      const nl = this.stdoutBuffer.indexOf('\n');
      if (nl < 0) return;
      const line = this.stdoutBuffer.slice(0, nl).trim();
      this.stdoutBuffer = this.stdoutBuffer.slice(nl + 1);
      if (line !== '') this.onResponse(line);
    }
  }

  private onResponse(line: string): void {
    this.jvmStartMs ??= Date.now() - this.spawnedAt;
    const waiting = this.pending.shift();
    if (waiting === undefined) return;
    clearTimeout(waiting.timer);
    let parsed: FlinkRunResult;
    try {
      parsed = parseResponse(line);
    } catch (error) {
      waiting.reject(new HarnessError(`the Flink harness answered something joinstep cannot read on ${waiting.file}: ${error instanceof Error ? error.message : String(error)}`, 'this is a bug in the harness; the answer began: ' + line.slice(0, 200)));
      return;
    }
    if (parsed.id !== waiting.id) {
      waiting.reject(new HarnessError(`the Flink harness answered request ${parsed.id} when ${waiting.id} was expected`, 'this is a bug in the harness'));
      return;
    }
    waiting.resolve(parsed);
  }

  /** Stops the JVM and fails every waiting request with `error`. */
  private fail(error: HarnessError, child = this.child): void {
    if (child !== undefined && this.child === child) {
      this.child = undefined;
      child.kill('SIGKILL');
    }
    this.rejectAll(error);
  }

  private rejectAll(error: Error): void {
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(error);
    }
  }
}

/** Long.MAX_VALUE does not survive JSON.parse exactly; anything past 2^53 is "the end of input". */
function watermarkValue(v: unknown): number {
  if (typeof v !== 'number' || Number.isNaN(v)) throw new Error('a watermark value is not a number');
  return v > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : v < -Number.MAX_SAFE_INTEGER ? -Number.MAX_SAFE_INTEGER : v;
}

/** Checks the shape of one response line; throws with what is wrong. */
export function parseResponse(line: string): FlinkRunResult {
  const r = JSON.parse(line) as Record<string, unknown>;
  if (r === null || typeof r !== 'object') throw new Error('not a JSON object');
  const id = String(r['id'] ?? '');
  if (r['ok'] === false) {
    const e = (r['error'] ?? {}) as Record<string, unknown>;
    const phase = r['phase'] === 'plan' ? 'plan' : 'run';
    return {
      id,
      ok: false,
      phase,
      error: { class: String(e['class'] ?? 'unknown'), message: String(e['message'] ?? ''), ...(typeof e['rootCause'] === 'string' ? { rootCause: e['rootCause'] } : {}) },
    };
  }
  if (r['ok'] !== true) throw new Error('no "ok" field');
  const list = (k: string): unknown[] => {
    const v = r[k];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) throw new Error(`"${k}" is not a list`);
    return v;
  };
  return {
    id,
    ok: true,
    flinkVersion: String(r['flinkVersion'] ?? '?'),
    plan: typeof r['plan'] === 'string' ? r['plan'] : '',
    pinnedConfig: Object.fromEntries(Object.entries((r['pinnedConfig'] ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)])),
    changelog: list('changelog').map((c) => {
      const o = c as Record<string, unknown>;
      if (typeof o['step'] !== 'number' || typeof o['text'] !== 'string') throw new Error('a changelog row lacks step or text');
      return { step: o['step'], op: String(o['op'] ?? o['text'].slice(0, 2)), text: o['text'] };
    }),
    result: list('result').map(String),
    ...(r['watermarks'] === undefined || r['watermarks'] === null
      ? {}
      : {
          watermarks: list('watermarks').map((w) => {
            const o = w as Record<string, unknown>;
            if (typeof o['step'] !== 'number') throw new Error('a watermark lacks its step');
            return { step: o['step'], value: watermarkValue(o['value']) };
          }),
        }),
    unorderedSteps: list('unorderedSteps').filter((s): s is number => typeof s === 'number'),
    notExpressible: typeof r['notExpressible'] === 'string' ? r['notExpressible'] : null,
  };
}
