/**
 * Token-level mutations of Flink SQL: drop, duplicate or swap tokens, swap keywords, unbalance
 * parentheses, and put unknown functions / types / columns / tables or wrong join conditions in.
 * Works on a SQL string, or on the `sql:` block inside a scenario file (so positions still have
 * to be translated back to the file). No replacement contains a newline, so a block scalar stays
 * a block scalar.
 */
import fc from 'fast-check';

/** Tokens: quoted strings and identifiers, words, numbers, multi-char operators, single chars. */
const TOKEN_RE = /'(?:[^']|'')*'|`[^`]*`|"[^"]*"|[A-Za-z_][\w$]*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|<>|<=|>=|!=|\|\||\/\*\+|\*\/|--|\S/g;

export const SQL_INSERTS = [
  'SELECT', 'FROM', 'JOIN', 'LEFT', 'RIGHT', 'FULL', 'OUTER', 'INNER', 'CROSS', 'ON', 'WHERE', 'AND', 'OR', 'NOT', 'IN',
  'EXISTS', 'AS', 'FOR', 'SYSTEM_TIME', 'OF', 'BETWEEN', 'INTERVAL', 'CAST', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END',
  'CREATE', 'TABLE', 'VIEW', 'TEMPORARY', 'WITH', 'WATERMARK', 'PRIMARY', 'KEY', 'ENFORCED', 'METADATA', 'VIRTUAL',
  'INSERT', 'INTO', 'GROUP', 'BY', 'ORDER', 'LIMIT', 'UNION', 'NULL', 'TRUE', 'DISTINCT', 'LATERAL', 'UNNEST',
  '(', ')', '((', '))', ',', ';', '.', '*', '+', '-', '/', '%', '=', '<>', '<', '>=', '||', '?', ':', '::', '[', ']',
  "'", '"', '`', '/*', '*/', '--', '/*+', "'unterminated", '`unterminated', "''", "'\\'",
  '1e999', '99999999999999999999999999999999999999', '-0', '0.0000000000000000000000000001', '1.', '.5',
  'PROCTIME()', 'NOW()', 'NO_SUCH_FN(1)', 'UPPER()', 'COALESCE()', 'CAST(1 AS NOSUCHTYPE)', 'CAST(NULL AS INT)',
  'TIMESTAMP(3)', 'TIMESTAMP(10)', 'TIMESTAMP_LTZ(3)', 'DECIMAL(40, 50)', 'DECIMAL(0, 0)', 'DECIMAL(38, 38)',
  'VARCHAR(-1)', 'CHAR(0)', 'ARRAY<INT>', 'MAP<STRING, INT>', 'ROW<a INT>', 'NOSUCHTYPE', 'INT', 'BIGINT', 'DOUBLE',
  'STRING', 'BOOLEAN', 'DATE', 'TIME', 'BYTES', 'nosuch_col', 'o.nosuch', 'nosuch.col', 'a.b.c.d', 'nosuch_table',
  "INTERVAL '5' FORTNIGHT", "INTERVAL 'x' SECOND", "INTERVAL '-5' MINUTE", "INTERVAL '99999999999' DAY",
  "/*+ STATE_TTL('nosuch' = '1d') */", "/*+ LOOKUP('table' = 'x') */", "/*+ OPTIONS('a' = 'b') */",
  'ROW_NUMBER() OVER (PARTITION BY a ORDER BY b DESC) = 1', 'ON TRUE', 'ON 1 = 1', 'ON a.x < b.y', 'ON NULL',
  '1 / 0', "'a' + 1", 'CAST(\'x\' AS INT)', 'TO_TIMESTAMP_LTZ(-1, 3)', 'TO_TIMESTAMP_LTZ(1, 99)', 'ROW(1, 2)',
  '😀', 'é', '\u0000', '\u200b', '\t', '\\', '$', '#', '@', '{', '}', '&', '^', '~', '!',
] as const;

