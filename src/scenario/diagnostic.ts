/**
 * Diagnostics: the one way user mistakes leave the loader (spec §8).
 */
import { printable, printableLines } from '../values/printable.js';
import type { Diagnostic } from './types.js';

/**
 * `FILE:LINE:COL: error: MESSAGE`, plus `hint: HINT` on the next line when there is a hint.
 * Messages quote what the user wrote (keys, table names, values, the file's path); an ESC or a
 * bidi override in it would act on the terminal, so every invisible character is shown escaped
 * here (values/printable.ts), once for all the paths that report. Line breaks a message means to
 * have are kept.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const head = `${printable(d.file)}:${d.line}:${d.col}: error: ${printableLines(d.message)}`;
  return d.hint === undefined || d.hint === '' ? head : `${head}\nhint: ${printableLines(d.hint)}`;
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
