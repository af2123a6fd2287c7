/**
 * `npm run fuzz:flink -- --n N --seed S [--family F] [--flink-version V] [--reference flink|joinstep-only]
 *  [--out DIR] [--emit DIR]`: generates N scenarios (scenario i from seed S + i), runs each through
 * joinstep and the reference, shrinks every disagreement, and prints the family × version table.
 *
 * `--reference flink` (the default) drives real Flink through the harness client
 * (src/flink/harness-client.ts). `--reference joinstep-only` needs no Flink: it checks that every
 * scenario loads, plans or is rejected with a clean diagnostic, and runs without an internal error.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCase } from './generate.js';
import { FAMILIES, FLINK_VERSIONS, RELEASED_FLINK_VERSIONS, type Family, type FuzzCase, type FuzzFlinkVersion } from './model.js';
import { renderCase } from './render.js';
import { caseSeed } from './rng.js';
import { runJoinstep, type JoinstepOutcome } from './joinstep-run.js';
import { shrinkCase } from './shrink.js';
import { Summary, type Verdict } from './summary.js';
import { compareWithFlink, loadHarness, type HarnessLike } from './flink-compare.js';

interface Args {
  n: number;
  seed: number;
  family?: Family;
  flinkVersion?: FuzzFlinkVersion;
  reference: 'flink' | 'joinstep-only';
  out?: string;
  emit?: string;
  shrink: boolean;
}

const USAGE = 'usage: npm run fuzz:flink -- --n N --seed S [--family regular|semi-anti|interval|temporal|lookup] [--flink-version 2.0..2.4] [--reference flink|joinstep-only] [--out DIR] [--emit DIR] [--no-shrink]';

function parseArgs(argv: readonly string[]): Args | string {
  const a: Args = { n: 100, seed: 1, reference: 'flink', shrink: true };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const need = () => {
      if (value === undefined) throw new Error(`${flag} needs a value`);
      i++;
      return value;
    };
    try {
      switch (flag) {
        case '--n': a.n = Number.parseInt(need(), 10); break;
        case '--seed': a.seed = Number.parseInt(need(), 10); break;
        case '--family': {
          const f = need();
          if (!(FAMILIES as readonly string[]).includes(f)) return `unknown family ${f}: one of ${FAMILIES.join(', ')}`;
          a.family = f as Family;
          break;
        }
        case '--flink-version': {
          const v = need();
          if (!(FLINK_VERSIONS as readonly string[]).includes(v)) return `unknown flink-version ${v}: one of ${FLINK_VERSIONS.join(', ')}`;
          a.flinkVersion = v as FuzzFlinkVersion;
          break;
        }
        case '--reference': {
          const r = need();
          if (r !== 'flink' && r !== 'joinstep-only') return `--reference is flink or joinstep-only, not ${r}`;
          a.reference = r;
          break;
        }
        case '--out': a.out = need(); break;
        case '--emit': a.emit = need(); break;
        case '--no-shrink': a.shrink = false; break;
        case '--help': case '-h': return USAGE;
        default: return `unknown option ${flag}\n${USAGE}`;
      }
    } catch (error) {
      return `${(error as Error).message}\n${USAGE}`;
    }
  }
  if (!Number.isInteger(a.n) || a.n < 0) return `--n must be a whole number\n${USAGE}`;
  if (!Number.isInteger(a.seed) || a.seed < 0) return `--seed must be a whole number\n${USAGE}`;
  if (a.reference === 'flink' && a.flinkVersion !== undefined && !RELEASED_FLINK_VERSIONS.includes(a.flinkVersion)) {
    return `Flink ${a.flinkVersion} is not released, so real Flink cannot be the reference for it\nhint: use --reference joinstep-only, or --flink-version ${RELEASED_FLINK_VERSIONS.at(-1)!}`;
  }
  return a;
}

/** joinstep-only: a clean outcome agrees; a crash or an invalid generated file is a failure. */
function joinstepOnlyVerdict(o: JoinstepOutcome): Verdict {
  if (o.kind === 'ran' || o.kind === 'runtime-error') return 'agree';
  if (o.kind === 'rejected') return 'rejected';
  return 'crash';
}

