/**
 * The recorder's key script: space-separated tokens.
 *   n p g G : / ? b e ...   a named key or a single character, one key press
 *   space enter tab shift-tab esc backspace left right up down pageup pagedown
 *   nnnn                    a bare word that is not a key name: each character is a key (the
 *                           scenario `demo:` field is written this way, e.g. "nnnn")
 *   "text"                  typed character by character (spaces included)
 *   wait:2s                 a pause on the recording's clock (no real waiting)
 * Key names are the ones the app's keymap uses (src/ui/keymap.ts `keyName`).
 */
import { parseDuration } from '../values/duration.js';

export type ScriptItem =
  | { readonly kind: 'key'; readonly name: string; readonly bytes: string }
  | { readonly kind: 'wait'; readonly ms: number };

export type ScriptResult = { ok: true; items: ScriptItem[] } | { ok: false; message: string };

/** The bytes a terminal sends for each named key. */
const NAMED: Readonly<Record<string, string>> = {
  space: ' ',
  enter: '\r',
  tab: '\t',
  'shift-tab': '\u001b[Z',
  esc: '\u001b',
  backspace: '\u007f',
  left: '\u001b[D',
  right: '\u001b[C',
  up: '\u001b[A',
  down: '\u001b[B',
  pageup: '\u001b[5~',
  pagedown: '\u001b[6~',
};

function charKey(ch: string): ScriptItem {
  if (ch === ' ') return { kind: 'key', name: 'space', bytes: ' ' };
  return { kind: 'key', name: ch, bytes: ch };
}

/** Splits on spaces, keeping a "quoted text" token whole (its spaces are keys). */
function tokens(script: string): string[] | string {
  const out: string[] = [];
  let i = 0;
  while (i < script.length) {
    const ch = script[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"') {
      const end = script.indexOf('"', i + 1);
      if (end < 0) return `unterminated "text" at column ${i + 1}`;
      out.push(script.slice(i, end + 1));
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < script.length && !/\s/.test(script[j]!)) j++;
    out.push(script.slice(i, j));
    i = j;
  }
  return out;
}

export function parseKeyScript(script: string): ScriptResult {
  const toks = tokens(script);
  if (typeof toks === 'string') return { ok: false, message: toks };
  const items: ScriptItem[] = [];
  for (const t of toks) {
    if (t.startsWith('"')) {
      for (const ch of t.slice(1, -1)) items.push(charKey(ch));
    } else if (t.startsWith('wait:')) {
      const d = parseDuration(t.slice('wait:'.length));
      if (!d.ok) return { ok: false, message: `bad pause '${t}': ${d.message}` };
      items.push({ kind: 'wait', ms: d.ms });
    } else if (NAMED[t] !== undefined) {
      items.push({ kind: 'key', name: t, bytes: NAMED[t] });
    } else {
      for (const ch of t) items.push(charKey(ch));
    }
  }
  return { ok: true, items };
}

/** The default script: step through every event, one `n` each. */
export function defaultKeyScript(steps: number): string {
  return Array.from({ length: steps }, () => 'n').join(' ');
}
