import type { ParseResult, Script, SqlSyntaxError, Statement } from './ast.js';
import { Cursor, SqlParseError } from './cursor.js';
import { tokenize } from './lexer.js';
import { checkDepth } from './depth.js';
import { printableLines } from '../values/printable.js';
import { parseCreateTable, parseCreateView, parseInsert } from './parser-ddl.js';
import { parseSelect } from './parser-query.js';

const STATEMENT_WORDS = ['CREATE', 'INSERT', 'SELECT', 'DROP', 'ALTER', 'SET', 'RESET', 'USE', 'EXPLAIN', 'EXECUTE', 'BEGIN', 'END', 'WITH', 'SHOW', 'DESCRIBE'];
const STATEMENT_START = new RegExp(`^(${STATEMENT_WORDS.join('|')})$`);

/**
 * Parses joinstep's Flink SQL subset: statements separated by `;` (the last `;` is optional).
 * Returns the script, or the first syntax error in text order. Never throws: an internal bug is
 * reported as an error at offset 0 rather than a stack trace.
 */
export function parseSql(text: string): ParseResult {
  try {
    const c = new Cursor(text, tokenize(text));
    return { ok: true, script: parseScript(c) };
  } catch (e) {
    if (e instanceof SqlParseError) return { ok: false, error: shown(e.detail) };
    const detail = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      error: {
        message: `internal error in joinstep's SQL parser: ${detail}`,
        hint: 'this is a bug in joinstep, not in your SQL; please report it with the scenario file',
        start: 0,
        end: 0,
      },
    };
  }
}

/**
 * Messages quote source text (a token, a quoted name, a string); an invisible or terminal-control
 * character in it (ESC, a bidi override) is shown escaped, never written raw to the user's terminal.
 */
function shown(e: SqlSyntaxError): SqlSyntaxError {
  const message = printableLines(e.message);
  return e.hint === undefined ? { ...e, message } : { ...e, message, hint: printableLines(e.hint) };
}

function parseScript(c: Cursor): Script {
  const statements: Statement[] = [];
  for (;;) {
    while (c.acceptOp(';')) {
      // empty statements are skipped
    }
    if (c.at('eof')) return { statements };
    const statement = parseStatement(c);
    checkDepth(c, statement);
    statements.push(statement);
    if (c.at('eof')) return { statements };
    if (!c.isOp(';')) {
      const t = c.tok;
      const startsStatement = t.kind === 'word' && STATEMENT_START.test(t.value);
      c.fail(startsStatement ? "statements must be separated by ';'" : 'unexpected text after the end of the statement');
    }
  }
}

function parseStatement(c: Cursor): Statement {
  const t = c.tok;
  c.expect(...STATEMENT_WORDS.map((w) => `"${w}"`));
  if (t.kind === 'word' && t.value === 'CREATE') {
    c.next();
    if (c.isWord('OR')) c.unsupported('CREATE OR REPLACE');
    const temporary = c.acceptWord('TEMPORARY') !== undefined;
    if (c.isWord('TABLE')) return parseCreateTable(c, t, temporary);
    if (c.isWord('VIEW')) return parseCreateView(c, t, temporary);
    if (c.isWord('FUNCTION') || c.isWord('CATALOG') || c.isWord('DATABASE') || c.isWord('SYSTEM')) c.unsupported(`CREATE ${c.tok.value}`);
    return c.fail('CREATE is followed by TABLE or VIEW');
  }
  if (t.kind === 'word' && t.value === 'INSERT') return parseInsert(c);
  if (t.kind === 'word' && t.value === 'SELECT') {
    const query = parseSelect(c);
    return { kind: 'query', query, start: query.start, end: query.end };
  }
  if (t.kind === 'word' && t.value === 'WITH') c.unsupported('WITH (common table expressions); declare a CREATE TEMPORARY VIEW instead');
  if (t.kind === 'word' && STATEMENT_START.test(t.value)) c.unsupported(`${t.value} statements`);
  return c.fail('a statement starts with CREATE TABLE, CREATE VIEW, INSERT INTO or SELECT');
}
