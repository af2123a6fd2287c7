/**
 * One JSON object per line (JSON Lines) read into light nodes (flow-line.ts) with offsets in the
 * data file: strings as double-quoted scalars, numbers as plain scalars with their text as
 * written (so `1.10` reaches a DECIMAL column as 1.10, and a 19-digit BIGINT keeps its digits),
 * `true` / `false` / `null` as plain scalars. Then rows from a file are checked exactly as rows
 * written in the scenario are.
 */
import type { LightMap, LightNode, LightScalar } from './flow-line.js';

export type JsonRead = { readonly ok: true; readonly map: LightMap; readonly end: number } | { readonly ok: false; readonly offset: number; readonly message: string };

class JsonFail extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

/** The JSON object at `start` (after any spaces); `end` is the offset just after it. */
export function readJsonObject(text: string, start: number): JsonRead {
  const r = new JsonReader(text, start);
  try {
    r.spaces();
    if (text.charCodeAt(r.pos) !== 123) throw new JsonFail(r.pos, `expected a JSON object (\`{...}\`), not ${what(text, r.pos)}`);
    const map = r.object(0);
    return { ok: true, map, end: r.pos };
  } catch (error) {
    if (error instanceof JsonFail) return { ok: false, offset: error.offset, message: error.message };
    throw error;
  }
}

function what(text: string, pos: number): string {
  const c = text[pos];
  if (c === undefined || c === '\n') return 'the end of the line';
  if (c === '[') return 'a list';
  return `\`${text.slice(pos, pos + 12).split('\n')[0]}\``;
}

class JsonReader {
  constructor(
    private readonly text: string,
    public pos: number,
  ) {}

  spaces(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 13) this.pos++;
      else return;
    }
  }

  object(depth: number): LightMap {
    if (depth > 8) throw new JsonFail(this.pos, 'JSON nested too deeply');
    const t = this.text;
    const start = this.pos;
    this.pos++;
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    this.spaces();
    if (t.charCodeAt(this.pos) === 125) {
      this.pos++;
      return { map: true, start, end: this.pos, keys, values };
    }
    for (;;) {
      this.spaces();
      if (t.charCodeAt(this.pos) !== 34) throw new JsonFail(this.pos, `expected a quoted field name, not ${what(t, this.pos)}`);
      const key = this.string();
      if (keys.some((k) => k.value === key.value)) throw new JsonFail(key.start, `duplicate field "${key.value as string}"`);
      this.spaces();
      if (t.charCodeAt(this.pos) !== 58) throw new JsonFail(this.pos, `expected \`:\` after the field name, not ${what(t, this.pos)}`);
      this.pos++;
      this.spaces();
      keys.push(key);
      values.push(this.value(depth));
      this.spaces();
      const c = t.charCodeAt(this.pos);
      if (c === 44) {
        this.pos++;
        continue;
      }
      if (c === 125) {
        this.pos++;
        return { map: true, start, end: this.pos, keys, values };
      }
      throw new JsonFail(this.pos, `expected \`,\` or \`}\`, not ${what(t, this.pos)}`);
    }
  }

  private value(depth: number): LightNode {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 123) return this.object(depth + 1);
    if (c === 34) return this.string();
    if (c === 91) throw new JsonFail(this.pos, 'a JSON list is not a column value');
    const start = this.pos;
    const word = c === 116 ? 'true' : c === 102 ? 'false' : c === 110 ? 'null' : undefined;
    if (word !== undefined && t.startsWith(word, start)) {
      this.pos += word.length;
      return { map: false, start, end: this.pos, value: word === 'null' ? null : word === 'true', source: word, style: 'PLAIN' };
    }
    NUMBER.lastIndex = start;
    const m = NUMBER.exec(t);
    if (m === null) throw new JsonFail(start, `expected a JSON value, not ${what(t, start)}`);
    this.pos = start + m[0].length;
    return { map: false, start, end: this.pos, value: Number(m[0]), source: m[0], style: 'PLAIN' };
  }

  private string(): LightScalar {
    const t = this.text;
    const start = this.pos;
    let i = start + 1;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c) || c === 10) throw new JsonFail(start, 'unterminated JSON string');
      if (c === 92) {
        escaped = true;
        i += 2;
        continue;
      }
      if (c === 34) break;
      i++;
    }
    this.pos = i + 1;
    let value: string;
    if (!escaped) value = t.slice(start + 1, i);
    else {
      try {
        value = JSON.parse(t.slice(start, i + 1)) as string;
      } catch {
        throw new JsonFail(start, 'invalid escape in a JSON string');
      }
    }
    return { map: false, start, end: this.pos, value, source: value, style: 'QUOTE_DOUBLE' };
  }
}
