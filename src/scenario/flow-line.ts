/**
 * One-line flow maps (`{ to: orders, row: { id: o1, amount: 10 } }`) read into light nodes:
 * plain objects with the text offsets, the source and the resolved value of each scalar, cheap
 * enough for a million events. `toYamlNode` turns a light node into the YAML library's node,
 * exactly as its parser would have made it, for the checks that report problems.
 *
 * The reader accepts a conservative subset of YAML's flow syntax: plain scalars (resolved with
 * the YAML library's own core-schema tags), single- and double-quoted strings on one line
 * (double-quoted with `\"` and `\\` as the only escapes), nested maps, and a trailing comment.
 * Anything else (a list, an anchor, a tag, a duplicate key, another escape, ...) is `undefined`:
 * the caller then lets the YAML parser read the file, so its errors stay the parser's.
 */
import { Document, Pair, Scalar, YAMLMap } from 'yaml';
import type { CollectionTag, ScalarTag } from 'yaml';

export type ScalarStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE';

export interface LightScalar {
  readonly map: false;
  /** Offsets of the scalar's text (quotes included). */
  readonly start: number;
  readonly end: number;
  readonly value: string | number | boolean | null;
  /** Plain: the text as written; quoted: the decoded string. */
  readonly source: string;
  readonly style: ScalarStyle;
}

export interface LightMap {
  readonly map: true;
  readonly start: number;
  readonly end: number;
  readonly keys: readonly LightScalar[];
  readonly values: readonly LightNode[];
}

export type LightNode = LightScalar | LightMap;

/** The core schema's scalar tags that resolve plain scalars, in the YAML library's order. */
const PLAIN_TAGS: readonly ScalarTag[] = (new Document(null).schema.tags as (ScalarTag | CollectionTag)[]).filter(
  (t): t is ScalarTag => t.default === true && 'test' in t && t.test !== undefined,
);
const RESOLVE_OPTIONS = { intAsBigInt: false } as Parameters<ScalarTag['resolve']>[2];

/** Words: strings, unless one of the core schema's null and boolean words. */
const NOT_STRING = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** Short enough that Number() and the YAML library's parseInt agree to the last bit. */
const MAX_DIGITS = 15;

class Fail extends Error {}

/**
 * Reads the flow map at `start` (a `{`) up to the end of its line; undefined when the line is
 * outside the subset. `maxDepth` bounds nesting (1 = maps inside the map, no deeper).
 */
export function readFlowLine(text: string, start: number, maxDepth = 1): LightMap | undefined {
  const r = new Reader(text, start, maxDepth);
  try {
    const map = r.map(0);
    r.spaces();
    const c = text.charCodeAt(r.pos);
    // Only the end of the line or a comment (after a space) may follow.
    if (c === 35 && text.charCodeAt(r.pos - 1) === 32) return map;
    return Number.isNaN(c) || c === 10 ? map : undefined;
  } catch (error) {
    if (error instanceof Fail) return undefined;
    throw error;
  }
}

class Reader {
  constructor(
    private readonly text: string,
    public pos: number,
    private readonly maxDepth: number,
  ) {}

  spaces(): void {
    while (this.text.charCodeAt(this.pos) === 32) this.pos++;
  }

  map(depth: number): LightMap {
    if (depth > this.maxDepth || this.text.charCodeAt(this.pos) !== 123) throw new Fail();
    const start = this.pos;
    this.pos++;
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    this.spaces();
    while (this.text.charCodeAt(this.pos) !== 125 /* } */) {
      const key = this.plain(true);
      if (typeof key.value !== 'string' || keys.some((k) => k.value === key.value)) throw new Fail();
      if (this.text.charCodeAt(this.pos) !== 58 /* : */ || this.text.charCodeAt(this.pos + 1) !== 32) throw new Fail();
      this.pos += 2;
      this.spaces();
      keys.push(key);
      values.push(this.value(depth));
      this.spaces();
      const c = this.text.charCodeAt(this.pos);
      if (c === 44 /* , */) {
        this.pos++;
        this.spaces();
      } else if (c !== 125) {
        throw new Fail();
      }
    }
    this.pos++;
    return { map: true, start, end: this.pos, keys, values };
  }

  private value(depth: number): LightNode {
    const c = this.text.charCodeAt(this.pos);
    if (c === 123) return this.map(depth + 1);
    if (c === 34 /* " */) return this.quoted(34);
    if (c === 39 /* ' */) return this.quoted(39);
    return this.plain(false);
  }

