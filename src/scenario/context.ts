/**
 * The loader's working state: the file text, its line counter and the diagnostics collected so
 * far, plus small helpers to read YAML nodes with positions.
 */
import { isAlias, isMap, isScalar, isSeq, Scalar, visit } from 'yaml';
import type { Alias, Document, LineCounter, Node, Pair, YAMLMap } from 'yaml';
import { suggestionHint } from './did-you-mean.js';
import type { Diagnostic, FilePos } from './types.js';
import { printable } from '../values/printable.js';

export interface LoadContext {
  readonly file: string;
  readonly text: string;
  readonly lineCounter: LineCounter;
  readonly doc: Document;
  readonly diagnostics: Diagnostic[];
  /** Called once per event read (for progress on a long load). */
  readonly onEvent?: () => void;
  /** A streaming load's LoadOptions.dataHead: bytes read of each big JSON Lines data file. */
  readonly dataHead?: number;
}

/** Anything a diagnostic can point at: a node, a file position, or a text offset. */
export type Where = Node | FilePos | number | null | undefined;

export function posOfOffset(ctx: LoadContext, offset: number): FilePos {
  const { line, col } = ctx.lineCounter.linePos(offset);
  return { line, col };
}

export function posOf(ctx: LoadContext, where: Where): FilePos {
  if (where === null || where === undefined) return { line: 1, col: 1 };
  if (typeof where === 'number') return posOfOffset(ctx, where);
  if ('line' in where && 'col' in where) return where;
  const range = (where as Node).range;
  return range ? posOfOffset(ctx, range[0]) : { line: 1, col: 1 };
}

export function report(ctx: LoadContext, where: Where, message: string, hint?: string): void {
  const { line, col } = posOf(ctx, where);
  ctx.diagnostics.push(hint === undefined ? { file: ctx.file, line, col, message } : { file: ctx.file, line, col, message, hint });
}

/** Aliases (`*name`) are read as the node they refer to. */
export function deref(ctx: LoadContext, node: unknown): Node | null {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return aliasTargets(ctx.doc).get(node) ?? null;
  return node as Node;
}

const targetsByDoc = new WeakMap<Document, Map<Alias, Node>>();

/**
 * Every alias's target, found in one walk of the document. `Alias.resolve` walks the whole
 * document on each call, so a list of 10,000 `*e` took seconds; this keeps loading linear. As
 * in YAML (and `resolve`), an alias names the latest node before it with that anchor.
 */
function aliasTargets(doc: Document): Map<Alias, Node> {
  const known = targetsByDoc.get(doc);
  if (known !== undefined) return known;
  const targets = new Map<Alias, Node>();
  const latest = new Map<string, Node>();
  visit(doc, {
    Node(_key, n) {
      if (isAlias(n)) {
        const target = latest.get(n.source);
        if (target !== undefined) targets.set(n, target);
      } else if (n.anchor !== undefined) {
        latest.set(n.anchor, n);
      }
    },
  });
  targetsByDoc.set(doc, targets);
  return targets;
}

/** A map entry with its key text and nodes. */
export interface Entry {
  readonly key: string;
  readonly keyNode: Node;
  readonly value: Node | null;
  /** Where a problem with the value points: the value node, or the key when the value is empty. */
  readonly valueWhere: Node;
}

/** The entries of a map, in file order; non-scalar keys are reported and skipped. */
export function entries(ctx: LoadContext, map: YAMLMap): Entry[] {
  const out: Entry[] = [];
  for (const pair of map.items as Pair<unknown, unknown>[]) {
    const keyNode = deref(ctx, pair.key);
    if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object') {
      report(ctx, keyNode ?? map, 'a key must be a plain word such as `name` or `events`');
      continue;
    }
    const value = deref(ctx, pair.value);
    // An empty value (`key:` and nothing) has no text of its own to point at: use the key.
    const valueWhere = value !== null && value.range && value.range[1] > value.range[0] ? value : keyNode;
    out.push({ key: String(keyNode.value), keyNode, value, valueWhere });
  }
  return out;
}

/** Reports each key not in `allowed` at the key, with a did-you-mean hint; returns the known ones. */
export function knownEntries(ctx: LoadContext, list: readonly Entry[], allowed: readonly string[], what: string): Entry[] {
  return list.filter((e) => {
    if (allowed.includes(e.key)) return true;
    report(ctx, e.keyNode, `unknown ${what} key \`${printable(e.key)}\``, suggestionHint(e.key, allowed, `${what} keys are`, `${what} takes no keys`));
    return false;
  });
}

export function describeNode(node: Node | null): string {
  if (node === null) return 'nothing';
  if (isMap(node)) return 'a map';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const v = node.value;
    if (v === null) return 'nothing (null)';
    if (typeof v === 'number') return `the number ${scalarSource(node)}`;
    if (typeof v === 'boolean') return `the boolean ${String(v)}`;
    return `"${String(v)}"`;
  }
  return 'an unsupported YAML node';
}

/** The scalar as written (`1.10`, `2.0`), for plain scalars; the decoded value for quoted ones. */
export function scalarSource(node: Scalar): string {
  if (node.type === Scalar.PLAIN && typeof node.source === 'string') return node.source;
  return String(node.value);
}

export function isQuoted(node: Scalar): boolean {
  return node.type !== Scalar.PLAIN;
}

/** A string value, or a report at the node and undefined. Plain numbers and booleans are not strings here. */
export function readString(ctx: LoadContext, e: Entry, what: string): string | undefined {
  const v = e.value;
  if (isScalar(v) && typeof v.value === 'string') return v.value;
  report(ctx, e.valueWhere, `${what} must be a string, not ${describeNode(v)}`);
  return undefined;
}

/** A string-ish scalar: strings, and numbers / booleans by their source text (`2.3`, `0`). */
export function readScalarText(node: Node | null): string | undefined {
  if (!isScalar(node) || node.value === null || typeof node.value === 'object') return undefined;
  return typeof node.value === 'string' ? node.value : scalarSource(node);
}
