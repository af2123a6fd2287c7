/**
 * A data file being replayed: its text read as UTF-8, positions in it, its JSON Lines records
 * one at a time, and rows checked by the inline checks with problems reported at their line and
 * column in the file (at most MAX_PROBLEMS of them, then a count).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { Scalar } from 'yaml';
import type { Node } from 'yaml';
import type { RowKind, Value } from '../values/types.js';
import { report } from './context.js';
import type { LoadContext } from './context.js';
import type { EventEnv } from './event-env.js';
import { readRow } from './event-row.js';
import type { FastRows, RowTable } from './fast-row.js';
import { toYamlNode } from './flow-line.js';
import type { LightMap, LightNode } from './flow-line.js';
import { readJsonObject } from './json-line.js';
import { lazyLines } from './line-table.js';
import type { FilePos, ScenarioEvent } from './types.js';
import { MAX_FILE_BYTES } from './limits.js';
import { isStreamLike, readAtMost } from './read-bounded.js';

/** Problems reported per data file before the rest are summed up in one line. */
const MAX_PROBLEMS = 20;

/**
 * The data file's text; with `head`, at most its first `head` bytes, cut after the last line break
 * in them (`cut`: the file goes on past the text). A line break is never inside a UTF-8
 * character, so the head is valid UTF-8 when the file is; a problem past it is not seen here.
 */
export function readData(ctx: LoadContext, path: string, where: Node, head?: number): { readonly text: string; readonly cut: boolean } | undefined {
  let bytes: Buffer;
  let cut = false;
  try {
    if (isStreamLike(statSync(path))) {
      // A device or a pipe is read whole (it cannot be read twice), up to the scenario file's
      // limit (read-bounded.ts); a regular file of any size is read as before.
      bytes = readAtMost(path, MAX_FILE_BYTES);
      if (bytes.length > MAX_FILE_BYTES) {
        report(ctx, where, `data file ${path} goes on past joinstep's limit of ${MAX_FILE_BYTES.toLocaleString('en-US')} bytes for a device or a pipe`, 'replay a file of the capture, not a device or a stream');
        return undefined;
      }
    } else {
      bytes = head === undefined ? readFileSync(path) : readHead(path, head);
      if (head !== undefined && bytes.length === head) {
        cut = true;
        bytes = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
      }
    }
  } catch (error) {
    const code = (error as { code?: string } | null)?.code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : `cannot read it (${code ?? 'unknown reason'})`;
    report(ctx, where, `data file ${path}: ${why}`, 'a path in `replay:` is relative to the scenario file');
    return undefined;
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    // Valid UTF-8, but no text file holds one: a binary file, or a capture cut by a crash.
    const line = countLines(bytes, nul);
    report(ctx, where, `data file ${path} holds a NUL byte (line ${line}): it is not a text file`, 'a data file is JSON Lines, CSV or a Kafka capture, as UTF-8 text: is this the right file?');
    return undefined;
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), cut };
  } catch {
    report(ctx, where, `data file ${path} is not UTF-8 text`, 'save it as UTF-8');
    return undefined;
  }
}

/** The line (from 1) that byte `at` is on. */
function countLines(bytes: Buffer, at: number): number {
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
  return line;
}

/** The file's first `head` bytes, or all of it when it is shorter (then fewer than `head` bytes: a file of exactly `head` bytes counts as cut, and loses nothing but speed). */
function readHead(path: string, head: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(head);
    let n = 0;
    while (n < head) {
      const got = readSync(fd, buffer, n, head - n, n);
      if (got === 0) break;
      n += got;
    }
    return buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** A data file being read: its own positions and a cap on the problems it reports. */
export class DataFile {
  readonly ctx: LoadContext;
  problems = 0;

  constructor(
    outer: LoadContext,
    readonly shown: string,
    readonly text: string,
    /** The text is the file's head only (readData's `cut`): the file has records past it. */
    readonly cut = false,
  ) {
    this.ctx = { ...outer, file: shown, text, lineCounter: lazyLines(text) };
  }

  get ok(): boolean {
    return this.problems === 0;
  }

  /** Counts a problem; false once the cap is reached (the caller then reports nothing more). */
  private count(): boolean {
    this.problems++;
    return this.problems <= MAX_PROBLEMS;
  }

  report(offset: number, message: string, hint?: string): void {
    if (this.count()) report(this.ctx, offset, message, hint);
  }

  /** A row's values, checked as an inline row is (the general checks report, at data-file positions). */
  row(rows: FastRows, table: RowTable, m: LightMap, op: RowKind): Value[] | undefined {
    const fast = rows.row(table, m, op);
    if (fast !== undefined) return fast;
    const scratch: LoadContext = { ...this.ctx, diagnostics: [] };
    const node = toYamlNode(m);
    const key = new Scalar('row');
    key.range = [m.start, m.start, m.start];
    const values = readRow(scratch, this.env!, { key: 'row', keyNode: key, value: node, valueWhere: node }, table.def, op);
    for (const d of scratch.diagnostics) if (this.count()) this.ctx.diagnostics.push(d);
    if (values === undefined && scratch.diagnostics.length === 0) this.count();
    return values;
  }

  env: EventEnv | undefined;

  pos(offset: number): FilePos {
    const { line, col } = this.ctx.lineCounter.linePos(offset);
    return { line, col };
  }

  finish(): void {
    if (this.problems > MAX_PROBLEMS) {
      report(this.ctx, this.text.length, `${this.problems - MAX_PROBLEMS} more problem${this.problems - MAX_PROBLEMS === 1 ? '' : 's'} in ${this.shown} not shown`, 'fix the ones above and load again');
    }
  }
}

export interface Read {
  readonly events: ScenarioEvent[];
  readonly time: number;
  readonly partition: number;
}

/** The offset of each line's first character, skipping blank lines. */
function* lineStarts(text: string): Generator<number> {
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    let i = at;
    while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === 13)) i++;
    if (i < end) yield at;
    at = end + 1;
  }
}

/** The records one at a time: a file's light nodes are never all alive at once. */
export function* jsonRecords(data: DataFile): Generator<{ map: LightMap; offset: number }> {
  for (const start of lineStarts(data.text)) {
    const r = jsonRecord(data, start);
    if (r !== undefined) yield r;
  }
}

/** The record of the (non-blank) line at `start`; undefined when it is not one JSON object (reported). */
export function jsonRecord(data: DataFile, start: number): { map: LightMap; offset: number } | undefined {
  const text = data.text;
  const r = readJsonObject(text, start);
  if (!r.ok) {
    data.report(r.offset, r.message, 'each line of a JSON Lines file is one JSON object');
    return undefined;
  }
  let i = r.end;
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\r') i++;
  if (i < text.length && text[i] !== '\n') {
    data.report(i, 'expected the end of the line after the JSON object', 'each line of a JSON Lines file is one JSON object');
    return undefined;
  }
  return { map: r.map, offset: r.map.start };
}

export function field(m: LightMap, name: string): LightNode | undefined {
  const i = m.keys.findIndex((k) => k.value === name);
  return i < 0 ? undefined : m.values[i];
}
