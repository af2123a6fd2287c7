/**
 * Source characters as the lexer's messages show them. Flink's (Calcite's JavaCC) lexer escapes
 * what it cannot print as `\uXXXX`; joinstep does the same for characters that are invisible or
 * would act on the terminal (control characters such as ESC, bidi overrides, zero-width spaces, a
 * BOM, lone surrogates), and keeps visible ones (é, 😀) as they are, for readability.
 */

/** Control (Cc), format (Cf), line / paragraph separators, private use, unassigned, surrogates. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u;

function escapeUnit(ch: string): string {
  let out = '';
  for (let k = 0; k < ch.length; k++) out += `\\u${ch.charCodeAt(k).toString(16).padStart(4, '0')}`;
  return out;
}

/** `s` with every invisible character written as `\uXXXX`. */
export function escapeInvisible(s: string): string {
  let out = '';
  for (const ch of s) out += INVISIBLE.test(ch) ? escapeUnit(ch) : ch;
  return out;
}

/** The whole character at `i` (both halves of a surrogate pair): its length and its shown form. */
export function charAt(text: string, i: number): { readonly len: number; readonly shown: string } {
  const len = (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  return { len, shown: escapeInvisible(text.slice(i, i + len)) };
}
