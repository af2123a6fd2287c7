/**
 * The commonest line of a big arrival script, `{ to: orders, row: { id: o1, amount: 10 } }`,
 * read straight from the text into a row event: no light node per key and value. It takes only
 * `to` then `row`, a table name and column names that are plain words, and values that are plain
 * words (strings) or plain integers of at most 15 digits, each handed to FastRows as the light
 * reader (flow-line.ts) would hand it over. Anything else (another key, a quoted or other scalar,
 * a comment, a row with something wrong) is `undefined`, and the caller reads the line the light
 * way, which decides everything else; so an event read here is the light reader's event by
 * construction of FastRows, and this file only has to agree with flow-line.ts on these scalars.
 */
import type { ScalarInput } from '../values/literal.js';
import type { FastRows, RowTable } from './fast-row.js';
import type { FilePos, ScenarioEvent } from './types.js';

/** Plain words the core schema reads as null or a boolean, not as a string. */
const NOT_STRING = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** As flow-line.ts: longer integers are left to the YAML library's own resolution. */
const MAX_DIGITS = 15;

export class FlowRowReader {
  private table: RowTable | undefined;
  private tableName = '';

  constructor(private readonly rows: FastRows) {}

  /** The row event of the flow map at `start` (its `{`), or undefined. */
  read(text: string, start: number, pos: FilePos): ScenarioEvent | undefined {
    let i = spaces(text, start + 1);
    if (!text.startsWith('to: ', i)) return undefined;
    i = spaces(text, i + 4);
    const nameEnd = wordEnd(text, i);
    if (!startsWord(text.charCodeAt(i))) return undefined;
    const name = text.slice(i, nameEnd);
    if (NOT_STRING.has(name)) return undefined;
    i = spaces(text, nameEnd);
    if (text.charCodeAt(i) !== 44 /* , */) return undefined;
    i = spaces(text, i + 1);
    if (!text.startsWith('row: ', i)) return undefined;
    i = spaces(text, i + 5);
    if (text.charCodeAt(i) !== 123 /* { */) return undefined;
    i = spaces(text, i + 1);
    const table = name === this.tableName ? this.table : this.rows.table(name);
    this.table = table;
    this.tableName = name;
    if (table === undefined) return undefined;
    const rows = this.rows;
    const values = rows.begin(table);
    const mark = rows.serialNow;
    while (text.charCodeAt(i) !== 125 /* } */) {
      const keyEnd = wordEnd(text, i);
      if (!startsWord(text.charCodeAt(i)) || text.charCodeAt(keyEnd) !== 58 /* : */ || text.charCodeAt(keyEnd + 1) !== 32) return undefined;
      const key = text.slice(i, keyEnd);
      if (NOT_STRING.has(key)) return undefined;
      const index = table.index.get(key);
      if (index === undefined || table.seen[index] === mark) return undefined;
      i = spaces(text, keyEnd + 2);
      const valueEnd = wordEnd(text, i);
      if (valueEnd === i) return undefined;
      const input = scalar(text.slice(i, valueEnd));
      if (input === undefined || !rows.put(table, values, index, input)) return undefined;
      i = spaces(text, valueEnd);
      const c = text.charCodeAt(i);
      if (c === 44) i = spaces(text, i + 1);
      else if (c !== 125) return undefined;
    }
    i = spaces(text, i + 1);
    if (text.charCodeAt(i) !== 125) return undefined;
    i = spaces(text, i + 1);
    const end = text.charCodeAt(i);
    if (!(Number.isNaN(end) || end === 10)) return undefined;
    if (!rows.complete(table, values, '+I')) return undefined;
    return { pos, kind: 'row', table: table.def.name, partition: 0, op: '+I', row: values };
  }
}

/** A letter or `_`: what a plain word that reads as a string starts with. */
function startsWord(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function spaces(text: string, i: number): number {
  while (text.charCodeAt(i) === 32) i++;
  return i;
}

/** The end of a run of letters, digits, `_` and `-` from `i`. */
function wordEnd(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45) i++;
    else return i;
  }
}

/**
 * A plain word (a letter or `_`, then letters, digits, `_`, `-`) as a string, or an optional `-`
 * and 1 to 15 digits as a number written so, as flow-line.ts reads them; else undefined.
 */
function scalar(s: string): ScalarInput | undefined {
  const c0 = s.charCodeAt(0);
  if (startsWord(c0)) {
    return NOT_STRING.has(s) ? undefined : { text: s, yamlType: 'string', quoted: false };
  }
  const from = c0 === 45 ? 1 : 0;
  const n = s.length - from;
  if (n < 1 || n > MAX_DIGITS) return undefined;
  for (let k = from; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 48 || c > 57) return undefined;
  }
  return { text: s, yamlType: 'number', quoted: false };
}
