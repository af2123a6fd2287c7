/**
 * Comment-preserving what-if edits of a scenario file's `events:` list, for the app: insert,
 * delete, move or duplicate one event and get the new file text back.
 *
 * Re-stringifying a YAML document reformats it, so the file is never re-serialized: the yaml
 * Document API locates the events (node ranges) and renders a new event, and the edit splices
 * text. Everything outside the edited events stays byte-identical. An event "owns" its own lines
 * plus the comment lines directly above it at its indentation, so a comment travels with its event
 * when it moves and goes with it when it is deleted.
 */
import { isMap, isSeq, parseDocument } from 'yaml';
import type { Node, YAMLMap, YAMLSeq } from 'yaml';
import { renderEvent } from './edit-render.js';
import type { EventObject } from './edit-render.js';
import { blockItems, flowItems } from './edit-layout.js';
import type { BlockItem, FlowItem } from './edit-layout.js';

export { ExactNumber } from './edit-render.js';
export type { EventObject, EventValue } from './edit-render.js';
export { saveScenarioFile } from './save-file.js';

export type EventEdit =
  | { readonly kind: 'insert'; readonly index: number; readonly event: EventObject }
  | { readonly kind: 'delete'; readonly index: number }
  | { readonly kind: 'move'; readonly index: number; readonly direction: 'earlier' | 'later' }
  | { readonly kind: 'duplicate'; readonly index: number };

/** The new text, and where the edited event now is (the deleted index's successor for a delete). */
export type EditResult = { readonly ok: true; readonly text: string; readonly index: number } | { readonly ok: false; readonly message: string };

export function editScenarioText(text: string, edit: EventEdit): EditResult {
  // A file written with CRLF line ends throughout (Windows) keeps them: the edit works on LF
  // lines and the new lines get the file's CRLF, rather than one LF line among CRLF ones.
  if (text.includes('\r\n') && !/(^|[^\r])\n/.test(text)) {
    const r = editLfText(text.replace(/\r\n/g, '\n'), edit);
    return r.ok ? { ...r, text: r.text.replace(/\n/g, '\r\n') } : r;
  }
  return editLfText(text, edit);
}

