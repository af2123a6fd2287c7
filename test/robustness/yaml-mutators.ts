/**
 * Text-level mutations of a scenario file, as fast-check arbitraries. A mutation is plain data
 * (kind + random numbers) so fast-check can shrink it and print it; `applyMutation` turns it
 * into the mutant text. Indices are taken modulo the text's size, so any number fits any file.
 */
import fc from 'fast-check';

/** Values of the wrong type, out of range, or just nasty, for any YAML scalar position. */
export const NASTY_VALUES = [
  '"abc"', "'x'", '""', "''", 'null', '~', 'true', 'false', '-1', '0', '-0', '1.5', '-2147483649', '2147483648',
  '99999999999999999999999', '9007199254740993', '1e309', '-1e309', '.nan', '.inf', '-.inf', '0x1F', '0o17',
  '1.10000000000000000000001', '"25:99"', '"24:00"', '"09:30:61"', '"2026-13-45 09:30"', '"2026-02-30"',
  '"09:30:15.2500001"', '"-5 min"', '"0 ms"', '"5 fortnights"', '"1e3 s"', '"99999999999999 d"', 'max',
  '"😀 üñí"', '"\\u0000"', '"\\u202e"', '"\\x07bell"', '"a\\nb"', '[1, 2]', '[]', '{}', '{ a: 1 }', '"+I"', '"-U"',
  '"+X"', '"2.9"', '"1.9"', '"2.3"', 'auto', 'manual', '"UTC"', '"Mars/Olympus"', '"+25:00"', '!!binary AAAA',
  '&anchor 1', '*anchor', '|', '>', '"a: b"', '"# not a comment"', '" leading space"', '"trailing "',
] as const;

/** Values a row column may well accept, at the edges of their type: they get past the loader into the engine. */
export const EXTREME_VALUES = [
  '2147483647', '-2147483648', '9007199254740991', '-9007199254740991', '99999999.99', '-99999999.99', '0.0001',
  '0.00005', '-0.0', '1.0E308', '4.9E-324', '"9999-12-31 23:59:59.999"', '"0001-01-01 00:00"', '"1970-01-01 00:00"',
  '"1969-12-31 23:59:59.999"', '-62135596800000', '253402300799999', '8640000000000000', '-8640000000000000',
  '"23:59:59.999"', '"00:00"', '""', '" "', '"😀"', '"\u0000"', 'null', '0', '-1', 'true', '"NaN"', '"1e5"',
] as const;

/** Replacement key names: typos, other keys' names, and odd characters. */
export const NASTY_KEYS = [
  'nme', 'Name', 'sq1', 'event', 'expects', 'row', 'to', 'op', 'partition', 'watermark', 'idle', 'active', 'advance',
  'note', 'at', 'date', 'config', 'partitions', 'queries', 'flink-version', 'watermarks', '"quoted key"', '"😀"',
  'table.exec.state.ttl', 'table.exec.nope', '"?"', '"<<"', '"1"',
] as const;

/** Short strings inserted at random places: YAML structure characters and control characters. */
export const NASTY_INSERTS = [
  ':', ': ', '-', '- ', '{', '}', '[', ']', ',', '"', "'", '#', '&a ', '*a', '!!int ', '|', '>', '\t', '\0', '\r',
  '\u00a0', '\u200b', '\ufeff', '\u202e', '😀', 'é', '\\', '%', '@', '`', '\n', '\n  ', '\n- ', '---\n', '...\n',
  '? ', '<<: ', 'x',
] as const;

export type Mutation =
  | { readonly kind: 'delete-line' | 'duplicate-line'; readonly a: number }
  | { readonly kind: 'swap-lines'; readonly a: number; readonly b: number }
  | { readonly kind: 'delete-chars'; readonly a: number; readonly len: number }
  | { readonly kind: 'insert'; readonly a: number; readonly text: string }
  | { readonly kind: 'truncate'; readonly a: number }
  | { readonly kind: 'replace-value'; readonly a: number; readonly text: string }
  | { readonly kind: 'rename-key'; readonly a: number; readonly text: string }
  | { readonly kind: 'replace-row-value'; readonly a: number; readonly text: string };

