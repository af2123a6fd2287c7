import type { TypeAst } from './ast.js';
import type { Cursor } from './cursor.js';

/**
 * Synonyms folded to one name so the planner has a single spelling to check
 * (Flink treats them as the same logical type).
 */
/** Types whose name may be followed by a precision or length in parentheses (the synonyms folded). */
const WITH_ARGS: ReadonlySet<string> = new Set(['CHAR', 'VARCHAR', 'BINARY', 'VARBINARY', 'DECIMAL', 'TIME', 'TIMESTAMP', 'TIMESTAMP_LTZ', 'FLOAT']);
/** Types written with `<...>` (not supported by joinstep). */
const COLLECTIONS: ReadonlySet<string> = new Set(['ARRAY', 'MAP', 'MULTISET', 'ROW']);

const SYNONYMS: Readonly<Record<string, string>> = {
  INTEGER: 'INT',
  DEC: 'DECIMAL',
  NUMERIC: 'DECIMAL',
  CHARACTER: 'CHAR',
};

/**
 * A data type as written: `DECIMAL(10, 2)`, `TIMESTAMP(3) WITH LOCAL TIME ZONE`, `STRING NOT NULL`.
 * Any word is accepted as a name (the planner validates names); only the shape is checked here.
 */
export function parseType(c: Cursor): TypeAst {
  const first = c.tok;
  if (first.kind !== 'word' && first.kind !== 'quoted') c.fail('a data type is expected here, e.g. STRING, INT, DECIMAL(10, 2), TIMESTAMP(3)');
  c.next();
  let name = first.kind === 'word' ? first.value : first.value.toUpperCase();
  name = SYNONYMS[name] ?? name;
  if (name === 'DOUBLE') c.acceptWord('PRECISION');
  if (name === 'CHAR' && c.acceptWord('VARYING')) name = 'VARCHAR';
  // A type argument list only where Flink's grammar has one; elsewhere the check adds nothing to what a syntax error lists.
  if (COLLECTIONS.has(name) ? c.isOp('<') : c.tok.kind === 'op' && c.tok.text === '<') c.unsupported(`the type ${name}<...>`);
  const args = parseTypeArgs(c, WITH_ARGS.has(name));
  if (name === 'TIMESTAMP' || name === 'TIME') name = parseTimeZoneSuffix(c, name);
  let nullable = true;
  if (c.isWord('NOT') && c.isWord('NULL', 1)) {
    c.next();
    c.next();
    nullable = false;
  } else {
    c.acceptWord('NULL');
  }
  return { name, args, nullable, start: first.start, end: c.lastEnd };
}

/** `(p)` or `(p, s)`: non-negative integers. `listed`: whether a syntax error here lists `(` as expected. */
function parseTypeArgs(c: Cursor, listed: boolean): number[] {
  const args: number[] = [];
  if (!(listed ? c.isOp('(') : c.tok.kind === 'op' && c.tok.text === '(')) return args;
  c.next();
  do {
    const t = c.tok;
    if (t.kind !== 'number' || !/^\d+$/.test(t.text)) c.fail('a type argument is an unsigned integer, e.g. DECIMAL(10, 2)');
    c.next();
    args.push(Number(t.text));
  } while (c.acceptOp(','));
  c.expectOp(')');
  return args;
}

/**
 * `WITHOUT TIME ZONE` changes nothing; `TIMESTAMP WITH LOCAL TIME ZONE` is Flink's TIMESTAMP_LTZ.
 * As in Flink's parser, a `WITH` right after the type commits to `WITH LOCAL TIME ZONE`: in
 * `ts TIMESTAMP(3) WITH ('connector' = ...)` (the column list's `)` forgotten) the error is at the
 * `(` after WITH, where LOCAL was expected.
 */
function parseTimeZoneSuffix(c: Cursor, name: string): string {
  if (c.isWord('WITHOUT')) {
    c.next();
    c.expectWord('TIME');
    c.expectWord('ZONE');
    return name;
  }
  if (c.isWord('WITH')) {
    c.next();
    c.expectWord('LOCAL', `after ${name}, WITH can only go on as WITH LOCAL TIME ZONE; if WITH (...) starts the table's options, a ')' is missing before it`);
    c.expectWord('TIME', 'write TIMESTAMP(p) WITH LOCAL TIME ZONE, or TIMESTAMP_LTZ(p)');
    c.expectWord('ZONE', 'write TIMESTAMP(p) WITH LOCAL TIME ZONE, or TIMESTAMP_LTZ(p)');
    return name === 'TIMESTAMP' ? 'TIMESTAMP_LTZ' : 'TIME WITH LOCAL TIME ZONE'; // Flink has no such type; the planner says so
  }
  return name;
}