  /** A plain scalar up to `,` / `}` (a key: up to `: `). */
  private plain(key: boolean): LightScalar {
    const t = this.text;
    const start = this.pos;
    const first = t[start];
    // Indicators that start something other than a plain scalar here; `-`, `?`, `:` may start
    // one when a safe character follows (`-5`).
    if (first === undefined || '-?:,[]{}#&*!|>\'"%@`'.includes(first)) {
      const next = t[start + 1];
      const safe = next !== undefined && !' \n,[]{}'.includes(next);
      if (!((first === '-' || first === '?' || first === ':') && safe)) throw new Fail();
    }
    let i = start;
    let end = start;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c) || c === 10 || c === 44 || c === 125 || c === 123 || c === 91 || c === 93) break;
      if (c === 58 /* : */) {
        const n = t.charCodeAt(i + 1);
        if (n === 32 || n === 44 || n === 125 || n === 10 || Number.isNaN(n)) break;
      }
      if (c === 35 /* # */ && t.charCodeAt(i - 1) === 32) throw new Fail();
      i++;
      if (c !== 32) end = i;
    }
    const c = t.charCodeAt(i);
    // A value ends at `,` or `}`; a key right at its `: `.
    if (end === start || (key ? c !== 58 || end !== i : c !== 44 && c !== 125)) throw new Fail();
    this.pos = i;
    const source = t.slice(start, end);
    return { map: false, start, end, value: plainValue(source), source, style: 'PLAIN' };
  }

  private quoted(q: number): LightScalar {
    const t = this.text;
    const start = this.pos;
    let i = start + 1;
    let value = '';
    let from = i;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c) || c === 10) throw new Fail();
      if (c === q && q === 39 && t.charCodeAt(i + 1) === 39) {
        value += t.slice(from, i + 1);
        i += 2;
        from = i;
        continue;
      }
      if (c === q) break;
      if (q === 34 && c === 92 /* \ */) {
        const n = t[i + 1];
        if (n !== '"' && n !== '\\') throw new Fail();
        value += t.slice(from, i) + n;
        i += 2;
        from = i;
        continue;
      }
      i++;
    }
    value += t.slice(from, i);
    this.pos = i + 1;
    return { map: false, start, end: this.pos, value, source: value, style: q === 34 ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE' };
  }
}

/** The value a plain scalar resolves to under the core schema, as the YAML library resolves it. */
export function plainValue(source: string): string | number | boolean | null {
  switch (shape(source)) {
    case 'word':
      if (!NOT_STRING.has(source)) return source;
      break;
    case 'digits':
      return Number(source);
  }
  const node = resolvePlain(source);
  if (node === undefined) throw new Fail();
  return node.value as string | number | boolean | null;
}

/**
 * `word`: a letter or `_` then letters, digits, `_`, `-` (a string unless a null or boolean
 * word); `digits`: an optional `-` and 1 to 15 digits (an integer); else `other`. A scan of
 * char codes: the regular expressions it replaces were a fifth of a million-event load.
 */
function shape(s: string): 'word' | 'digits' | 'other' {
  const c0 = s.charCodeAt(0);
  if ((c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122) || c0 === 95) {
    for (let i = 1; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45)) return 'other';
    }
    return 'word';
  }
  const from = c0 === 45 ? 1 : 0;
  const n = s.length - from;
  if (n < 1 || n > MAX_DIGITS) return 'other';
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return 'other';
  }
  return 'digits';
}

function resolvePlain(source: string): Scalar | undefined {
  const tag = PLAIN_TAGS.find((x) => x.test!.test(source));
  if (tag === undefined) return new Scalar(source);
  let failed = false;
  const res = tag.resolve(source, () => (failed = true), RESOLVE_OPTIONS);
  if (failed) return undefined;
  const scalar = res instanceof Scalar ? res : new Scalar(res);
  if (tag.format !== undefined) scalar.format = tag.format;
  return scalar;
}

/** The YAML library's node for a light node, as its parser makes it (ranges in the same text). */
export function toYamlNode(n: LightNode): YAMLMap | Scalar {
  if (n.map) {
    const map = new YAMLMap();
    map.flow = true;
    n.keys.forEach((k, i) => map.items.push(new Pair(toYamlNode(k), toYamlNode(n.values[i]!))));
    map.range = [n.start, n.end, n.end];
    return map;
  }
  const scalar = n.style === 'PLAIN' ? resolvePlain(n.source)! : new Scalar(n.value);
  scalar.range = [n.start, n.end, n.end];
  scalar.source = n.source;
  scalar.type = n.style === 'PLAIN' ? Scalar.PLAIN : n.style === 'QUOTE_DOUBLE' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE;
  return scalar;
}
