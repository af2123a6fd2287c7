/**
 * The `events:` list (spec §4): each item's kind from its keys, the keys each kind allows, and
 * the processing clock, which `at` and `advance` move and which never goes back.
 */
import { isMap, isScalar, isSeq } from 'yaml';
import type { YAMLMap } from 'yaml';
import { parseTimeLiteral } from '../values/time.js';
import { clockText } from './clock-text.js';
import { inTimeRange, outOfRangeMessage, TIME_RANGE_HINT } from './time-range.js';
import { deref, describeNode, entries, posOf, readScalarText, report } from './context.js';
import type { Entry, LoadContext } from './context.js';
import { didYouMean, suggestionHint } from './did-you-mean.js';
import { readDuration } from './duration.js';
import type { EventEnv } from './event-env.js';
import { readRowEvent, readTableEvent, timeInput } from './event-kinds.js';
import { NotStreamed } from './not-streamed.js';
import { readReplay, streamReplay } from './replay.js';
import type { Body } from './event-kinds.js';
import type { FilePos, ScenarioEvent } from './types.js';
import { valueSizeProblem } from './limits.js';

type Kind = ScenarioEvent['kind'];

/** The key that names each kind (a row is `to` + `row`; `note` alone is a note). */
export const KIND_KEYS: readonly (readonly [string, Kind])[] = [
  ['row', 'row'],
  ['watermark', 'watermark'],
  ['idle', 'idle'],
  ['active', 'active'],
  ['advance', 'advance'],
];

export const ALLOWED: Readonly<Record<Kind, readonly string[]>> = {
  row: ['to', 'row', 'op', 'partition', 'at', 'note', 'ask', 'hint'],
  watermark: ['watermark', 'to', 'partition', 'at', 'note', 'ask', 'hint'],
  idle: ['idle', 'partition', 'at', 'note', 'ask', 'hint'],
  active: ['active', 'partition', 'at', 'note', 'ask', 'hint'],
  advance: ['advance', 'at', 'note', 'ask', 'hint'],
  note: ['note', 'at'],
};

const ALL_KEYS = [...new Set(Object.values(ALLOWED).flat())];

export interface Clock {
  now: number;
  /** True until something sets the clock: the first event's `at` may start it anywhere (spec §3). */
  fresh: boolean;
}

export function newClock(env: EventEnv): Clock {
  return { now: env.dateMs, fresh: true };
}

export function readEvents(ctx: LoadContext, e: Entry, env: EventEnv): ScenarioEvent[] | undefined {
  if (isScalar(e.value) && e.value.value === null) {
    report(ctx, e.valueWhere, 'events must be a list (write `events: []` for none)');
    return undefined;
  }
  if (!isSeq(e.value)) {
    report(ctx, e.valueWhere, `events must be a list of events, not ${describeNode(e.value)}`, 'each item starts with `- `, e.g. `- { to: orders, row: { id: 1 } }`');
    return undefined;
  }
  const clock = newClock(env);
  const out: ScenarioEvent[] = [];
  let ok = true;
  for (const raw of e.value.items) {
    const item = deref(ctx, raw);
    if (!isMap(item)) {
      report(ctx, item ?? e.value, `each event must be a map such as \`{ to: orders, row: {...} }\`, not ${describeNode(item)}`);
      ok = false;
      continue;
    }
    if (isReplay(item)) {
      const replayed = readReplay(ctx, env, item, clock);
      if (replayed === undefined) ok = false;
      else if (ok) for (const ev of replayed) out.push(ev);
      continue;
    }
    ctx.onEvent?.();
    const ev = readEvent(ctx, env, item, clock);
    if (ev === undefined) ok = false;
    else out.push(ev);
    clock.fresh = false;
  }
  return ok ? out : undefined;
}

/**
 * readEvents's list as it is pulled (load.ts, streamScenarioText): the same checks in the same
 * order, with replays streamed; any problem throws NotStreamed instead of being collected.
 */
