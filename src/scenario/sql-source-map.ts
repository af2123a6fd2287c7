/**
 * Maps an offset in the `sql` value (the string the SQL parser saw) back to an offset in the
 * scenario file, so a SQL error points at the file's line and column (spec §8).
 *
 * For a block scalar (`|`, `|-`, `>`, ...) that is the YAML line of the SQL line, and the block's
 * indentation plus the column within the SQL line. The same alignment also serves quoted and
 * plain scalars: every non-blank character of the value appears in the source in order, and
 * between two of them the source holds only blanks, line breaks, indentation or escapes.
 */
import { Scalar } from 'yaml';

export interface ScalarSource {
  /** The scalar node's range in the file: [start, valueEnd, ...]. */
  readonly range: readonly [number, number, ...number[]];
  /** The yaml library's scalar style. */
  readonly type?: Scalar.Type | null;
}

export type SqlSourceMap = (sqlOffset: number) => number;

const BLANK = new Set([' ', '\t', '\r', '\n']);

export function createSqlSourceMap(fileText: string, node: ScalarSource, value: string): SqlSourceMap {
  const [rawStart, rawEnd] = contentRange(fileText, node);
  const table = alignValue(fileText, rawStart, rawEnd, value, node.type ?? Scalar.PLAIN);
  return (sqlOffset) => lookup(table, value, sqlOffset, rawStart);
}

/** Where the scalar's content starts and ends in the file (after a block header or opening quote). */
function contentRange(text: string, node: ScalarSource): [number, number] {
  const start = node.range[0];
  const end = node.range[1];
  switch (node.type) {
    case Scalar.BLOCK_LITERAL:
    case Scalar.BLOCK_FOLDED: {
      const nl = text.indexOf('\n', start);
      return [nl < 0 || nl >= end ? end : nl + 1, end];
    }
    case Scalar.QUOTE_DOUBLE:
    case Scalar.QUOTE_SINGLE:
      return [start + 1, Math.max(start + 1, end - 1)];
    default:
      return [start, end];
  }
}

/** For each non-blank character of the value, the file offset it came from (-1 for blanks). */
function alignValue(text: string, from: number, to: number, value: string, type: Scalar.Type): number[] {
  const table = new Array<number>(value.length).fill(-1);
  let p = from;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (BLANK.has(ch)) {
      if (p < to && text[p] === ch) p++;
      continue;
    }
    while (p < to && (BLANK.has(text[p]!) || (type === Scalar.QUOTE_DOUBLE && text[p] === '\\' && text[p + 1] === '\n'))) {
      p += text[p] === '\\' ? 2 : 1;
    }
    if (type === Scalar.QUOTE_SINGLE && ch === "'" && text[p] === "'") {
      table[i] = p;
      p += 2;
    } else if (type === Scalar.QUOTE_DOUBLE && text[p] === '\\') {
      table[i] = p;
      p += escapeLength(text[p + 1]);
    } else if (text[p] === ch) {
      table[i] = p++;
    } else {
      // Should not happen for well-formed YAML; stay close rather than fail.
      const found = text.indexOf(ch, p);
      table[i] = found >= 0 && found < to ? found : p;
      if (found >= 0 && found < to) p = found + 1;
    }
  }
  return table;
}

function escapeLength(c: string | undefined): number {
  if (c === 'x') return 4;
  if (c === 'u') return 6;
  if (c === 'U') return 10;
  return 2;
}

function lookup(table: readonly number[], value: string, offset: number, fallback: number): number {
  const at = Math.max(0, Math.min(offset, value.length));
  const direct = table[at];
  if (direct !== undefined && direct >= 0) return direct;
  // A blank or the end of the text: count from the last non-blank before it on the same line.
  for (let k = at - 1; k >= 0; k--) {
    const mapped = table[k]!;
    if (mapped < 0) continue;
    const between = value.slice(k + 1, at);
    return mapped + (between.includes('\n') ? 1 : at - k);
  }
  const next = table.findIndex((t) => t >= 0);
  return next >= 0 ? table[next]! : fallback;
}