function editLfText(text: string, edit: EventEdit): EditResult {
  // Work on a text that ends with a line break, so the last event is a whole line like the others.
  const added = text.endsWith('\n') ? '' : '\n';
  const found = findEvents(text + added);
  if (!found.ok) return found;
  const count = found.seq.items.length;
  const bad = checkIndex(edit, count);
  if (bad !== undefined) return { ok: false, message: bad };
  let out: { text: string; index: number };
  try {
    out = found.seq.flow ? editFlow(text + added, found.seq, found.key, edit) : editBlock(text + added, found.seq, edit);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const result = added === '' ? out.text : out.text.replace(/\n$/, '');
  return verify(result, count + (edit.kind === 'insert' || edit.kind === 'duplicate' ? 1 : edit.kind === 'delete' ? -1 : 0), out.index);
}

function findEvents(text: string): { ok: true; seq: YAMLSeq; key: Node } | { ok: false; message: string } {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { ok: false, message: `the file is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}` };
  const root = doc.contents;
  if (!isMap(root)) return { ok: false, message: 'the file is not a YAML map' };
  const pair = (root as YAMLMap).items.find((p) => (p.key as { value?: unknown } | null)?.value === 'events');
  const seq = pair?.value;
  if (pair === undefined || !isSeq(seq)) return { ok: false, message: 'the file has no `events:` list' };
  if (seq.items.some((item) => !isMap(item) || !(item as Node).range)) return { ok: false, message: 'every event must be a map to edit the list' };
  return { ok: true, seq, key: pair.key as Node };
}

function checkIndex(edit: EventEdit, count: number): string | undefined {
  const max = edit.kind === 'insert' ? count : count - 1;
  if (!Number.isInteger(edit.index) || edit.index < 0 || edit.index > max) {
    return `event index ${edit.index} is out of range (${edit.kind === 'insert' ? `0 to ${count}` : count === 0 ? 'there are no events' : `0 to ${count - 1}`})`;
  }
  if (edit.kind === 'move' && (edit.direction === 'earlier' ? edit.index === 0 : edit.index === count - 1)) {
    return `event ${edit.index} is already the ${edit.direction === 'earlier' ? 'first' : 'last'}`;
  }
  if (edit.kind === 'insert' && (typeof edit.event !== 'object' || edit.event === null || Object.keys(edit.event).length === 0)) {
    return 'the new event must be a map such as { to: orders, row: {...} }';
  }
  return undefined;
}

function editBlock(text: string, seq: YAMLSeq, edit: EventEdit): { text: string; index: number } {
  const items = blockItems(text, seq);
  const i = edit.index;
  switch (edit.kind) {
    case 'delete':
      return { text: cut(text, items[i]!.start, items[i]!.end, ''), index: i };
    case 'duplicate':
      return { text: cut(text, items[i]!.end, items[i]!.end, text.slice(items[i]!.own, items[i]!.end)), index: i + 1 };
    case 'insert': {
      // Right after the event before it (a comment above the next event stays with that event).
      const neighbour = items[i - 1] ?? items[i]!;
      const at = i > 0 ? items[i - 1]!.end : items[0]!.start;
      return { text: cut(text, at, at, blockLines(edit.event, neighbour)), index: i };
    }
    case 'move': {
      const [a, b] = edit.direction === 'earlier' ? [items[i - 1]!, items[i]!] : [items[i]!, items[i + 1]!];
      const swapped = text.slice(b.start, b.end) + text.slice(a.end, b.start) + text.slice(a.start, a.end);
      return { text: cut(text, a.start, b.end, swapped), index: edit.direction === 'earlier' ? i - 1 : i + 1 };
    }
  }
}

/** A new block item: `- ` at the neighbour's indentation, continuation lines under its first key. */
function blockLines(event: EventObject, neighbour: BlockItem): string {
  const lines = renderEvent(event, { flow: neighbour.flow }).split('\n');
  const pad = ' '.repeat(neighbour.keyColumn);
  return lines.map((l, k) => (k === 0 ? `${' '.repeat(neighbour.dashColumn)}-${' '.repeat(neighbour.keyColumn - neighbour.dashColumn - 1)}${l}` : `${pad}${l}`)).join('\n') + '\n';
}

function editFlow(text: string, seq: YAMLSeq, key: Node, edit: EventEdit): { text: string; index: number } {
  const items = flowItems(seq);
  const i = edit.index;
  const one = (e: EventObject): string => renderEvent(e, { flow: true });
  if (items.length === 0) {
    // `events: []` becomes a block list, the usual layout, with the new event as a flow map.
    if (edit.kind !== 'insert') throw new Error('there are no events');
    return { text: emptyToBlock(text, seq, key, one(edit.event)), index: 0 };
  }
  switch (edit.kind) {
    case 'delete': {
      if (items.length === 1) return { text: cut(text, items[0]!.start, items[0]!.end, ''), index: 0 };
      const [from, to] = i < items.length - 1 ? [items[i]!.start, items[i + 1]!.start] : [items[i - 1]!.end, items[i]!.end];
      return { text: cut(text, from, to, ''), index: i };
    }
    case 'duplicate':
      return { text: cut(text, items[i]!.end, items[i]!.end, `, ${text.slice(items[i]!.start, items[i]!.end)}`), index: i + 1 };
    case 'insert':
      return i < items.length
        ? { text: cut(text, items[i]!.start, items[i]!.start, `${one(edit.event)}, `), index: i }
        : { text: cut(text, items[i - 1]!.end, items[i - 1]!.end, `, ${one(edit.event)}`), index: i };
    case 'move': {
      const [a, b]: [FlowItem, FlowItem] = edit.direction === 'earlier' ? [items[i - 1]!, items[i]!] : [items[i]!, items[i + 1]!];
      const swapped = text.slice(b.start, b.end) + text.slice(a.end, b.start) + text.slice(a.start, a.end);
      return { text: cut(text, a.start, b.end, swapped), index: edit.direction === 'earlier' ? i - 1 : i + 1 };
    }
  }
}

function emptyToBlock(text: string, seq: YAMLSeq, key: Node, item: string): string {
  const [start, end] = seq.range!;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const keyColumn = key.range![0] - text.lastIndexOf('\n', key.range![0] - 1) - 1;
  let from = start;
  while (from > lineStart && text[from - 1] === ' ') from--;
  const lineEnd = text.indexOf('\n', end);
  const rest = text.slice(end, lineEnd);
  return text.slice(0, from) + rest + `\n${' '.repeat(keyColumn + 2)}- ${item}` + text.slice(lineEnd);
}

function cut(text: string, from: number, to: number, insert: string): string {
  return text.slice(0, from) + insert + text.slice(to);
}

/** The result must still be YAML with the expected number of events: never hand back a broken file. */
function verify(text: string, expected: number, index: number): EditResult {
  const found = findEvents(text.endsWith('\n') ? text : `${text}\n`);
  if (!found.ok) return { ok: false, message: `internal: the edit would break the file (${found.message})` };
  if (found.seq.items.length !== expected) return { ok: false, message: `internal: the edit would leave ${found.seq.items.length} events, not ${expected}` };
  return { ok: true, text, index };
}
