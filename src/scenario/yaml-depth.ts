/**
 * How deep a scenario's YAML may nest. The yaml library composes nodes recursively: about 800
 * levels (`[[[[...`, `- - - - x`, a map per indentation step) exhaust the JavaScript stack and
 * end in "maximum call stack size exceeded" at an arbitrary column, and some forms run V8 out of
 * memory. A scenario needs a handful of levels (events → an event → its row → a value), so the
 * text is checked before the library sees it.
 *
 * The check is one linear pass over the characters, with no allocation per line, so a big flat
 * file (a million one-line events) pays a few milliseconds per megabyte. Any loader that hands
 * text to the yaml library can call it first.
 */

export const MAX_YAML_DEPTH = 100;

const NL = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const HASH = 35;
const SQUOTE = 39;
const DQUOTE = 34;
const BACKSLASH = 92;
const LBRACKET = 91;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;
const COMMA = 44;
const COLON = 58;
const DASH = 45;
const QUESTION = 63;
const PIPE = 124;
const GT = 62;

/** 1 for an ASCII character that opens, closes or separates nothing: the scan skips runs of them. */
const ORDINARY = new Uint8Array(128).fill(1);
for (const c of [NL, CR, SPACE, TAB, HASH, SQUOTE, DQUOTE, LBRACKET, RBRACKET, LBRACE, RBRACE, COMMA, COLON, DASH, QUESTION, PIPE, GT]) ORDINARY[c] = 0;

const isBlank = (c: number): boolean => c === SPACE || c === TAB;
const endsToken = (c: number): boolean => c === SPACE || c === TAB || c === NL || c === CR || Number.isNaN(c);

/**
 * The offset of the first place where the YAML nests deeper than `limit` levels (block maps and
 * lists by indentation and by `- ` on one line, flow `[...]` and `{...}` by bracket), or
 * undefined. Quoted scalars, comments and block scalars (`|`, `>`) are skipped, so brackets in a
 * note or in the SQL never count. It over-counts by at most one level for a plain scalar
 * continued on the next line, which is harmless at this limit.
 */
export function yamlTooDeep(text: string, limit = MAX_YAML_DEPTH): number | undefined {
  const n = text.length;
  // Indentations of the open block nodes; depth of block nesting = how many are open.
  const indents: number[] = [];
  let flow = 0;
  let quote = 0; // the open quote character, or 0
  let blockScalarParent = -1; // inside a block scalar: the indentation of the line that opened it
  let i = 0;
  while (i < n) {
    // Line start: indentation.
    const lineStart = i;
    while (i < n && text.charCodeAt(i) === SPACE) i++;
    const indent = i - lineStart;
    const first = text.charCodeAt(i);
    const blankLine = i >= n || first === NL || first === CR || first === HASH;
    if (blockScalarParent >= 0) {
      if (blankLine || indent > blockScalarParent) {
        i = skipLine(text, i) + 1;
        continue;
      }
      blockScalarParent = -1;
    }
    let depth = indents.length;
    let atStart = true;
    if (quote === 0 && flow === 0) {
      if (blankLine) {
        i = skipLine(text, i) + 1;
        continue;
      }
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      depth = indents.length;
      if (depth > limit) return i;
    }
    // The line's content.
    while (i < n) {
      const c = text.charCodeAt(i);
      if (quote !== 0) {
        i = quoteEnd(text, i, quote);
        quote = 0;
        atStart = false;
        continue;
      }
      if (c < 128 && ORDINARY[c] === 1) {
        // A run of characters that open or close nothing (letters, digits, most punctuation).
        i++;
        for (let d = text.charCodeAt(i); i < n && d < 128 && ORDINARY[d] === 1; d = text.charCodeAt(i)) i++;
        atStart = false;
        continue;
      }
      if (c === NL) break;
      if (isBlank(c) || c === CR) {
        i++;
        continue;
      }
      if (c === HASH && (i === lineStart || isBlank(text.charCodeAt(i - 1)))) {
        i = skipLine(text, i);
        break;
      }
      if (atStart && (c === SQUOTE || c === DQUOTE)) {
        quote = c;
        i++;
        continue;
      }
      if (c === LBRACKET || c === LBRACE) {
        if (atStart || flow > 0) {
          flow++;
          if (depth + flow > limit) return i;
          atStart = true;
        }
        i++;
        continue;
      }
      if ((c === RBRACKET || c === RBRACE) && flow > 0) {
        flow--;
        atStart = false;
        i++;
        continue;
      }
      if (c === COMMA && flow > 0) {
        atStart = true;
        i++;
        continue;
      }
      if ((c === DASH || c === QUESTION) && atStart && flow === 0 && endsToken(text.charCodeAt(i + 1))) {
        // `- - x` or `- key: v` on one line: each `- ` opens one more level.
        depth++;
        if (depth + flow > limit) return i;
        i++;
        continue;
      }
      if (c === COLON && endsToken(text.charCodeAt(i + 1))) {
        atStart = true;
        i++;
        continue;
      }
      if ((c === PIPE || c === GT) && atStart && flow === 0) {
        blockScalarParent = indent;
        i = skipLine(text, i);
        break;
      }
      atStart = false;
      i++;
    }
    if (i < n && text.charCodeAt(i) === NL) i++;
  }
  return undefined;
}

/** The offset just after the quote that closes a scalar opened before `i` (the text's length if none). */
function quoteEnd(text: string, i: number, quote: number): number {
  if (quote === SQUOTE) {
    for (;;) {
      const j = text.indexOf("'", i);
      if (j < 0) return text.length;
      if (text.charCodeAt(j + 1) !== SQUOTE) return j + 1;
      i = j + 2; // '' is a quote inside the scalar
    }
  }
  for (;;) {
    const j = text.indexOf('"', i);
    if (j < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return j + 1;
    i = j + 1;
  }
}

/** The offset of the line break that ends the line holding `i` (the text's length on the last line). */
function skipLine(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  return nl < 0 ? text.length : nl;
}
