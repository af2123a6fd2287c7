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
  /** A `U&'...'` literal: `value` still holds its escapes, which `tokenize` decodes at the end. */
  readonly unicode?: true;
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
    return withStringLiterals(text, tokens);
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
    } else if ((ch === 'U' || ch === 'u') && next === '&' && text[i + 2] === "'") {
      // A Unicode string literal, U&'...': its escapes are decoded once a UESCAPE after it is seen.
      const end = scanQuoted(text, i + 2, "'");
      if (end < 0) {
        return fail(i, lineEnd(text, i), `Lexical error: Encountered: <EOF> after : "${printable(text.slice(i, Math.min(lineEnd(text, i), i + 20)))}"`, 'unterminated string literal');
      }
      tokens.push({ kind: 'string', text: text.slice(i, end), value: text.slice(i + 3, end - 1).replaceAll("''", "'"), start: i, end, unicode: true });
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
  return withStringLiterals(text, tokens);
}

/**
 * The tokens with string literals as Flink's parser (Calcite) reads them: a literal continued on a
 * later line ('a' then 'b' on the next line) is one literal, 'ab' (continued on the same line it
 * is an error); a `U&'...'` literal, with its continuations, takes the escape character of a
 * `UESCAPE 'c'` after it (default a backslash) and is decoded. A problem ends the tokens with an
 * error there, as the lexer's own errors do. Decoding: the escape character twice is itself;
 * else it starts exactly four characters read as a base-16 number, as Java's Integer.parseInt
 * reads it (so a sign may lead: '+01F' is 0x1F), kept to its low 16 bits. Checked on Flink 2.3.
 */
function withStringLiterals(text: string, tokens: Token[]): Token[] {
  if (!tokens.some((t, k) => t.kind === 'string' && (t.unicode === true || tokens[k + 1]?.kind === 'string' || isUescape(tokens[k + 1])))) return tokens;
  const out: Token[] = [];
  const stop = (start: number, end: number, message: string, hint: string): Token[] => {
    const last = tokens[tokens.length - 1] as Token;
    out.push({ kind: 'error', text: message, value: message, start, end, hint }, last);
    return out;
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.kind !== 'string') {
      out.push(t);
      continue;
    }
    // the literal's continuations: plain string literals, each on a later line than the last
    let value = t.value;
    let end = t.end;
    for (let c = tokens[k + 1]; c?.kind === 'string' && c.unicode !== true; c = tokens[k + 1]) {
      if (!text.slice(end, c.start).includes('\n')) {
        return stop(c.start, c.end, 'String literal continued on same line', 'continue a string literal on a new line, or join the two with ||');
      }
      value += c.value;
      end = c.end;
      k++;
    }
    const next = tokens[k + 1];
    if (t.unicode !== true) {
      if (isUescape(next)) {
        return stop(next.start, next.end, 'UESCAPE cannot be specified without Unicode literal introducer', "UESCAPE follows a U&'...' literal, e.g. U&'!00e9' UESCAPE '!'");
      }
      out.push(value === t.value ? t : { kind: 'string', text: text.slice(t.start, end), value, start: t.start, end });
      continue;
    }
    let escape = '\\';
    if (isUescape(next)) {
      const c = tokens[k + 2];
      if (c?.kind !== 'string' || c.unicode === true) {
        return stop(next.start, next.end, 'UESCAPE is followed by a quoted character', "e.g. U&'!00e9' UESCAPE '!'");
      }
      if (c.value.length !== 1) {
        return stop(c.start, c.end, `UESCAPE '${printable(c.value)}' must be exactly one character`, "UESCAPE takes one character, e.g. UESCAPE '!'");
      }
      if (/^[0-9a-fA-F+"]$/.test(c.value) || /^\s$/u.test(c.value)) {
        return stop(c.start, c.end, `UESCAPE '${printable(c.value)}' may not be hex digit, whitespace, plus sign, or double quote`, "choose another character, e.g. UESCAPE '!'");
      }
      escape = c.value;
      end = c.end;
      k += 2;
    }
    const decoded = decodeUnicode(value, escape);
    if (typeof decoded === 'number') {
      return stop(t.start, end, `Unicode escape sequence starting at character ${decoded} is not exactly four hex digits`, `write ${escape} and four hex digits (${escape}00e9 is é), or ${escape}${escape} for ${escape} itself`);
    }
    out.push({ kind: 'string', text: text.slice(t.start, end), value: decoded, start: t.start, end });
  }
  return out;
}

function isUescape(t: Token | undefined): t is Token {
  return t?.kind === 'word' && t.value === 'UESCAPE';
}

/** A Unicode literal's text with its escapes decoded, or the index of the first malformed one. */
function decodeUnicode(s: string, escape: string): string | number {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c !== escape) {
      out += c;
      continue;
    }
    if (s[i + 1] === escape) {
      out += escape;
      i++;
      continue;
    }
    // Java's Integer.parseInt(u, 16): an optional sign, then hex digits only.
    const u = s.slice(i + 1, i + 5);
    if (u.length < 4 || !/^[+-]?[0-9a-fA-F]+$/.test(u)) return i;
    out += String.fromCharCode(parseInt(u, 16) & 0xffff);
    i += 4;
  }
  return out;
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