export function* streamEvents(ctx: LoadContext, e: Entry, env: EventEnv): Generator<ScenarioEvent, void> {
  if (!isSeq(e.value)) throw new NotStreamed('events is not a list');
  const clock = newClock(env);
  for (const raw of e.value.items) {
    const item = deref(ctx, raw);
    if (!isMap(item)) throw new NotStreamed('an event is not a map');
    if (isReplay(item)) {
      yield* streamReplay(ctx, env, item, clock);
      continue;
    }
    ctx.onEvent?.();
    const ev = readEvent(ctx, env, item, clock);
    if (ev === undefined) throw new NotStreamed('an event has a problem');
    clock.fresh = false;
    yield ev;
  }
}

/** A `replay:` entry (replay.ts) stands for the events of its data files. */
export function isReplay(map: YAMLMap): boolean {
  return map.items.some((p) => isScalar(p.key) && p.key.value === 'replay');
}

export function readEvent(ctx: LoadContext, env: EventEnv, map: YAMLMap, clock: Clock): ScenarioEvent | undefined {
  const pos = posOf(ctx, map);
  const list = entries(ctx, map);
  const keys = new Map(list.map((x) => [x.key, x]));
  const kind = kindOf(ctx, map, list);
  if (kind === undefined) return undefined;
  let ok = checkKeys(ctx, list, kind);
  const base: { at?: number; note?: string; ask?: boolean | string; hint?: string; pos: FilePos } = { pos };
  const at = keys.get('at');
  if (at !== undefined) {
    const ms = readAt(ctx, env, at, clock);
    if (ms === undefined) ok = false;
    else base.at = ms;
  }
  const note = keys.get('note');
  if (note !== undefined) {
    // Narration: any scalar, taken as written (`note: 42` is fine).
    const text = readScalarText(note.value);
    const tooLong = text === undefined ? undefined : valueSizeProblem(text.length);
    if (text === undefined) report(ctx, note.valueWhere, `note must be a line of text, not ${describeNode(note.value)}`);
    else if (tooLong !== undefined) report(ctx, note.valueWhere, `note: ${tooLong.message}`, tooLong.hint);
    if (text === undefined || tooLong !== undefined) ok = false;
    else base.note = text;
  }
  if (!readPractice(ctx, keys, base)) ok = false;
  const body = readBody(ctx, env, kind, keys, clock);
  return ok && body !== undefined ? ({ ...base, ...body } as ScenarioEvent) : undefined;
}

/**
 * Practice-mode marks: `ask:` (true, false, or the question's text) and `hint:` (text shown with
 * the question). A hint on an event that is never asked would never be seen: that is an error.
 */
function readPractice(ctx: LoadContext, keys: ReadonlyMap<string, Entry>, base: { ask?: boolean | string; hint?: string }): boolean {
  let ok = true;
  const ask = keys.get('ask');
  if (ask !== undefined) {
    const node = ask.value;
    if (isScalar(node) && typeof node.value === 'boolean') base.ask = node.value;
    else if (isScalar(node) && typeof node.value === 'string' && node.value.trim() !== '') base.ask = node.value.trim();
    else {
      report(ctx, ask.valueWhere, `ask must be true, false or the question's text, not ${describeNode(node)}`, 'e.g. `ask: true` or `ask: "What does the join emit now?"`');
      ok = false;
    }
  }
  const hint = keys.get('hint');
  if (hint !== undefined) {
    const node = hint.value;
    const text = isScalar(node) && typeof node.value === 'string' ? node.value.trim() : undefined;
    if (text === undefined || text === '') {
      report(ctx, hint.valueWhere, `hint must be a line of text, not ${describeNode(node)}`, 'e.g. `hint: "Which watermark does the join use?"`');
      ok = false;
    } else if (base.ask === false) {
      report(ctx, hint.keyNode, 'this hint is never shown: the event has `ask: false`', 'remove the hint, or ask the question (`ask: true`)');
      ok = false;
    } else base.hint = text;
  }
  return ok;
}

