/**
 * Flink's parse error form: `SQL parse failed. Encountered "WITH" at line 4, column 3.` then
 * `Was expecting one of:` and the tokens the grammar would have accepted there, one per line, as
 * Calcite's JavaCC parser (Flink's FlinkSqlParserImpl) prints them.
 *
 * The tokens come from the parser's own state: every token the recursive descent tested at the
 * failing token (see Cursor.expect). joinstep's grammar is a subset of Flink's, so the list is a
 * subset of Flink's too. A list of up to eight is ordered as Calcite's usually is (end of input,
 * keywords alphabetically, symbols, then token classes; tokens that would only continue what came
 * before, such as an operator after an expression, last). A longer one is cut after eight, and
 * then shows first what kind of thing was expected (a name, a literal, a bracket) before the
 * keywords, which for an expression are mostly function names.
 */
import type { Token, TokenKind } from './lexer.js';
import { isReserved } from './keywords.js';

/** Calcite's name for a token class, as its "Was expecting" lists print it. */
export const TOKEN_CLASS: Readonly<Record<Exclude<TokenKind, 'error' | 'op' | 'hintStart' | 'hintEnd'>, string>> = {
  eof: '<EOF>',
  word: '<IDENTIFIER>',
  quoted: '<BACK_QUOTED_IDENTIFIER>',
  string: '<QUOTED_STRING>',
  number: '<UNSIGNED_INTEGER_LITERAL>',
};

/** What a name may be: a plain identifier or a backtick-quoted one (Flink's `Lex.JAVA`). */
export const IDENTIFIER = [TOKEN_CLASS.word, TOKEN_CLASS.quoted] as const;

/** The longest list shown; Calcite lists every token, which for an expression is over a hundred. */
export const MAX_EXPECTED_SHOWN = 8;

/** The image of a keyword (`"FROM"`) or a symbol (`"("`) in an expected list. */
export const quotedImage = (s: string): string => `"${s}"`;

/** Token classes in Calcite's order: literals, then identifiers. */
const CLASS_ORDER = ['<UNSIGNED_INTEGER_LITERAL>', '<DECIMAL_NUMERIC_LITERAL>', '<APPROX_NUMERIC_LITERAL>', '<QUOTED_STRING>', '<BACK_QUOTED_IDENTIFIER>', '<IDENTIFIER>'];

type Group = 'eof' | 'keyword' | 'symbol' | 'class';

function group(image: string): Group {
  if (image === TOKEN_CLASS.eof) return 'eof';
  if (/^"[A-Z_]+"$/.test(image)) return 'keyword';
  return image.startsWith('"') ? 'symbol' : 'class';
}

/** Calcite's usual order; for a list that will be cut, what kind of thing comes first, the many keywords last. */
const FULL_ORDER: readonly Group[] = ['eof', 'keyword', 'symbol', 'class'];
const CUT_ORDER: readonly Group[] = ['eof', 'class', 'symbol', 'keyword'];

function rank(image: string, order: readonly Group[]): [number, string] {
  const g = group(image);
  if (g === 'keyword') return [order.indexOf(g), image];
  if (g === 'class') return [order.indexOf(g), String(CLASS_ORDER.indexOf(image) + 1).padStart(2, '0')];
  return [order.indexOf(g), ''];
}

/** The expected tokens ordered by `order`: keywords alphabetically, classes as Calcite numbers them, symbols as they were tried. */
export function orderExpected(expected: Iterable<string>, order: readonly Group[] = FULL_ORDER): string[] {
  return [...expected]
    .map((image, i) => ({ image, i, r: rank(image, order) }))
    .sort((a, b) => a.r[0] - b.r[0] || (a.r[1] < b.r[1] ? -1 : a.r[1] > b.r[1] ? 1 : a.i - b.i))
    .map((e) => e.image);
}

/** Calcite's (JavaCC's `add_escapes`) spelling of a token's text inside `Encountered "..."`. */
export function tokenImage(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = text.charCodeAt(i);
    if (code === 0) continue;
    const named = NAMED[ch];
    if (named !== undefined) out += named;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

const NAMED: Readonly<Record<string, string>> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', '"': '\\"', "'": "\\'", '\\': '\\\\' };

/** 1-based line and column of `offset` in `text`, counted as Calcite counts (UTF-16 units). */
function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    start = nl + 1;
  }
  return { line, col: offset - start + 1 };
}

/**
 * The message for a syntax error at `tok`, given what the grammar tried there. At the end of the
 * input Calcite reports the position of the text's last character. A reserved word written in
 * capitals where a name could have stood gets Calcite's "Incorrect syntax near the keyword" form.
 */
export function syntaxErrorMessage(text: string, tok: Token, expected: Iterable<string>, continuations: Iterable<string> = []): string {
  const all = new Set([...expected, ...continuations]);
  const cut = all.size > MAX_EXPECTED_SHOWN;
  const first = orderExpected(expected, cut ? CUT_ORDER : FULL_ORDER);
  const ordered = [...first, ...orderExpected(continuations, cut ? CUT_ORDER : FULL_ORDER).filter((image) => !first.includes(image))];
  const at = lineCol(text, tok.kind === 'eof' ? Math.max(0, text.length - 1) : tok.start);
  const where = `at line ${at.line}, column ${at.col}.`;
  const keyword = tok.kind === 'word' && tok.text === tok.value && isReserved(tok.value) && ordered.includes(TOKEN_CLASS.word);
  const head = keyword ? `Incorrect syntax near the keyword '${tok.text}' ${where}` : `Encountered "${tok.kind === 'eof' ? '<EOF>' : tokenImage(tok.text)}" ${where}`;
  if (ordered.length === 0) return head;
  const shown = ordered.slice(0, MAX_EXPECTED_SHOWN).map((image) => `    ${image}${image === TOKEN_CLASS.eof ? '' : ' ...'}`);
  if (ordered.length > MAX_EXPECTED_SHOWN) shown.push('    ...');
  return [head, ordered.length === 1 ? 'Was expecting:' : 'Was expecting one of:', ...shown].join('\n');
}