/** Keywords and symbols swapped for a sibling: the statement stays plausible but wrong. */
const SWAPS: Readonly<Record<string, readonly string[]>> = {
  LEFT: ['RIGHT', 'FULL', 'INNER', 'CROSS', 'ANTI'],
  JOIN: ['UNION', 'JOINS', 'LEFT'],
  ON: ['USING', 'WHERE', 'AND'],
  AND: ['OR', 'ON', ','],
  '=': ['<>', '<', '>=', 'IS', '=='],
  SELECT: ['SELECT DISTINCT', 'FROM', 'INSERT'],
  FROM: ['SELECT', 'WHERE', 'JOIN'],
  WHERE: ['HAVING', 'ON', 'AND'],
  STRING: ['INT', 'BOOLEAN', 'NOSUCHTYPE', 'TIMESTAMP(3)'],
  INT: ['STRING', 'BIGINT', 'DOUBLE', 'DECIMAL(10, 2)'],
  BIGINT: ['STRING', 'INT', 'TIMESTAMP(3)'],
  TIMESTAMP: ['TIMESTAMP_LTZ', 'DATE', 'TIME', 'BIGINT'],
  TIMESTAMP_LTZ: ['TIMESTAMP', 'BIGINT'],
  DECIMAL: ['DOUBLE', 'INT', 'NUMERIC'],
  BETWEEN: ['IN', 'AND', '<'],
  WATERMARK: ['PRIMARY', 'KEY'],
  SYSTEM_TIME: ['PROCTIME', 'TIME'],
  NOT: ['', 'NOT NOT'],
  EXISTS: ['IN', 'NOT'],
  IN: ['EXISTS', 'NOT IN', '='],
  '(': [')', '(('],
  ')': ['(', '))'],
  ',': [';', '.', ''],
};

export type SqlMutation =
  | { readonly kind: 'drop' | 'duplicate' | 'swap-keyword' | 'unbalance'; readonly a: number; readonly b: number }
  | { readonly kind: 'swap-tokens'; readonly a: number; readonly b: number }
  | { readonly kind: 'insert-token'; readonly a: number; readonly text: string }
  | { readonly kind: 'risky-projection'; readonly a: number; readonly text: string };

/**
 * Expressions that plan but may fail (or overflow, or hit an edge) at runtime; X is replaced by
 * the first column a SELECT projects, so the expression is evaluated on every row.
 */
export const RISKY_EXPRESSIONS = [
  'CAST(X AS INT)', 'CAST(X AS DECIMAL(3, 2))', 'CAST(X AS TIMESTAMP(3))', 'CAST(X AS BOOLEAN)', 'CAST(X AS DATE)',
  'CAST(X AS BIGINT)', 'CAST(X AS STRING)', 'CAST(X AS DOUBLE)', 'TRY_CAST(X AS INT)', 'CAST(X AS TIME)',
  'X / 0', 'X % 0', 'MOD(X, 0)', '1 / 0', 'X * 99999999999999999999', 'X + 2147483647', '-X', 'ABS(X)', 'POWER(X, 999)',
  'SQRT(-1)', 'LN(0)', 'EXP(1000)', 'ROUND(X, -400)', 'ROUND(X, 400)', 'ROUND(X, 2)', 'FLOOR(X)', 'CEIL(X)',
  'X * X * X * X * X * X', 'CAST(2147483647 AS INT) + 1', 'CAST(-9223372036854775808 AS BIGINT) - 1', '0.1 + 0.2',
  'CAST(1e308 AS DOUBLE) * 10', 'CAST(X AS DECIMAL(38, 18)) * CAST(X AS DECIMAL(38, 18))', '1.0 / 3',
  'SUBSTRING(X, -1, 2)', 'SUBSTRING(X, 0)', 'SUBSTR(X, 99999999999)', 'SUBSTRING(X, 2, -1)', 'CHAR_LENGTH(X)',
  'CONCAT(X, NULL)', 'UPPER(X)', 'TRIM(X)', "X LIKE 'a\\%' ESCAPE '\\'", "X LIKE '%' ESCAPE 'x'", "X LIKE '['",
  'TO_TIMESTAMP_LTZ(X, 3)', 'TO_TIMESTAMP_LTZ(X, 0)', 'TO_TIMESTAMP_LTZ(9223372036854775807, 3)', 'TO_TIMESTAMP(X)',
  "DATE_FORMAT(X, 'yyyy-MM-dd HH:mm:ss.SSS')", "DATE_FORMAT(X, '''')", 'FROM_UNIXTIME(X)', 'UNIX_TIMESTAMP(X)',
  'TIMESTAMPADD(DAY, 999999999, X)', "X + INTERVAL '99999999' DAY", "X - INTERVAL '1' SECOND",
  'TIMESTAMPDIFF(SECOND, X, X)', 'CASE WHEN X IS NULL THEN 1 ELSE 1 / 0 END', 'IF(X IS NULL, 0, 1 / 0)',
  'NULLIF(X, X)', 'COALESCE(X, 1 / 0)', 'CURRENT_WATERMARK(X)', 'X = X', 'X IS DISTINCT FROM NULL',
  "CAST('9999-12-31 23:59:59.999' AS TIMESTAMP(3)) + INTERVAL '1' DAY", "CAST('' AS INT)", "CAST(' 1 ' AS INT)",
] as const;

