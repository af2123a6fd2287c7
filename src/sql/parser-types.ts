import type { TypeAst } from './ast.js';
import type { Cursor } from './cursor.js';

/**
 * Synonyms folded to one name so the planner has a single spelling to check
 * (Flink treats them as the same logical type).
 */
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
  if (c.isOp('<')) c.unsupported(`the type ${name}<...>`);
  const args = parseTypeArgs(c);
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

/** `(p)` or `(p, s)`: non-negative integers. */
function parseTypeArgs(c: Cursor): number[] {
  const args: number[] = [];
  if (!c.acceptOp('(')) return args;
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
 * A `WITH` that does not continue with `LOCAL TIME ZONE` is left for the caller (it may start
 * a table's `WITH (...)` options after a column list).
 */
function parseTimeZoneSuffix(c: Cursor, name: string): string {
  if (c.isWord('WITHOUT')) {
    c.next();
    c.expectWord('TIME');
    c.expectWord('ZONE');
    return name;
  }
  if (c.isWord('WITH') && c.isWord('LOCAL', 1)) {
    c.next();
    c.next();
    c.expectWord('TIME', 'write TIMESTAMP(p) WITH LOCAL TIME ZONE, or TIMESTAMP_LTZ(p)');
    c.expectWord('ZONE', 'write TIMESTAMP(p) WITH LOCAL TIME ZONE, or TIMESTAMP_LTZ(p)');
    return name === 'TIMESTAMP' ? 'TIMESTAMP_LTZ' : 'TIME WITH LOCAL TIME ZONE'; // Flink has no such type; the planner says so
  }
  return name;
}
