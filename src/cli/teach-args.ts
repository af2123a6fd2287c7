/**
 * Arguments of the teaching commands `practice`, `diff` and `diagram`: the parse functions of their
 * entries in the command table (command-registry.ts), kept here with the command type they build.
 */
import { existsSync } from 'node:fs';
import type { FlinkVersion } from '../planner/plan.js';
import type { ParsedCli } from './args.js';
import type { OptionValues } from './command-registry.js';

export const FLINK_VERSIONS: readonly FlinkVersion[] = ['2.0', '2.1', '2.2', '2.3', '2.4'];

export type TeachCommand =
  | { readonly name: 'practice'; readonly file: string; readonly scoreOut?: string; readonly mono: boolean }
  | { readonly name: 'diff'; readonly file: string; readonly versions: readonly FlinkVersion[]; readonly query?: string }
  | { readonly name: 'diagram'; readonly file: string; readonly svg: string; readonly step?: number; readonly mono: boolean; readonly query?: string };

export const TEACH_EXAMPLES = {
  practice: 'joinstep practice scenarios/temporal-eur-rate.yaml --score-out score.json',
  diff: 'joinstep diff scenarios/regular-full-join-2.1.yaml --flink-version 2.1 2.2',
  diagram: 'joinstep diagram scenarios/temporal-eur-rate.yaml --svg eur.svg',
} as const;

const fail = (message: string, hint: string): ParsedCli => ({ ok: false, message, hint });
const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

export function practiceFromValues(values: OptionValues, positionals: readonly string[]): ParsedCli {
  if (positionals.length !== 1) return fail('`practice` takes exactly one scenario file', TEACH_EXAMPLES.practice);
  const scoreOut = str(values['score-out']);
  return { ok: true, command: { name: 'practice', file: positionals[0]!, mono: values['mono'] === true, ...(scoreOut !== undefined ? { scoreOut } : {}) } };
}

/**
 * `--flink-version A B` gives two versions, and an option takes one value: the second arrives as
 * an operand. An operand that reads as a version and is not a file on disk is taken as one.
 */
export function diffFromValues(values: OptionValues, positionals: readonly string[]): ParsedCli {
  const isVersionWord = (p: string): boolean => /^\d+\.\d+$/.test(p) && !existsSync(p);
  const extra = positionals.filter(isVersionWord);
  const files = positionals.filter((p) => !isVersionWord(p));
  if (files.length !== 1) return fail('`diff` takes exactly one scenario file', TEACH_EXAMPLES.diff);
  const given = str(values['flink-version']);
  const versions = [...(given === undefined ? [] : given.split(',')), ...extra].filter((v) => v !== '');
  if (given === undefined || versions.length === 0) return fail("`diff` needs --flink-version A B (or one version, to compare with the file's own)", TEACH_EXAMPLES.diff);
  if (versions.length > 2) return fail('--flink-version takes one or two versions', TEACH_EXAMPLES.diff);
  const bad = versions.find((v) => !(FLINK_VERSIONS as readonly string[]).includes(v));
  if (bad !== undefined) return fail(`unknown flink-version '${bad}'`, `joinstep simulates ${FLINK_VERSIONS.join(', ')}`);
  const query = str(values['query']);
  return { ok: true, command: { name: 'diff', file: files[0]!, versions: versions as FlinkVersion[], ...(query !== undefined ? { query } : {}) } };
}

export function diagramFromValues(values: OptionValues, positionals: readonly string[]): ParsedCli {
  if (positionals.length !== 1) return fail('`diagram` takes exactly one scenario file', TEACH_EXAMPLES.diagram);
  const svg = str(values['svg']);
  if (svg === undefined || svg === '') return fail('`diagram` needs --svg OUT (the SVG file to write)', TEACH_EXAMPLES.diagram);
  const stepText = str(values['step']);
  const step = stepText === undefined ? undefined : Number(stepText);
  if (stepText !== undefined && (!/^\d+$/.test(stepText) || !Number.isSafeInteger(step))) return fail(`bad --step '${stepText}'`, 'a step number, 0 or more (the last step when left out)');
  const query = str(values['query']);
  return {
    ok: true,
    command: { name: 'diagram', file: positionals[0]!, svg, mono: values['mono'] === true, ...(step !== undefined ? { step } : {}), ...(query !== undefined ? { query } : {}) },
  };
}