function fileName(c: FuzzCase): string {
  return `fuzz-${c.family}-${c.flinkVersion}-${c.seed}.yaml`;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`);
    return 2;
  }
  let harness: HarnessLike | undefined;
  if (args.reference === 'flink') {
    const h = loadHarness();
    if (typeof h === 'string') {
      process.stderr.write(`fuzz:flink: ${h}\nhint: run with --reference joinstep-only to fuzz joinstep alone\n`);
      return 2;
    }
    harness = h;
  }
  const summary = new Summary();
  const reasons = new Map<string, number>();
  const started = Date.now();
  if (args.emit !== undefined) mkdirSync(args.emit, { recursive: true });
  if (args.out !== undefined) mkdirSync(args.out, { recursive: true });
  try {
    for (let i = 0; i < args.n; i++) {
      const seed = caseSeed(args.seed, i);
      // Against real Flink a random version is one it can run; every file's header names its
      // version, so a scenario still replays alone.
      const versions = args.reference === 'flink' ? RELEASED_FLINK_VERSIONS : FLINK_VERSIONS;
      const c = generateCase(seed, { versions, ...(args.family ? { family: args.family } : {}), ...(args.flinkVersion ? { flinkVersion: args.flinkVersion } : {}) });
      const text = renderCase(c);
      if (args.emit !== undefined) writeFileSync(join(args.emit, fileName(c)), text);
      const mine = runJoinstep(fileName(c), text);
      let verdict: Verdict;
      let detail = '';
      if (harness === undefined) {
        verdict = joinstepOnlyVerdict(mine);
        if (mine.kind !== 'ran') detail = `${mine.kind}: ${mine.message}`;
      } else {
        const cmp = await compareWithFlink(harness, c, mine);
        verdict = cmp.verdict;
        detail = cmp.detail;
      }
      summary.add(c.family, c.flinkVersion, verdict, seed);
      if (mine.kind !== 'ran') {
        const reason = `${mine.kind}: ${mine.message.replace(/^\d+:\d+: /, '').slice(0, 140)}`;
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      }
      // Every verdict other than agree / both reject names its seed and why, so that each scenario
      // the reference could not run can be checked by hand.
      if (verdict === 'not-expressible') process.stdout.write(`seed ${seed} (${c.shape}, ${c.flinkVersion}): ${verdict}: ${detail}\n`);
      if (verdict === 'differ' || verdict === 'crash') {
        process.stdout.write(`seed ${seed} (${c.shape}, ${c.flinkVersion}): ${verdict}: ${detail}\n`);
        if (args.shrink) {
          const same = async (x: FuzzCase) => {
            const o = runJoinstep(fileName(x), renderCase(x));
            if (harness === undefined) return joinstepOnlyVerdict(o) === 'crash' && o.kind === mine.kind;
            return (await compareWithFlink(harness, x, o)).verdict === verdict;
          };
          const small = await shrinkCase(c, same);
          const out = renderCase(small);
          if (args.out !== undefined) writeFileSync(join(args.out, fileName(c)), out);
          else process.stdout.write(`shrunk to ${small.events.length} event(s):\n${out}\n`);
        }
      }
      if ((i + 1) % 500 === 0) process.stderr.write(`... ${i + 1}/${args.n}\n`);
    }
  } finally {
    await harness?.close();
  }
  const ms = Date.now() - started;
  process.stdout.write(`\n${summary.format()}\n`);
  process.stdout.write(`\n${args.n} scenario(s) from seed ${args.seed}, reference ${args.reference}, ${ms} ms (${args.n > 0 ? (ms / args.n).toFixed(1) : '0'} ms per scenario)\n`);
  const top = [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
  if (top.length > 0) process.stdout.write(`\nwhy joinstep did not run a scenario (top ${top.length}):\n${top.map(([r, n]) => `${String(n).padStart(6)}  ${r}`).join('\n')}\n`);
  return summary.failures > 0 ? 1 : 0;
}

main().then((code) => {
  process.exitCode = code;
}, (error: unknown) => {
  process.stderr.write(`fuzz:flink: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 2;
});
