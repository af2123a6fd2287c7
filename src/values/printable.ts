/**
 * The one way text from a scenario (values, names, notes, identifiers, expected lines, file
 * contents and paths quoted in messages) is made safe for a terminal. A character that is
 * invisible or acts on the terminal (ESC and every other C0 control, DEL, the C1 controls, a
 * bidi override, a zero-width space, a line separator, a lone surrogate) is shown escaped, in the
 * spelling of Flink's SQL parser (Calcite's JavaCC `add_escapes`): `\b \t \n \f \r` by name,
 * anything else as `\uXXXX`; visible characters (é, 😀) stay. The app's panes, every command's
 * stdout and stderr, diagnostics, SQL error messages and recordings all use this module, so the
 * same character reads the same everywhere.
 */

/** Control (Cc), format (Cf), line / paragraph separators, private use, unassigned, surrogates. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u;
const INVISIBLE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/gu;

const NAMED: Readonly<Record<string, string>> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** Every UTF-16 unit of `ch` as `\uXXXX` (both halves of a private-use pair, a lone surrogate alone). */
function units(ch: string): string {
  let out = '';
  for (let k = 0; k < ch.length; k++) out += `\\u${ch.charCodeAt(k).toString(16).padStart(4, '0')}`;
  return out;
}

/** `s` with every invisible or terminal-control character escaped; `s` itself when it has none. */
export function printable(s: string): string {
  if (!INVISIBLE.test(s)) return s;
  return s.replace(INVISIBLE_ALL, (ch) => NAMED[ch] ?? units(ch));
}

/** Text of several lines: each line made printable, the line breaks between them kept. */
export function printableLines(text: string): string {
  return INVISIBLE.test(text) ? text.split('\n').map(printable).join('\n') : text;
}

/** A failed result with its message and hint made printable; a successful one unchanged. */
export function printableResult<R extends { ok: boolean }>(r: R): R {
  if (r.ok) return r;
  const f = r as R & { message: string; hint?: string };
  return { ...f, message: printable(f.message), ...(f.hint !== undefined ? { hint: printable(f.hint) } : {}) };
}

/** One escape pair of JSON text (kept, or respelled), or a raw invisible character (escaped). */
const JSON_ESCAPE_OR_INVISIBLE = /\\(.)|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/gu;
const JSON_NAMED: Readonly<Record<string, string>> = { b: '\\u0008', t: '\\u0009', n: '\\u000a', f: '\\u000c', r: '\\u000d' };

/**
 * `JSON.stringify(value)` with every control character (C0, DEL, C1) and every other invisible
 * character written as `\uXXXX`: JSON.stringify leaves DEL, C1, bidi overrides and U+2028 raw and
 * writes `\n` by name. The result is the same JSON value, in plain printable ASCII escapes.
 */
export function printableJson(value: unknown): string {
  const text = JSON.stringify(value);
  // Escape pairs are matched whole, left to right, so the `n` of an escaped backslash (`\\n`) is never taken for `\n`.
  return text.replace(JSON_ESCAPE_OR_INVISIBLE, (m, escaped: string | undefined) => (escaped === undefined ? units(m) : (JSON_NAMED[escaped] ?? m)));
}
