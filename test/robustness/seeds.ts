/**
 * The valid files the fuzzers start from: every bundled scenario and every conformance example.
 * Mutating real files reaches deep into the loader, planner and engine; random text alone
 * would rarely get past the YAML parser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIRS = [join(ROOT, 'scenarios'), join(ROOT, 'test', 'conformance', 'examples')];

export interface Seed {
  readonly name: string;
  readonly text: string;
}

function readDir(dir: string): Seed[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'))
    .sort()
    .map((n) => ({ name: n, text: readFileSync(join(dir, n), 'utf8') }));
}

/**
 * Scenarios that replay data files (`replay:`) are left out: the fuzzers load a mutant's text
 * under another name, where the data files beside the scenario are not found, and their checks
 * expect every diagnostic in the one file. test/scenario/replay.test.ts covers replays.
 */
export const SEEDS: readonly Seed[] = DIRS.flatMap(readDir).filter((s) => !/^\s+- \{?\s*replay:/m.test(s.text) && !/^\s+- replay:/m.test(s.text));

/** Files that must already fail (test/fixtures/bad): mutating them walks the error paths further. */
export const BAD_SEEDS: readonly Seed[] = readDir(join(ROOT, 'test', 'fixtures', 'bad'));

/** The SQL of each seed (its `sql: |` block, de-indented), for the parser fuzzer. */
export const SQL_SEEDS: readonly string[] = SEEDS.map((s) => sqlBlockOf(s.text)).filter((s) => s.length > 0);

function sqlBlockOf(text: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^sql:\s*[|>]/.test(l));
  if (start < 0) return '';
  const body: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.length > 0 && !/^\s/.test(l)) break;
    body.push(l.replace(/^ {2}/, ''));
  }
  return body.join('\n');
}
