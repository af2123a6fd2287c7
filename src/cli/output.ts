/**
 * Output helpers. A closed pipe (`joinstep run x.yaml | head`) is a normal way for output to
 * end, not an error worth a stack trace.
 *
 * Everything the commands print quotes the user's scenario somewhere (a value, a name, a path,
 * a line of the file), so writeOut and writeErr escape every control and invisible character
 * except the line breaks between lines (values/printable.ts): nothing from a scenario reaches a
 * terminal raw, whichever message path it takes. Only `joinstep run` writes exact bytes, with
 * writeOutExact, and only when its stdout is not a terminal. Text styled for a terminal must be
 * escaped first and written with writeOutExact, or the escapes would show.
 */
import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { Diagnostic } from '../scenario/types.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { printableLines } from '../values/printable.js';
import { paintDiagnostic, paintFor } from './color.js';
import { writeOutputFile } from './output-file.js';

let pipeClosed = false;

for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') pipeClosed = true;
    else outputFailed(error, stream === process.stdout ? 'the output' : 'the messages');
  });
}

/** sysexits' EX_IOERR: the output could not be written (a full disk, a device error). */
export const EXIT_OUTPUT_FAILED = 74;

/**
 * A write that fails for another reason than a closed pipe (`run > out.txt` on a full disk:
 * ENOSPC; EIO, EFBIG, EDQUOT) is the user's situation, not a bug: it is said in one line with a
 * hint and the process ends at once with EX_IOERR, since nothing more it writes would arrive.
 * The message goes to stderr directly; if that fails too there is no one left to tell.
 */
function outputFailed(error: unknown, what: string): never {
  const code = (error as NodeJS.ErrnoException).code;
  const hint = code === 'ENOSPC' || code === 'EDQUOT' ? 'free some space, or send the output to another place' : 'check the file or device the output goes to';
  try {
    writeSync(2, printableLines(`joinstep: cannot write ${what}: ${describeFailure(error)}\nhint: ${hint}\n`));
  } catch {
    // stderr is gone as well.
  }
  process.exit(EXIT_OUTPUT_FAILED);
}

export function writeOut(text: string): void {
  writeOutExact(printableLines(text));
}

/**
 * Whether stdout is a file or a device such as /dev/null (not a terminal, not a pipe): Node then
 * writes it synchronously, each string first copied into a new Buffer.
 */
let stdoutFile: boolean | undefined;

function stdoutIsFile(): boolean {
  if (stdoutFile === undefined) {
    try {
      const stat = fstatSync(1);
      stdoutFile = stat.isFile() || (stat.isCharacterDevice() && !isatty(1));
    } catch {
      stdoutFile = false;
    }
  }
  return stdoutFile;
}

/** Why a write failed, in the words of Node's message ("CODE: description, syscall 'path'"). */
function describeFailure(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const text = (e.message ?? String(error)).replace(/^[A-Z0-9_]+: /, '').replace(/, \w+( '.*')?$/, '');
  return `${text}${e.code !== undefined ? ` (${e.code})` : ''}`;
}

/** Failures of the device or the disk rather than of the path the user gave. */
const DEVICE_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EFBIG']);

const PATH_HINTS: Readonly<Record<string, string>> = {
  ENOENT: 'the folder does not exist: create it first, or choose another path',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'name a file, not a folder',
  EACCES: 'choose a place you can write to',
  EPERM: 'choose a place you can write to',
  EROFS: 'choose a place you can write to',
  ENOSPC: 'free some space, or write to another place',
  EDQUOT: 'free some space, or write to another place',
};

/**
 * Writes a file the user named on the command line (`record --out`, `--svg`, `--frames`), as
 * output-file.ts does (atomically). A failure is said with the path and a hint, and its exit
 * status returned: 2 for a path that cannot be written (no such folder, no permission, a
 * folder), 74 when the disk or the device failed. Undefined when the file was written.
 */
export function writeNamedFile(path: string, data: string): number | undefined {
  try {
    writeOutputFile(path, data);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    writeErr(`joinstep: cannot write ${path}: ${describeFailure(error)}\nhint: ${PATH_HINTS[code] ?? 'check the path'}\n`);
    return DEVICE_FAILURES.has(code) ? EXIT_OUTPUT_FAILED : 2;
  }
}

/** The bytes as they are: for output that is already escaped, or meant for a pipe or a file. */
export function writeOutExact(text: string): void {
  if (pipeClosed) return;
  // Into a file, the string's bytes go straight to the same synchronous write, without the
  // stream's Buffer copy: `run --result` writes some 50 MB this way (docs/decisions.md).
  if (stdoutIsFile() && process.stdout.writableLength === 0) {
    try {
      writeWhole(1, text, writeSync);
    } catch (error) {
      outputFailed(error, 'the output');
    }
  } else process.stdout.write(text);
}

/** Synchronous writes returning the bytes they took, as fs.writeSync's: a string, or a Buffer from byte `offset`. */
export interface WriteSync {
  (fd: number, text: string): number;
  (fd: number, bytes: Uint8Array, offset: number): number;
}

/**
 * Writes all of `text` to `fd`. A write to a file takes fewer bytes than asked, without an error,
 * when the disk fills up during it; the rest is written again, so that the failure comes as its
 * error (ENOSPC) on the next write instead of a file cut short and exit 0. The text's byte length
 * is counted only when the write took other than one byte per char (counting costs ~15 ms per
 * 50 MB): so a text with multi-byte chars cut at exactly as many bytes as it has chars would pass
 * as whole.
 */
export function writeWhole(fd: number, text: string, write: WriteSync): void {
  const took = write(fd, text);
  if (took === text.length || took === Buffer.byteLength(text)) return;
  const bytes = Buffer.from(text, 'utf8');
  for (let at = took; at < bytes.length; ) {
    const n = write(fd, bytes, at);
    // A write that takes nothing and says nothing would loop for ever.
    if (n <= 0) throw Object.assign(new Error('the device took no more bytes'), { code: 'EIO' });
    at += n;
  }
}

/**
 * Ends the process with `code` once everything written to stdout and stderr is out, without
 * the cleanup of a natural exit (the environment and the heap torn down): after `run` printed a
 * large result it cost tens of milliseconds for nothing anyone waits for (docs/decisions.md).
 * A stream whose writes are still pending (a pipe on macOS is asynchronous) is let drain first.
 */
export function exitOnceWritten(code: number): void {
  const pending = [process.stdout, process.stderr].find((s) => !pipeClosed && s.writableLength > 0);
  if (pending === undefined) process.exit(code);
  pending.once('drain', () => exitOnceWritten(code));
}

export function writeErr(text: string): void {
  writeErrExact(printableLines(text));
}

/** stderr's counterpart of writeOutExact: for text already escaped, then styled. */
function writeErrExact(text: string): void {
  if (!pipeClosed) process.stderr.write(text);
}

/** Prints every diagnostic as `FILE:LINE:COL: error: MESSAGE` (+ hint line) to stderr. */
export function reportDiagnostics(diagnostics: readonly Diagnostic[]): void {
  writeErrDiagnostic(diagnostics.map((d) => formatDiagnostic(d)).join('\n') + '\n');
}

/** Error text (diagnostics, `joinstep: ...` + `hint:` lines) to stderr, its `error:` and `hint:` coloured when stderr takes colour. */
export function writeErrDiagnostic(text: string): void {
  // Escape the user's text first, then colour it: colouring first would have its escapes shown.
  writeErrExact(paintDiagnostic(printableLines(text), paintFor('stderr')));
}
