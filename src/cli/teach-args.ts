/**
 * Arguments of the teaching commands `practice`, `diff` and `diagram` (kept apart from args.ts,
 * as `record` is, so the other commands' options stay exactly theirs).
 */
import type { FlinkVersion } from '../planner/plan.js';
import { parseOptions } from './parse-options.js';

export const FLINK_VERSIONS: readonly FlinkVersion[] = ['2.0', '2.1', '2.2', '2.3', '2.4'];

export type TeachCommand =
  | { readonly name: 'practice'; readonly file: string; readonly scoreOut?: string; readonly mono: boolean }
  | { readonly name: 'diff'; readonly file: string; readonly versions: readonly FlinkVersion[]; readonly query?: string }
  | { readonly name: 'diagram'; readonly file: string; readonly svg: string; readonly step?: number; readonly mono: boolean; readonly query?: string };

type Parsed = { readonly ok: true; readonly command: TeachCommand } | { readonly ok: false; readonly message: string; readonly hint?: string };

const EXAMPLES = {
  practice: 'joinstep practice scenarios/temporal-eur-rate.yaml --score-out score.json',
  diff: 'joinstep diff scenarios/regular-full-join-2.1.yaml --flink-version 2.1 2.2',
  diagram: 'joinstep diagram scenarios/temporal-eur-rate.yaml --svg eur.svg',
} as const;

export function isTeachCommand(word: string | undefined): word is TeachCommand['name'] {
  return word === 'practice' || word === 'diff' || word === 'diagram';
}

export function parseTeachArgs(argv: readonly string[]): Parsed {
  const name = argv[0];
  if (!isTeachCommand(name)) return { ok: false, message: `unknown command '${String(name)}'` };
  const example = EXAMPLES[name];
  const fail = (message: string, hint: string = example): Parsed => ({ ok: false, message, hint });
  // `--flink-version A B` takes two values, which parseArgs cannot: the second is taken out first.
  const rest = [...argv.slice(1)];
  const versions: string[] = [];
  if (name === 'diff') {
    const at = rest.findIndex((a) => a === '--flink-version' || a.startsWith('--flink-version='));
    if (at >= 0) {
      const flag = rest[at]!;
      const inline = flag.includes('=') ? flag.slice(flag.indexOf('=') + 1) : undefined;
      const taken = inline !== undefined ? [inline] : rest.slice(at + 1, at + 3).filter((v) => !v.startsWith('-') && /^\d/.test(v));
      rest.splice(at, 1 + (inline !== undefined ? 0 : taken.length));
      versions.push(...taken.flatMap((v) => v.split(',')).filter((v) => v !== ''));
    }
  }
  const parsed = parseOptions(rest, {
    'score-out': { type: 'string' },
    mono: { type: 'boolean' },
    svg: { type: 'string' },
    step: { type: 'string' },
    query: { type: 'string' },
  });
  if (!parsed.ok) return fail(parsed.message);
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return fail(`\`${name}\` takes exactly one scenario file`);
  const file = positionals[0]!;
  const str = (k: string): string | undefined => (typeof values[k] === 'string' ? values[k] : undefined);
  const mono = values.mono === true;
  const query = str('query');
  const foreign = (allowed: readonly string[]): string | undefined => Object.keys(values).find((k) => values[k] !== undefined && !allowed.includes(k));
  switch (name) {
    case 'practice': {
      const other = foreign(['score-out', 'mono']);
      if (other !== undefined) return fail(`--${other} does not belong to \`practice\``);
      const scoreOut = str('score-out');
      return { ok: true, command: { name, file, mono, ...(scoreOut !== undefined ? { scoreOut } : {}) } };
    }
    case 'diff': {
      const other = foreign(['query']);
      if (other !== undefined) return fail(`--${other} does not belong to \`diff\``);
      if (versions.length === 0) return fail('`diff` needs --flink-version A B (or one version, to compare with the file\'s own)');
      if (versions.length > 2) return fail('--flink-version takes one or two versions');
      const bad = versions.find((v) => !(FLINK_VERSIONS as readonly string[]).includes(v));
      if (bad !== undefined) return fail(`unknown flink-version '${bad}'`, `joinstep simulates ${FLINK_VERSIONS.join(', ')}`);
      return { ok: true, command: { name, file, versions: versions as FlinkVersion[], ...(query !== undefined ? { query } : {}) } };
    }
    case 'diagram': {
      const other = foreign(['svg', 'step', 'mono', 'query']);
      if (other !== undefined) return fail(`--${other} does not belong to \`diagram\``);
      const svg = str('svg');
      if (svg === undefined || svg === '') return fail('`diagram` needs --svg OUT (the SVG file to write)');
      const stepText = str('step');
      const step = stepText === undefined ? undefined : Number(stepText);
      if (step !== undefined && (!/^\d+$/.test(stepText ?? '') || !Number.isSafeInteger(step))) return fail(`bad --step '${stepText}'`, 'a step number, 0 or more (the last step when left out)');
      return { ok: true, command: { name, file, svg, mono, ...(step !== undefined ? { step } : {}), ...(query !== undefined ? { query } : {}) } };
    }
  }
}
