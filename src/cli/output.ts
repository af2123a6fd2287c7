/**
 * Output helpers. A closed pipe (`joinstep run x.yaml | head`) is a normal way for output to
 * end, not an error worth a stack trace.
 */
import type { Diagnostic } from '../scenario/types.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { paintDiagnostic, paintFor } from './color.js';

let pipeClosed = false;

for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') pipeClosed = true;
    else throw error;
  });
}

export function writeOut(text: string): void {
  if (!pipeClosed) process.stdout.write(text);
}

export function writeErr(text: string): void {
  if (!pipeClosed) process.stderr.write(text);
}

/** Prints every diagnostic as `FILE:LINE:COL: error: MESSAGE` (+ hint line) to stderr. */
export function reportDiagnostics(diagnostics: readonly Diagnostic[]): void {
  writeErrDiagnostic(diagnostics.map((d) => formatDiagnostic(d)).join('\n') + '\n');
}

/** Error text (diagnostics, `joinstep: ...` + `hint:` lines) to stderr, its `error:` and `hint:` coloured when stderr takes colour. */
export function writeErrDiagnostic(text: string): void {
  writeErr(paintDiagnostic(text, paintFor('stderr')));
}
