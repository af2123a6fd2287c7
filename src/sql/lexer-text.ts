/**
 * Source characters as the lexer's messages show them. Flink's (Calcite's JavaCC) lexer escapes
 * what it cannot print; joinstep shows characters that are invisible or would act on the terminal
 * escaped the one way all its messages do (values/printable.ts), and keeps visible ones (é, 😀)
 * as they are, for readability.
 */
import { printable } from '../values/printable.js';

/** The whole character at `i` (both halves of a surrogate pair): its length and its shown form. */
export function charAt(text: string, i: number): { readonly len: number; readonly shown: string } {
  const len = (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  return { len, shown: printable(text.slice(i, i + len)) };
}