/** The kind from the keys present; reports a map with no kind key or with two. */
function kindOf(ctx: LoadContext, map: YAMLMap, list: readonly Entry[]): Kind | undefined {
  const found = KIND_KEYS.filter(([k]) => list.some((x) => x.key === k));
  if (found.length > 1) {
    const second = list.find((x) => x.key === found[1]![0])!;
    report(ctx, second.keyNode, `an event has one kind, but this one has both \`${found[0]![0]}\` and \`${found[1]![0]}\``, 'split it into two events');
    return undefined;
  }
  if (found.length === 1) return found[0]![1];
  const unknown = list.find((x) => !ALL_KEYS.includes(x.key));
  if (unknown === undefined && list.some((x) => x.key === 'note')) return 'note';
  if (unknown === undefined && list.some((x) => x.key === 'to')) {
    report(ctx, map, 'this row event has `to:` but no `row:`', 'add `row: { column: value, ... }`');
    return undefined;
  }
  const guess = unknown ? didYouMean(unknown.key, ALL_KEYS) : undefined;
  report(
    ctx,
    unknown?.keyNode ?? map,
    unknown ? `unknown event key \`${unknown.key}\`` : 'this event has no kind',
    guess !== undefined ? `did you mean \`${guess}\`?` : 'an event is a row (`to` + `row`), `watermark`, `idle`, `active`, `advance` or `note`',
  );
  return undefined;
}

function checkKeys(ctx: LoadContext, list: readonly Entry[], kind: Kind): boolean {
  let ok = true;
  for (const x of list) {
    if (ALLOWED[kind].includes(x.key)) continue;
    ok = false;
    if (ALL_KEYS.includes(x.key)) {
      report(ctx, x.keyNode, `\`${x.key}\` does not apply to a ${kind} event`, `a ${kind} event takes ${ALLOWED[kind].map((k) => `\`${k}\``).join(', ')}`);
    } else {
      report(ctx, x.keyNode, `unknown event key \`${x.key}\``, suggestionHint(x.key, ALLOWED[kind], `a ${kind} event takes`, `a ${kind} event takes no other keys`));
    }
  }
  return ok;
}

function readAt(ctx: LoadContext, env: EventEnv, e: Entry, clock: Clock): number | undefined {
  const t = timeInput(e.value);
  const r = t === undefined ? undefined : parseTimeLiteral(t, env.valueCtx);
  if (r === undefined || !r.ok) {
    report(ctx, e.valueWhere, `at: ${r?.message ?? `expected a time such as "09:30", not ${describeNode(e.value)}`}`, r?.hint ?? 'e.g. `at: "09:30"`');
    return undefined;
  }
  if (!inTimeRange(r.ms)) {
    report(ctx, e.valueWhere, outOfRangeMessage('at', r.ms), TIME_RANGE_HINT);
    return undefined;
  }
  if (r.ms < clock.now && !clock.fresh) {
    report(
      ctx,
      e.valueWhere,
      `processing time cannot go back from ${clockText(clock.now, env.dateMs)} to ${clockText(r.ms, env.dateMs)}`,
      '`at` moves the processing clock forward only; use a time at or after the current one',
    );
    return undefined;
  }
  clock.now = r.ms;
  return r.ms;
}


function readBody(ctx: LoadContext, env: EventEnv, kind: Kind, keys: ReadonlyMap<string, Entry>, clock: Clock): Body | undefined {
  switch (kind) {
    case 'note':
      return { kind };
    case 'advance': {
      const e = keys.get('advance')!;
      const r = readDuration(e.value);
      if (!r.ok || r.ms <= 0) {
        const message = r.ok ? `advance must be a positive duration, not ${describeNode(e.value)}` : `advance: ${r.message}`;
        report(ctx, e.valueWhere, message, r.ok ? 'e.g. `advance: 5 s`' : r.hint);
        return undefined;
      }
      if (!inTimeRange(clock.now + r.ms)) {
        report(ctx, e.valueWhere, `advance: moving the processing time by ${r.ms} ms takes it past the year 9999`, TIME_RANGE_HINT);
        return undefined;
      }
      clock.now += r.ms;
      return { kind, ms: r.ms };
    }
    case 'row':
      return readRowEvent(ctx, env, keys);
    default:
      return readTableEvent(ctx, env, kind, keys);
  }
}
