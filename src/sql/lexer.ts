/**
 * The lexer: one pass over the text, producing tokens with offsets. It never throws: a lexical
 * problem becomes an `error` token at the place it starts, so the parser reports it only if no
 * syntax error comes earlier in the text (Flink's JavaCC lexer is lazy and behaves the same way).
 */

import { charAt } from './lexer-text.js';
import { printable } from '../values/printable.js';

export type TokenKind =
  | 'word' // plain identifier or keyword; compare keywords through `upper`
  | 'quoted' // backtick-quoted identifier; `value` is unescaped
  | 'string' // '...' literal; `value` is unescaped
  | 'number'
  | 'op'
  | 'hintStart' // `/*+`
  | 'hintEnd' // the `*/` that closes a hint
  | 'error'
  | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** Source text of the token (for `error`: the message). */
  readonly text: string;
  /** Unquoted value for `quoted` / `string`; upper-cased text for `word`; the text otherwise. */
  readonly value: string;
  readonly start: number;
  readonly end: number;
  /** For `error` tokens only. */
  readonly hint?: string;
}

const TWO_CHAR_OPS = new Set(['<>', '<=', '>=', '!=', '||']);
const ONE_CHAR_OPS = new Set([...'=<>+-*/%(),.;[]{}?:']);
const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;

/** ASCII fast path first; the Unicode regex only for other characters. */
function isIdentPart(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 128) {
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
  }
  return IDENT_PART.test(ch);
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  let hintStart = -1; // offset of the open `/*+`, or -1 outside a hint
  const push = (kind: TokenKind, start: number, end: number, value?: string): void => {
    const raw = text.slice(start, end);
    tokens.push({ kind, text: raw, value: value ?? raw, start, end });
  };
  const fail = (start: number, end: number, message: string, hint: string): Token[] => {
    tokens.push({ kind: 'error', text: message, value: message, start, end, hint });
    tokens.push({ kind: 'eof', text: '', value: '', start: n, end: n });
    return tokens;
  };

  while (i < n) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f') {
      i++;
    } else if (ch === '-' && next === '-') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
    } else if (ch === '/' && next === '*' && text[i + 2] === '+' && hintStart < 0) {
      push('hintStart', i, i + 3);
      hintStart = i;
      i += 3;
    } else if (ch === '*' && next === '/' && hintStart >= 0) {
      push('hintEnd', i, i + 2);
      hintStart = -1;
      i += 2;
    } else if (ch === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) {
        return fail(i, i + 2, 'Lexical error: the comment is not closed', "a '/*' comment has no closing '*/'");
      }
      i = close + 2;
    } else if (ch === "'") {
      const end = scanQuoted(text, i, "'");
      if (end < 0) {
        return fail(i, lineEnd(text, i), `Lexical error: Encountered: <EOF> after : "${printable(text.slice(i, Math.min(lineEnd(text, i), i + 20)))}"`, 'unterminated string literal');
      }
      push('string', i, end, text.slice(i + 1, end - 1).replaceAll("''", "'"));
      i = end;
    } else if (ch === '`') {
      const end = scanQuoted(text, i, '`');
      if (end < 0) {
        return fail(i, lineEnd(text, i), `Lexical error: Encountered: <EOF> after : "${printable(text.slice(i, Math.min(lineEnd(text, i), i + 20)))}"`, 'unterminated quoted identifier: a closing ` is missing');
      }
      push('quoted', i, end, text.slice(i + 1, end - 1).replaceAll('``', '`'));
      i = end;
    } else if (isDigit(ch) || (ch === '.' && isDigit(next))) {
      const end = scanNumber(text, i);
      push('number', i, end);
      i = end;
    } else if (IDENT_START.test(ch)) {
      let end = i + 1;
      while (end < n && isIdentPart(text[end] as string)) end++;
      push('word', i, end, text.slice(i, end).toUpperCase());
      i = end;
    } else if (next !== undefined && TWO_CHAR_OPS.has(ch + next)) {
      push('op', i, i + 2);
      i += 2;
    } else if (ONE_CHAR_OPS.has(ch)) {
      push('op', i, i + 1);
      i += 1;
    } else if (ch === '"') {
      return fail(i, i + 1, 'Lexical error: Encountered: "\\""', "Flink quotes identifiers with backticks (`name`) and strings with single quotes ('text')");
    } else {
      // the whole character (both halves of a surrogate pair), escaped if it is invisible
      const c = charAt(text, i);
      return fail(i, i + c.len, `Lexical error: Encountered: "${c.shown}"`, `the character '${c.shown}' is not valid here`);
    }
  }
  if (hintStart >= 0) {
    return fail(hintStart, hintStart + 3, 'Lexical error: the hint is not closed', "a '/*+' hint has no closing '*/'");
  }
  tokens.push({ kind: 'eof', text: '', value: '', start: n, end: n });
  return tokens;
}

/** The error span of an unclosed quote stays on its line, so it maps to one place in the file. */
function lineEnd(text: string, from: number): number {
  const eol = text.indexOf('\n', from);
  return eol < 0 ? text.length : eol;
}

/** Offset just past the closing quote (a doubled quote is an escaped quote), or -1 if unclosed. */
function scanQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  for (;;) {
    const close = text.indexOf(quote, i);
    if (close < 0) return -1;
    if (text[close + 1] !== quote) return close + 1;
    i = close + 2;
  }
}

/** Integer, decimal or exponent literal: `42`, `1.10`, `.5`, `1E3`, `1.5e-3`. */
function scanNumber(text: string, start: number): number {
  let i = start;
  while (isDigit(text[i])) i++;
  if (text[i] === '.' && text[i + 1] !== '.') {
    i++;
    while (isDigit(text[i])) i++;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    const sign = text[i + 1] === '+' || text[i + 1] === '-' ? 1 : 0;
    if (isDigit(text[i + 1 + sign])) {
      i += 1 + sign;
      while (isDigit(text[i])) i++;
    }
  }
  return i;
}
