/**
 * Messages quote what the user wrote (a value, a time, a zone name). A character in it that is
 * invisible or acts on the terminal (ESC, a bidi override, a zero-width space, a NUL) is shown as
 * `\uXXXX`, as Flink's SQL parser shows characters it cannot print; visible ones (é, 😀) stay.
 * (src/sql/lexer-text.ts does the same for SQL messages; the modules share no code.)
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u;

export function printable(s: string): string {
  if (!INVISIBLE.test(s)) return s;
  let out = '';
  for (const ch of s) {
    if (!INVISIBLE.test(ch)) out += ch;
    else for (let k = 0; k < ch.length; k++) out += `\\u${ch.charCodeAt(k).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** A failed result with its message and hint made printable; a successful one unchanged. */
export function printableResult<R extends { ok: boolean }>(r: R): R {
  if (r.ok) return r;
  const f = r as R & { message: string; hint?: string };
  return { ...f, message: printable(f.message), ...(f.hint !== undefined ? { hint: printable(f.hint) } : {}) };
}
