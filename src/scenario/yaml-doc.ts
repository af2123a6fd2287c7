/**
 * YAML with positions: parses the file into one document and turns the parser's first error into
 * a diagnostic at the position the parser reports (spec §8).
 */
import { isAlias, LineCounter, parseDocument, visit } from 'yaml';
import type { Document, YAMLError } from 'yaml';
import { printable } from '../values/printable.js';
import type { LoadContext } from './context.js';
import type { Diagnostic } from './types.js';
import { MAX_YAML_DEPTH, yamlTooDeep } from './yaml-depth.js';

const DEPTH_PROBLEM = {
  message: `YAML nested more than ${MAX_YAML_DEPTH} levels deep (maps, lists, [...] and {...} inside one another): joinstep reads scenario files nested up to ${MAX_YAML_DEPTH} levels`,
  hint: 'a scenario needs a few levels (events, an event, its row): look for brackets that are never closed, or indentation that keeps growing',
};

/** 1-based line and column of `offset`. */
function linePos(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    start = nl + 1;
  }
  return { line, col: offset - start + 1 };
}

export type YamlParse = { ok: true; ctx: LoadContext } | { ok: false; diagnostic: Diagnostic };

export function parseYaml(file: string, text: string): YamlParse {
  const deep = yamlTooDeep(text);
  if (deep !== undefined) return { ok: false, diagnostic: { file, ...linePos(text, deep), ...DEPTH_PROBLEM } };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, keepSourceTokens: true });
  const ctx: LoadContext = { file, text, lineCounter, doc, diagnostics: [] };
  if (doc.errors.length === 0) {
    const lost = aliasWithoutAnchor(doc);
    if (lost === undefined) return { ok: true, ctx };
    const { line, col } = lineCounter.linePos(lost.offset);
    return {
      ok: false,
      diagnostic: {
        file,
        line,
        col,
        message: `\`*${printable(lost.name)}\` refers to no anchor: no value before it is marked \`&${printable(lost.name)}\``,
        hint: 'mark the value to repeat with `&NAME` where it first appears, or write the value here',
      },
    };
  }
  const first = [...doc.errors].sort((a, b) => a.pos[0] - b.pos[0])[0]!;
  const { line, col } = lineCounter.linePos(first.pos[0]);
  const { message, hint } = explainYamlError(first, text);
  const diagnostic: Diagnostic = hint === undefined ? { file, line, col, message } : { file, line, col, message, hint };
  return { ok: false, diagnostic };
}

/**
 * The first alias (`*name`) with no anchor (`&name`) before it. The parser accepts one and
 * reads it as nothing, which would surface as a misleading "not nothing" further on.
 */
function aliasWithoutAnchor(doc: Document): { name: string; offset: number } | undefined {
  const anchors = new Set<string>();
  let lost: { name: string; offset: number } | undefined;
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        if (!anchors.has(node.source)) {
          lost = { name: node.source, offset: node.range?.[0] ?? 0 };
          return visit.BREAK;
        }
      } else if (node.anchor !== undefined) anchors.add(node.anchor);
      return undefined;
    },
  });
  return lost;
}

/** The parser's message in our words, with a hint for the common cases. */
function explainYamlError(error: YAMLError, text: string): { message: string; hint?: string } {
  const raw = firstLine(error.message);
  switch (error.code) {
    case 'DUPLICATE_KEY': {
      const key = keyAt(text, error.pos[0]);
      return {
        message: key ? `duplicate key \`${key}\`: YAML map keys must be unique` : 'duplicate key: YAML map keys must be unique',
        hint: 'keep one of the two entries',
      };
    }
    case 'TAB_AS_INDENT':
      return { message: 'YAML syntax error: tabs are not allowed as indentation', hint: 'indent with spaces' };
    case 'MISSING_CHAR':
      if (/comments must be separated/i.test(raw)) {
        return { message: `YAML syntax error: ${lowerFirst(raw)}`, hint: 'put a space before `#` (a comment starts at a `#` after a space), or quote the whole value if the `#` belongs to it' };
      }
      return { message: `YAML syntax error: ${lowerFirst(raw)}`, hint: 'close the quote (or drop it: most values need no quotes)' };
    case 'MULTIPLE_DOCS':
      return { message: 'a scenario file holds one YAML document, but this one has several (`---`)', hint: 'put each scenario in its own file' };
    case 'BAD_INDENT':
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return { message: `YAML syntax error: ${lowerFirst(raw)}`, hint: 'check the indentation: keys of one map line up in the same column' };
    default:
      // The depth check above should have caught it; a form it missed still gets the limit's words.
      if (/call stack/i.test(raw)) return DEPTH_PROBLEM;
      return { message: `YAML syntax error: ${lowerFirst(raw)}` };
  }
}

function firstLine(s: string): string {
  return (s.split('\n')[0] ?? s).replace(/\s+at line \d+, column \d+:?$/, '').trim();
}

function lowerFirst(s: string): string {
  return s.length > 0 ? s[0]!.toLowerCase() + s.slice(1) : s;
}

/** The key text that starts at `offset` (up to its colon), for the duplicate-key message. */
function keyAt(text: string, offset: number): string | undefined {
  const m = /^["']?([^"':\n]+)["']?\s*:/.exec(text.slice(offset, offset + 200));
  return m?.[1]?.trim();
}