const idx = fc.nat({ max: 1_000_000 });
const randomInsert = fc.oneof(fc.constantFrom(...NASTY_INSERTS), fc.string({ maxLength: 4 }), fc.string({ unit: 'grapheme', maxLength: 3 }));

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete-line' as const, 'duplicate-line' as const), a: idx }),
  fc.record({ kind: fc.constant('swap-lines' as const), a: idx, b: idx }),
  fc.record({ kind: fc.constant('delete-chars' as const), a: idx, len: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('insert' as const), a: idx, text: randomInsert }),
  fc.record({ kind: fc.constant('truncate' as const), a: idx }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace-value' as const), a: idx, text: fc.constantFrom(...NASTY_VALUES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rename-key' as const), a: idx, text: fc.constantFrom(...NASTY_KEYS) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace-row-value' as const), a: idx, text: fc.constantFrom(...EXTREME_VALUES) }) },
);

export function applyMutation(text: string, m: Mutation): string {
  switch (m.kind) {
    case 'delete-line':
    case 'duplicate-line':
    case 'swap-lines':
      return mutateLines(text, m);
    case 'delete-chars': {
      const at = m.a % (text.length + 1);
      return text.slice(0, at) + text.slice(at + m.len);
    }
    case 'insert': {
      const at = m.a % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'truncate':
      return text.slice(0, m.a % (text.length + 1));
    case 'replace-value':
      return replaceNth(text, VALUE_RE, m.a, (match) => `${match[1]}${m.text}`);
    case 'rename-key':
      return replaceNth(text, KEY_RE, m.a, (match) => `${match[1]}${m.text}:`);
    case 'replace-row-value': {
      const spans = rowValueSpans(text);
      if (spans.length === 0) return text;
      const [start, end] = spans[m.a % spans.length]!;
      return text.slice(0, start) + m.text + text.slice(end);
    }
  }
}

function mutateLines(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const i = ('a' in m ? m.a : 0) % lines.length;
  if (m.kind === 'delete-line') lines.splice(i, 1);
  else if (m.kind === 'duplicate-line') lines.splice(i, 0, lines[i]!);
  else if (m.kind === 'swap-lines') {
    const j = m.b % lines.length;
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  return lines.join('\n');
}

/** `key: value` in block or flow style; group 1 is everything up to the value. */
const VALUE_RE = /((?:^|[{,\s])[\w.-]+:\s+)([^\s,{}[\]#][^,{}[\]#\n]*?)(?=\s*(?:[,}\]#]|$))/gm;
/** `key: value` pairs of a flow map, `row: { ... }` or an event's own; group 2 is the value. */
const FLOW_PAIR_RE = /([{,]\s*[\w.-]+:\s+)([^\s,{}[\]#][^,{}[\]#\n]*?)(?=\s*[,}])/g;

/** [start, end) of every value inside a flow map: row values, and the events' `to` / `at` / `partition`. */
function rowValueSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  // a pair's value may be followed by `,` that starts the next pair: scan from each `{` or `,`
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (c !== '{' && c !== ',') continue;
    FLOW_PAIR_RE.lastIndex = at;
    const m = FLOW_PAIR_RE.exec(text);
    if (m?.index !== at) continue;
    const start = at + m[1]!.length;
    spans.push([start, start + m[2]!.length]);
  }
  return spans;
}
/** A key and its colon; group 1 is what precedes the key. */
const KEY_RE = /((?:^\s*(?:- )?|[{,]\s*))[\w.-]+:(?=\s)/gm;

function replaceNth(text: string, re: RegExp, n: number, replace: (m: RegExpExecArray) => string): string {
  const matches = [...text.matchAll(re)];
  if (matches.length === 0) return text;
  const match = matches[n % matches.length]!;
  const at = match.index;
  return text.slice(0, at) + replace(match) + text.slice(at + match[0].length);
}

/** One to three mutations in a row: a single one rarely reaches combined failure modes. */
export const mutationsArb = fc.array(mutationArb, { minLength: 1, maxLength: 3 });

/** Only values inside events' flow maps, at the edges of their types: most of these still load and run. */
export const rowMutationsArb = fc.array(
  fc.record({ kind: fc.constant('replace-row-value' as const), a: idx, text: fc.constantFrom(...EXTREME_VALUES) }),
  { minLength: 1, maxLength: 3 },
);

export function applyAll(text: string, ms: readonly Mutation[]): string {
  return ms.reduce(applyMutation, text);
}
