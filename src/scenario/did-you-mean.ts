/**
 * "Did you mean" suggestions for misspelt keys, tables and columns.
 */
import { printable } from '../values/printable.js';

/** Optimal-string-alignment distance: Levenshtein plus adjacent transpositions (`evnets` → `events` is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  for (let i = 0; i < rows; i++) d[i]![0] = i;
  for (let j = 0; j < cols; j++) d[0]![j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** How many edits still look like a typo rather than a different word. */
function threshold(word: string): number {
  // One letter off a one-letter name (`c` for `a`) is another name, not a typo.
  if (word.length <= 1) return 0;
  if (word.length <= 4) return 1;
  if (word.length <= 8) return 2;
  return 3;
}

/**
 * The candidate closest to `word`, or undefined when none is close enough. Case is ignored for
 * the distance; a dotted config key written without its prefix (`state.ttl`) matches by suffix,
 * and a dotted name with one part too many (a patch version, `2.3.0` for `2.3`) by prefix.
 */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    if (c === lower) return candidate;
    const distance = c.endsWith(`.${lower}`) || lower.startsWith(`${c}.`) ? 1 : editDistance(lower, c);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= threshold(word) ? best : undefined;
}

/**
 * A hint line: "did you mean `x`?" when one fits, else the list of valid names after `what`
 * ("tables are"), or `none` when there are no names at all ("the scenario declares no tables").
 */
export function suggestionHint(word: string, candidates: readonly string[], what: string, none: string): string {
  const guess = didYouMean(word, candidates);
  if (guess !== undefined) return `did you mean \`${printable(guess)}\`?`;
  if (candidates.length === 0) return none;
  return `${what}: ${candidates.map(printable).join(', ')}`;
}
