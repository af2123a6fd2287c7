/**
 * The fast path for big arrival scripts: an `events:` block whose items are all one-line flow
 * maps (`- { to: orders, row: { id: o1, amount: 10 } }`) is cut out of the text before YAML
 * parsing, and each line is read on its own: the commonest row line straight from the text
 * (flow-row.ts), any other into light nodes (flow-line.ts). A valid row event goes straight to
 * a ScenarioEvent (fast-row.ts); any other event, and any event with a mistake, goes through
 * the general checks (events.ts) on YAML nodes made for that line alone, so results and
 * diagnostics are those of the general path. The YAML library's document of such a file (every
 * token and node of every event, kept until the load ends) cost about 12 KB per event: 1.2 GB
 * for 100,000 events; here memory grows only with the loaded events.
 *
 * A line outside flow-line.ts's subset makes the whole file take the general path, so every
 * YAML syntax error is still reported by the YAML parser, as before.
 */
import type { YAMLMap } from 'yaml';
import type { LoadContext } from './context.js';
import type { EventEnv } from './event-env.js';
import { newClock, readEvent } from './events.js';
import { FastRows } from './fast-row.js';
import { FlowRowReader } from './flow-row.js';
import { readFlowLine, toYamlNode } from './flow-line.js';
import { NotStreamed } from './not-streamed.js';
import { readReplay, streamReplay } from './replay.js';
import type { ScenarioEvent } from './types.js';

/** The events block cut out of a scenario text. */
export interface EventsBlock {
  /** The text with the block replaced by `events: []` on one line. */
  readonly reduced: string;
  /** Offset of the `events:` key (in both texts). */
  readonly keyOffset: number;
  /** Offset in `reduced` from which offsets map to `shift` more in the original text. */
  readonly suffixStart: number;
  readonly shift: number;
  /** Per item: the offset of its `{` in the original text, and its 1-based line and column. */
  readonly offsets: readonly number[];
  readonly lines: readonly number[];
  readonly cols: readonly number[];
}

const EVENTS_LINE = /^events:[ ]*(?:#.*)?$/gm;

/**
 * The block, when the file has one top-level `events:` key followed by one-line flow-map items
 * only (blank and comment lines allowed between them); undefined means: take the general path.
 */
export function cutEventsBlock(text: string): EventsBlock | undefined {
  if (text.includes('\r') || text.includes('\t')) return undefined;
  const found = [...text.matchAll(EVENTS_LINE)];
  if (found.length !== 1) return undefined;
  const keyOffset = found[0]!.index;
  let line = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < keyOffset; k = text.indexOf('\n', k + 1)) line++;
  let at = text.indexOf('\n', keyOffset);
  if (at < 0) return undefined;
  at++;
  line++;
  const offsets: number[] = [];
  const lines: number[] = [];
  const cols: number[] = [];
  let indent = -1;
  let end = text.length;
  while (at < text.length) {
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    let i = at;
    while (i < lineEnd && text.charCodeAt(i) === 32) i++;
    const c = text.charCodeAt(i);
    if (i === lineEnd || c === 35 /* # */) {
      at = lineEnd + 1;
      line++;
      continue;
    }
    const col = i - at;
    const isItem = c === 45 /* - */ && text.charCodeAt(i + 1) === 32;
    if (col === 0 && !(isItem && indent === 0)) {
      end = at;
      break;
    }
    if (!isItem) return undefined;
    if (indent === -1) indent = col;
    else if (col !== indent) return undefined;
    let j = i + 2;
    while (text.charCodeAt(j) === 32) j++;
    if (text.charCodeAt(j) !== 123 /* { */) return undefined;
    offsets.push(j);
    lines.push(line);
    cols.push(j - at + 1);
    at = lineEnd + 1;
    line++;
  }
  if (offsets.length === 0) return undefined;
  const head = text.slice(0, keyOffset) + 'events: []\n';
  // Keep the last line break of the block when the text goes on after it.
  const tail = end < text.length ? text.slice(end) : '';
  return { reduced: head + tail, keyOffset, suffixStart: head.length, shift: end - head.length, offsets, lines, cols };
}

/** A line outside flow-line.ts's subset: the file takes the general path. */
export const NOT_FAST = Symbol('not-fast');

/**
 * Reads every item; diagnostics go to `ctx`, whose text and line counter are the original
 * text's. NOT_FAST when a line is outside the accepted subset.
 */
export function readFastEvents(ctx: LoadContext, block: EventsBlock, env: EventEnv): ScenarioEvent[] | undefined | typeof NOT_FAST {
  const rows = new FastRows(ctx, env);
  const clock = newClock(env);
  const out: ScenarioEvent[] = [];
  const direct = new FlowRowReader(rows);
  let ok = true;
  for (let k = 0; k < block.offsets.length; k++) {
    const pos = { line: block.lines[k]!, col: block.cols[k]! };
    const row = direct.read(ctx.text, block.offsets[k]!, pos);
    if (row !== undefined) {
      ctx.onEvent?.();
      if (ok) out.push(row);
      clock.fresh = false;
      continue;
    }
    const light = readFlowLine(ctx.text, block.offsets[k]!);
    if (light === undefined) return NOT_FAST;
    if (light.keys.some((key) => key.value === 'replay')) {
      const replayed = readReplay(ctx, env, toYamlNode(light) as YAMLMap, clock);
      if (replayed === undefined) ok = false;
      else if (ok) for (const ev of replayed) out.push(ev);
      continue;
    }
    ctx.onEvent?.();
    const ev = rows.event(light, pos) ?? readEvent(ctx, env, toYamlNode(light) as YAMLMap, clock);
    if (ev === undefined) ok = false;
    else if (ok) out.push(ev);
    clock.fresh = false;
  }
  return ok ? out : undefined;
}

/**
 * readFastEvents's events as they are pulled (load.ts, streamScenarioText); a line outside the
 * subset, or any problem, throws NotStreamed.
 */
export function* streamFastEvents(ctx: LoadContext, block: EventsBlock, env: EventEnv): Generator<ScenarioEvent, void> {
  const rows = new FastRows(ctx, env);
  const direct = new FlowRowReader(rows);
  const clock = newClock(env);
  for (let k = 0; k < block.offsets.length; k++) {
    const pos = { line: block.lines[k]!, col: block.cols[k]! };
    const row = direct.read(ctx.text, block.offsets[k]!, pos);
    if (row !== undefined) {
      ctx.onEvent?.();
      clock.fresh = false;
      yield row;
      continue;
    }
    const light = readFlowLine(ctx.text, block.offsets[k]!);
    if (light === undefined) throw new NotStreamed('a line outside the fast reader');
    if (light.keys.some((key) => key.value === 'replay')) {
      yield* streamReplay(ctx, env, toYamlNode(light) as YAMLMap, clock);
      continue;
    }
    ctx.onEvent?.();
    const ev = rows.event(light, pos) ?? readEvent(ctx, env, toYamlNode(light) as YAMLMap, clock);
    if (ev === undefined) throw new NotStreamed('an event has a problem');
    clock.fresh = false;
    yield ev;
  }
}