const idx = fc.nat({ max: 1_000_000 });

export const sqlMutationArb: fc.Arbitrary<SqlMutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('drop' as const, 'duplicate' as const, 'swap-keyword' as const, 'unbalance' as const), a: idx, b: idx }),
  fc.record({ kind: fc.constant('swap-tokens' as const), a: idx, b: idx }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('insert-token' as const), a: idx, text: fc.constantFrom(...SQL_INSERTS) }) },
);

export const sqlMutationsArb = fc.array(sqlMutationArb, { minLength: 1, maxLength: 3 });

export const riskyMutationsArb = fc.array(
  fc.record({ kind: fc.constant('risky-projection' as const), a: idx, text: fc.constantFrom(...RISKY_EXPRESSIONS) }),
  { minLength: 1, maxLength: 2 },
);

interface Tok {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

function tokens(sql: string): Tok[] {
  return [...sql.matchAll(TOKEN_RE)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

function splice(sql: string, t: Tok, replacement: string): string {
  return sql.slice(0, t.start) + replacement + sql.slice(t.end);
}

export function mutateSql(sql: string, m: SqlMutation): string {
  if (m.kind === 'risky-projection') return addProjection(sql, m.a, m.text);
  const toks = tokens(sql);
  if (toks.length === 0) return m.kind === 'insert-token' ? m.text : sql;
  const t = toks[m.a % toks.length]!;
  switch (m.kind) {
    case 'drop':
      return splice(sql, t, '');
    case 'duplicate':
      return splice(sql, t, `${t.text} ${t.text}`);
    case 'insert-token':
      return splice(sql, t, `${m.text} ${t.text}`);
    case 'swap-keyword': {
      // prefer a token that has siblings; fall back to the picked one
      const swappable = toks.filter((x) => SWAPS[x.text.toUpperCase()] !== undefined);
      const target = swappable.length > 0 ? swappable[m.a % swappable.length]! : t;
      const options = SWAPS[target.text.toUpperCase()] ?? ['NOSUCH'];
      return splice(sql, target, options[m.b % options.length]!);
    }
    case 'unbalance': {
      const parens = toks.filter((x) => x.text === '(' || x.text === ')');
      if (parens.length === 0) return splice(sql, t, `(${t.text}`);
      return splice(sql, parens[m.a % parens.length]!, '');
    }
    case 'swap-tokens': {
      const u = toks[m.b % toks.length]!;
      if (u === t) return sql;
      const [first, second] = t.start < u.start ? [t, u] : [u, t];
      return sql.slice(0, first.start) + second.text + sql.slice(first.end, second.start) + first.text + sql.slice(second.end);
    }
  }
}

/** Puts `EXPR AS zz_risky, ` first in the n-th SELECT list, X standing for that SELECT's first column. */
function addProjection(sql: string, n: number, template: string): string {
  const selects = [...sql.matchAll(/\bSELECT\s+(?:DISTINCT\s+)?(?:\/\*\+.*?\*\/\s*)?([\w.`]+)(?!\s*\()/gi)];
  if (selects.length === 0) return sql;
  const m = selects[n % selects.length]!;
  const column = m[1] === '*' || m[1] === undefined ? '1' : m[1];
  const at = m.index + m[0].length - m[1]!.length;
  return `${sql.slice(0, at)}${template.replaceAll('X', column)} AS zz_risky, ${sql.slice(at)}`;
}

export function mutateSqlAll(sql: string, ms: readonly SqlMutation[]): string {
  return ms.reduce(mutateSql, sql);
}

/** Applies SQL mutations to the `sql: |` block of a scenario file, leaving the rest as it is. */
export function mutateSqlBlockInFile(text: string, ms: readonly SqlMutation[]): string {
  const m = /^sql:[ \t]*[|>][^\n]*\n((?:(?:[ \t]+[^\n]*)?\n)*)/m.exec(text);
  if (!m) return text;
  const start = m.index + m[0].length - m[1]!.length;
  const end = start + m[1]!.length;
  // mutate each SQL token in place (indentation is whitespace, never a token, so it survives)
  return text.slice(0, start) + mutateSqlAll(text.slice(start, end), ms) + text.slice(end);
}

/** Random token soup: SQL-ish tokens and identifiers in random order. */
export const tokenSoupArb = fc
  .array(fc.oneof(fc.constantFrom(...SQL_INSERTS), fc.constantFrom('a', 'b', 'o', 'r', 'k', 'ts', '1', "'x'")), { maxLength: 40 })
  .map((ts) => ts.join(' '));
