/**
 * The reducer's input modes: typed prompts (go to step, search, durations, watermark times) and
 * the partition picker, and the manual actions they end in. Each manual action is an event
 * inserted after the current step (`timeline.insert`), so it becomes a step of the run.
 */
import type { ScenarioEvent } from '../scenario/types.js';
import { parseDuration, parseTimeLiteral } from '../values/time.js';
import { goStep, goStepOrSay } from './navigate.js';
import { followView, MANUAL_POS } from './session.js';
import type { Mode, Target, UiState } from './state.js';
import { stepView } from './step-view.js';
import { emittedText, eventText } from './text.js';

export interface PickTarget extends Target {
  readonly idle: boolean;
}

/** Every source partition at the current step, as the watermark view lists them. */
export function pickTargets(s: UiState): PickTarget[] {
  const wm = stepView(s.session.timeline, s.step).watermarks;
  return wm.tables.flatMap((t) => t.partitions.map((p) => ({ table: t.table, partition: p.partition, idle: p.idle })));
}

type PromptMode = Extract<Mode, { k: 'prompt' }>;
type PickMode = Extract<Mode, { k: 'pick' }>;

const NORMAL = { k: 'normal' } as const;

export function onPromptKey(s: UiState, mode: PromptMode, key: string): UiState {
  if (key === 'esc' || key === 'ctrl-c') return { ...s, mode: NORMAL };
  if (key === 'enter') return submit({ ...s, mode: NORMAL }, mode);
  if (key === 'backspace') return { ...s, mode: { ...mode, text: mode.text.slice(0, -1) } };
  const ch = key === 'space' ? ' ' : key;
  // Only printable single characters are typed; named keys (arrows, tab) are ignored here.
  if ([...ch].length !== 1 || ch < ' ') return s;
  return { ...s, mode: { ...mode, text: mode.text + ch } };
}

export function onPickKey(s: UiState, mode: PickMode, key: string): UiState {
  const targets = pickTargets(s);
  if (key === 'esc' || key === 'ctrl-c') return { ...s, mode: NORMAL };
  if (key === 'up' || key === 'left' || key === 'shift-tab') {
    return { ...s, mode: { ...mode, index: (mode.index + targets.length - 1) % targets.length } };
  }
  if (key === 'down' || key === 'right' || key === 'tab') return { ...s, mode: { ...mode, index: (mode.index + 1) % targets.length } };
  if (key !== 'enter') return s;
  const t = targets[mode.index];
  if (t === undefined) return { ...s, mode: NORMAL };
  const target = { table: t.table, partition: t.partition };
  if (mode.purpose === 'watermark') return { ...s, mode: { k: 'prompt', purpose: 'wmTime', text: '', target } };
  const ev: ScenarioEvent = { kind: t.idle ? 'active' : 'idle', ...target, pos: MANUAL_POS };
  return insertManual({ ...s, mode: NORMAL }, ev);
}

function submit(s: UiState, mode: PromptMode): UiState {
  const text = mode.text.trim();
  const info = s.session.info;
  switch (mode.purpose) {
    case 'goto': {
      if (!/^\d+$/.test(text)) return { ...s, message: `"${text}" is not a step number (0..${s.session.timeline.length})` };
      return { ...goStepOrSay(s, Number(text)), playing: false };
    }
    case 'search':
      return search({ ...s, search: text }, text);
    case 'clock': {
      const d = parseDuration(text);
      if (!d.ok) return { ...s, message: d.message };
      if (d.ms <= 0) return { ...s, message: 'processing time only moves forward' };
      return insertManual(s, { kind: 'advance', ms: d.ms, pos: MANUAL_POS });
    }
    case 'wmTime': {
      if (mode.target === undefined) return s;
      const ltz = info.tables.find((t) => t.name === mode.target?.table)?.rowtimeLtz ?? false;
      let to: number | 'max' | 'generated';
      if (text === '' || text === 'generated') to = 'generated';
      else if (text === 'max') to = 'max';
      else {
        const r = parseTimeLiteral(text, { dateMs: info.dateMs, timeZone: info.timeZone }, ltz);
        if (!r.ok) return { ...s, message: r.message };
        to = r.ms;
      }
      return insertManual(s, { kind: 'watermark', ...mode.target, to, pos: MANUAL_POS });
    }
  }
}

/** Inserts a manual event after the current step and moves onto it. */
export function insertManual(s: UiState, ev: ScenarioEvent): UiState {
  let session;
  try {
    // Every query of a side-by-side session gets the event: they share the events.
    session = followView(s.session, s.session.follow ?? 0, (t) => t.insert(s.step, ev));
  } catch (err) {
    return { ...s, message: `cannot insert ${eventText(ev, s.session.info)}: ${err instanceof Error ? err.message : String(err)}` };
  }
  const next = { ...s, session, manual: s.manual + 1, playing: false };
  return { ...goStep(next, s.step + 1), message: `manual step ${s.step + 1}: ${eventText(ev, s.session.info)}` };
}

/** Newest-first search from just above the selection (or the newest row), wrapping around. */
function search(s: UiState, query: string): UiState {
  const tl = s.session.timeline;
  const size = tl.changelogSize(s.step);
  if (query === '') return s;
  const q = query.toLowerCase();
  const start = (s.selected ?? size) - 1;
  for (let k = 0; k < size; k++) {
    const i = (((start - k) % size) + size) % size;
    const row = tl.changelogRange(s.step, i, i + 1)[0];
    if (row !== undefined && emittedText(row, s.session.info).toLowerCase().includes(q)) {
      return { ...s, selected: i, focus: 'changelog', message: `found "${query}" at row ${i + 1}` };
    }
  }
  return { ...s, message: `"${query}" is not in the changelog up to step ${s.step}` };
}
