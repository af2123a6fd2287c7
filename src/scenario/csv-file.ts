/**
 * CSV with a header line (RFC 4180: `,` separated, `"` quoted with `""` for a quote, quoted
 * fields may hold commas and line breaks). Each record becomes a light map (flow-line.ts) of the
 * header's names: an unquoted field is read as a YAML plain scalar would be (`12` a number,
 * `true` a boolean, an empty field null), a quoted one is a string.
 */
import { plainValue } from './flow-line.js';
import type { LightMap, LightNode, LightScalar } from './flow-line.js';

/** A record with the wrong number of fields: reported, and the other records still read. */
export interface CsvProblem {
  readonly offset: number;
  readonly message: string;
  readonly hint: string;
}

export type CsvRead =
  | { readonly ok: true; readonly records: readonly (LightMap | CsvProblem)[] }
  | { readonly ok: false; readonly offset: number; readonly message: string; readonly hint: string };

interface Field {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly quoted: boolean;
}

class CsvFail extends Error {
  constructor(
    readonly offset: number,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export function readCsv(text: string): CsvRead {
  try {
    const rows = records(text);
    const header = rows.shift();
    if (header === undefined) return { ok: false, offset: 0, message: 'the CSV file is empty: it needs a header line of column names', hint: 'the first line names the columns, e.g. `order_id,amount,order_time`' };
    const names: LightScalar[] = header.map((f) => ({ map: false, start: f.start, end: f.end, value: f.text, source: f.text, style: 'PLAIN' }));
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n.value as string)) return { ok: false, offset: n.start, message: `the CSV header names \`${n.value as string}\` twice`, hint: 'each column is named once in the header line' };
      seen.add(n.value as string);
    }
    const out: (LightMap | CsvProblem)[] = [];
    for (const fields of rows) {
      const first = fields[0]!;
      if (fields.length !== names.length) {
        out.push({ offset: first.start, message: `this CSV record has ${fields.length} field${fields.length === 1 ? '' : 's'}, but the header has ${names.length}`, hint: 'a value with a comma in it is quoted: `"a,b"`' });
        continue;
      }
      const values: LightNode[] = fields.map((f) => cell(f));
      out.push({ map: true, start: first.start, end: fields[fields.length - 1]!.end, keys: names, values });
    }
    return { ok: true, records: out };
  } catch (error) {
    if (error instanceof CsvFail) return { ok: false, offset: error.offset, message: error.message, hint: error.hint };
    throw error;
  }
}

function cell(f: Field): LightScalar {
  if (f.quoted) return { map: false, start: f.start, end: f.end, value: f.text, source: f.text, style: 'QUOTE_DOUBLE' };
  let value: string | number | boolean | null;
  try {
    value = plainValue(f.text);
  } catch {
    value = f.text;
  }
  return { map: false, start: f.start, end: f.end, value, source: f.text, style: 'PLAIN' };
}

/** The records (lists of fields) of the text; a blank line is no record. */
function records(text: string): Field[][] {
  const out: Field[][] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    // A blank line (or the last line break) is skipped.
    if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] === '\n')) {
      i += text[i] === '\r' ? 2 : 1;
      continue;
    }
    const fields: Field[] = [];
    for (;;) {
      const start = i;
      let value: string;
      let quoted = false;
      if (text[i] === '"') {
        quoted = true;
        let j = i + 1;
        value = '';
        for (;;) {
          const q = text.indexOf('"', j);
          if (q < 0) throw new CsvFail(start, 'unterminated quoted CSV field', 'a field that starts with `"` ends with `"`; a quote inside it is written `""`');
          value += text.slice(j, q);
          if (text[q + 1] === '"') {
            value += '"';
            j = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') throw new CsvFail(i, 'a quoted CSV field must end at a `,` or the end of the line', 'a quote inside a quoted field is written `""`');
      } else {
        let j = i;
        while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
        if (text.slice(i, j).includes('"')) throw new CsvFail(i, 'a `"` inside an unquoted CSV field', 'quote the whole field and double the quote inside it: `"say ""hi"""`');
        value = text.slice(i, j).trim();
        i = j;
      }
      fields.push({ start, end: i, text: value, quoted });
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      break;
    }
    out.push(fields);
  }
  return out;
}
