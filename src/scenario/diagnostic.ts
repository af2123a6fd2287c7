/**
 * Diagnostics: the one way user mistakes leave the loader (spec §8).
 */
import type { Diagnostic } from './types.js';

/** `FILE:LINE:COL: error: MESSAGE`, plus `hint: HINT` on the next line when there is a hint. */
export function formatDiagnostic(d: Diagnostic): string {
  const head = `${d.file}:${d.line}:${d.col}: error: ${d.message}`;
  return d.hint === undefined || d.hint === '' ? head : `${head}\nhint: ${d.hint}`;
}

/** File order: by line, then column; equal positions keep the order they were reported in. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return list
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.line - b.d.line || a.d.col - b.d.col || a.i - b.i)
    .map(({ d }) => d);
}

/** Drops exact repeats (the same message at the same place), which cascades can produce. */
export function dedupeDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.line}:${d.col}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
