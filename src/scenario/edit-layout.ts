/**
 * Where each event of the `events:` list is in the file text, for the text splices of edit.ts.
 */
import { isMap } from 'yaml';
import type { Node, YAMLSeq } from 'yaml';

export interface BlockItem {
  /** Start of the event's extent: its leading comment lines, else its `- ` line. */
  readonly start: number;
  /** Start of the `- ` line. */
  readonly own: number;
  /** After the line break that ends the event's last line. */
  readonly end: number;
  readonly dashColumn: number;
  /** Column of the map's first key (`- to:` → dash column + 2). */
  readonly keyColumn: number;
  readonly flow: boolean;
}

export interface FlowItem {
  readonly start: number;
  readonly end: number;
}

/** The items of a block sequence; the text must end with a line break. */
export function blockItems(text: string, seq: YAMLSeq): BlockItem[] {
  return seq.items.map((raw, k) => {
    const node = raw as Node;
    const [nodeStart, , nodeEnd] = node.range!;
    const dash = dashBefore(text, nodeStart, k);
    const own = text.lastIndexOf('\n', dash - 1) + 1;
    const dashColumn = dash - own;
    if (text.slice(own, dash).trim() !== '') throw new Error(`event ${k} does not start its own line; only a list with one \`- \` per line can be edited`);
    const keyLineStart = text.lastIndexOf('\n', nodeStart - 1) + 1;
    // `-` alone on its line with the map below: continuation lines use the map's own column.
    const keyColumn = keyLineStart === own ? nodeStart - own : nodeStart - keyLineStart;
    return { start: commentsAbove(text, own, dashColumn), own, end: lineEnd(text, nodeEnd), dashColumn, keyColumn, flow: isMap(node) && node.flow === true };
  });
}

export function flowItems(seq: YAMLSeq): FlowItem[] {
  return seq.items.map((raw) => {
    const [start, end] = (raw as Node).range!;
    return { start, end };
  });
}

/** The `-` indicator before an item: back over blanks and line breaks from the node's start. */
function dashBefore(text: string, nodeStart: number, k: number): number {
  let p = nodeStart - 1;
  while (p >= 0 && (text[p] === ' ' || text[p] === '\n' || text[p] === '\r')) p--;
  if (text[p] !== '-') throw new Error(`event ${k} has anchors, tags or comments before it that this editor does not handle`);
  return p;
}

/**
 * The end of the node's last line, after its line break (a trailing comment stays with it). A
 * block map's range can run on over the blank lines after it; those stay where they are.
 */
function lineEnd(text: string, nodeEnd: number): number {
  let last = nodeEnd - 1;
  while (last > 0 && /\s/.test(text[last]!)) last--;
  const nl = text.indexOf('\n', last + 1);
  return nl < 0 ? text.length : nl + 1;
}

/** Comment lines directly above `lineStart` at exactly `column`: they describe the event below them. */
function commentsAbove(text: string, lineStart: number, column: number): number {
  let start = lineStart;
  while (start > 0) {
    const prevStart = text.lastIndexOf('\n', start - 2) + 1;
    const line = text.slice(prevStart, start - 1);
    const indent = line.length - line.trimStart().length;
    if (!line.trimStart().startsWith('#') || indent !== column) break;
    start = prevStart;
  }
  return start;
}
