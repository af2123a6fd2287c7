/**
 * A JSON Lines record of plain values read straight into a table's row: field names matched
 * against the column names in the text, each value handed to FastRows as the light reader
 * (json-line.ts) would have made it (a string as a quoted scalar, a number or `true` / `false`
 * with its text as written, `null`), with no node per field. It takes only the common shape (one
 * object of unescaped names and strings, numbers and words, nothing after it on the line); any
 * other line, and every row with something wrong, is `undefined`, and the caller reads that line
 * the general way (json-line.ts, DataFile.row), which reports what is wrong. So a row read here
 * is the general reader's row by construction of FastRows, and this file only has to agree with
 * json-line.ts on how a value is written.
 */
import type { ScalarInput } from '../values/literal.js';
import type { RowKind, Value } from '../values/types.js';
import type { FastRows, RowTable } from './fast-row.js';

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

/** A plain-row reader for one table; it remembers the field order of the last line. */
export class JsonRowReader {
  private readonly names: readonly string[];
  private readonly usable: readonly boolean[];
  /** The column of each field place in the last line read (a guess for the next line). */
  private readonly order: number[] = [];
  /** The offset of the `{` of the last row read. */
  objectStart = 0;
  /** The text the next line break and backslash were found in, and where (stringEnd). */
  private searched = '';
  private nextBreak = -1;
  private nextBackslash = -1;

  constructor(
    private readonly rows: FastRows,
    private readonly table: RowTable,
    private readonly op: RowKind,
  ) {
    this.names = table.def.columns.map((c) => c.name);
    // A name a JSON field could not spell without an escape is never matched here.
    this.usable = this.names.map((n) => n !== '' && !/["\\\n]/.test(n));
  }

  /** The row of the line starting at `start` (its `{` at `objectStart`), or undefined. */
  read(text: string, start: number): Value[] | undefined {
    let i = start;
    while (isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 123 /* { */) return undefined;
    this.objectStart = i;
    i++;
    const rows = this.rows;
    const table = this.table;
    const values = rows.begin(table);
    let field = 0;
    i = skip(text, i);
    if (text.charCodeAt(i) === 125 /* } */) return undefined;
    for (;;) {
      if (text.charCodeAt(i) !== 34 /* " */) return undefined;
      const index = this.column(text, i + 1, field);
      if (index < 0) return undefined;
      i = skip(text, i + 2 + this.names[index]!.length);
      if (text.charCodeAt(i) !== 58 /* : */) return undefined;
      i = skip(text, i + 1);
      const c = text.charCodeAt(i);
      // A string or a plain integer is handed over as its text (putString, putInteger), any
      // other value as the light reader's scalar.
      let input: ScalarInput | null = null;
      let str: string | undefined;
      let int: string | undefined;
      if (c === 34) {
        const close = this.stringEnd(text, i + 1);
        if (close < 0) return undefined;
        str = text.slice(i + 1, close);
        i = close + 1;
      } else if (c === 110 /* n */ && text.startsWith('null', i)) {
        i += 4;
      } else if (c === 116 /* t */ && text.startsWith('true', i)) {
        input = { text: 'true', yamlType: 'boolean', quoted: false };
        i += 4;
      } else if (c === 102 /* f */ && text.startsWith('false', i)) {
        input = { text: 'false', yamlType: 'boolean', quoted: false };
        i += 5;
      } else {
        const end = integerEnd(text, i);
        if (end > 0) {
          int = text.slice(i, end);
          i = end;
        } else {
          NUMBER.lastIndex = i;
          const m = NUMBER.exec(text);
          if (m === null) return undefined;
          input = { text: m[0], yamlType: 'number', quoted: false };
          i += m[0].length;
        }
      }
      // A field given twice is a JSON mistake the general reader reports.
      if (table.seen[index] === this.seenMark()) return undefined;
      const put = str !== undefined ? rows.putString(table, values, index, str) : int !== undefined ? rows.putInteger(table, values, index, int) : rows.put(table, values, index, input);
      if (!put) return undefined;
      this.order[field++] = index;
      i = skip(text, i);
      const next = text.charCodeAt(i);
      if (next === 44 /* , */) {
        i = skip(text, i + 1);
        continue;
      }
      if (next !== 125) return undefined;
      i++;
      break;
    }
    while (isSpace(text.charCodeAt(i))) i++;
    const c = text.charCodeAt(i);
    if (!(Number.isNaN(c) || c === 10)) return undefined;
    return rows.complete(table, values, this.op) ? values : undefined;
  }

  /** The serial FastRows marks the columns of the row being read with. */
  private seenMark(): number {
    return this.rows.serialNow;
  }

  /**
   * The column whose name is the field name starting at `at` (closed by `"`), or -1. The column
   * the last line had at this place is tried first; a name with an escape is never matched.
   */
  private column(text: string, at: number, field: number): number {
    const guess = this.order[field];
    if (guess !== undefined && this.named(text, at, guess)) return guess;
    for (let k = 0; k < this.names.length; k++) if (k !== guess && this.named(text, at, k)) return this.table.index.get(this.names[k]!) === k ? k : -1;
    return -1;
  }

  private named(text: string, at: number, k: number): boolean {
    const name = this.names[k]!;
    return this.usable[k]! && text.charCodeAt(at + name.length) === 34 && text.startsWith(name, at);
  }

  /**
   * The closing quote of the string from `from` when it has no escape and ends on its line,
   * else -1. The next backslash and line break in the text are found once and remembered, so a
   * string costs one search for its quote.
   */
  private stringEnd(text: string, from: number): number {
    const close = text.indexOf('"', from);
    if (close < 0) return -1;
    if (text !== this.searched) {
      this.searched = text;
      this.nextBreak = this.nextBackslash = -1;
    }
    if (this.nextBreak < from) this.nextBreak = after(text, '\n', from);
    if (this.nextBackslash < from) this.nextBackslash = after(text, '\\', from);
    return close < this.nextBreak && close < this.nextBackslash ? close : -1;
  }
}

/**
 * The end of the JSON number at `at` when it is a plain integer (`-?(0|[1-9][0-9]*)` with no
 * fraction or exponent after it), else -1 (the NUMBER pattern reads it).
 */
function integerEnd(text: string, at: number): number {
  let i = text.charCodeAt(at) === 45 /* - */ ? at + 1 : at;
  const first = i;
  let c = text.charCodeAt(i);
  while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
  if (i === first || (text.charCodeAt(first) === 48 && i > first + 1)) return -1;
  return c === 46 /* . */ || c === 101 /* e */ || c === 69 /* E */ ? -1 : i;
}

/** The offset of the next `c` at or after `from`, or the text's length when there is none. */
function after(text: string, c: string, from: number): number {
  const at = text.indexOf(c, from);
  return at < 0 ? text.length : at;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13;
}

function skip(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}
