/**
 * Typing an answer in practice mode: a row is its kind, then one value per output column, one
 * field at a time; `tab` completes the field from what it can be (the kinds; for a column, the
 * values of same-named input columns seen so far, and null). `enter` on an empty kind hands the
 * rows in; typing `nothing` there answers that the step emits nothing.
 */
import { flinkTypeName } from '../planner/type-names.js';
import { KINDS, type AnswerRow } from '../teach/practice-grade.js';
import { formatValue } from '../values/format.js';
import { formatClock } from '../values/time.js';
import type { RowKind, SqlType, Value } from '../values/types.js';
import { command } from './reducer.js';
import { submitAnswer } from './practice.js';
import type { Mode, UiState } from './state.js';

type AnswerMode = Extract<Mode, { k: 'answer' }>;

export const NOTHING = 'nothing';

/** The label of entry field `field`: the kind, or an output column with its type. */
export function fieldLabel(s: UiState, field: number): { name: string; hint: string } {
  if (field === 0) return { name: 'kind', hint: `${KINDS.join(' ')}, or ${NOTHING}` };
  const info = s.session.info;
  const type = info.outputTypes[field - 1];
  return { name: info.outputNames[field - 1] ?? `#${field}`, hint: type === undefined ? '' : flinkTypeName(type) };
}

function shortValue(type: SqlType | undefined, v: Value, dateMs: number): string {
  if (v === null) return 'null';
  if (typeof v === 'number' && (type?.kind === 'TIMESTAMP' || type?.kind === 'TIMESTAMP_LTZ')) return formatClock(v, dateMs);
  return type === undefined ? String(v) : formatValue(type, v);
}

/** What `tab` offers for a field: every candidate, in first-seen order. */
export function candidates(s: UiState, mode: AnswerMode, field: number): string[] {
  if (field === 0) return [...KINDS, NOTHING];
  const info = s.session.info;
  const name = info.outputNames[field - 1]?.toLowerCase();
  const out = new Set<string>();
  // Only input rows up to the asked step's own event: those are on screen already.
  for (const ev of s.session.timeline.events.slice(0, mode.step)) {
    if (ev.kind !== 'row') continue;
    const table = info.tables.find((t) => t.name === ev.table);
    table?.columns.forEach((c, i) => {
      if (c.name.toLowerCase() === name && ev.row[i] !== null && ev.row[i] !== undefined) out.add(shortValue(c.type, ev.row[i]!, info.dateMs));
    });
  }
  out.add('null');
  return [...out];
}

/** The next completion: the first candidate starting with the typed text, or the one after the current. */
export function complete(list: readonly string[], typed: string): string {
  const at = list.indexOf(typed);
  if (at >= 0) return list[(at + 1) % list.length] ?? typed;
  const match = list.find((c) => c.toLowerCase().startsWith(typed.toLowerCase()));
  return match ?? typed;
}

/** A whole row typed in the print form, `+I[o1, 09:30, 110]`, or undefined. */
export function parseRowText(text: string, columns: number): AnswerRow | string | undefined {
  const m = /^([+-][a-z])\s*\[(.*)\]$/i.exec(text.trim());
  if (m === null) return undefined;
  const kind = normalKind(m[1]!);
  if (kind === undefined) return `unknown row kind ${m[1]!}`;
  const values = m[2]!.trim() === '' ? [] : m[2]!.split(',').map((v) => v.trim());
  if (values.length !== columns) return `${values.length} values, but the output has ${columns} columns`;
  return { kind, values };
}

function normalKind(text: string): RowKind | undefined {
  const k = text.trim().toUpperCase();
  return (KINDS as readonly string[]).includes(k) ? (k as RowKind) : undefined;
}

export function onAnswerKey(s: UiState, mode: AnswerMode, key: string): UiState {
  const columns = s.session.info.outputNames.length;
  const set = (patch: Partial<AnswerMode>): UiState => ({ ...s, mode: { ...mode, error: undefined, ...patch } });
  const current = mode.values[mode.field] ?? '';
  const values = (v: string): string[] => mode.values.map((x, i) => (i === mode.field ? v : x));
  switch (key) {
    case 'ctrl-c':
      return command({ ...s, mode: { k: 'normal' } }, 'quit');
    case 'esc':
      return { ...s, mode: { k: 'normal' }, message: `step ${mode.step} not answered yet: n asks again` };
    case 'up':
    case 'shift-tab':
      return set({ field: Math.max(0, mode.field - 1) });
    case 'tab':
      return set({ values: values(complete(candidates(s, mode, mode.field), current)) });
    case 'backspace': {
      if (current !== '') return set({ values: values(current.slice(0, -1)) });
      if (mode.field > 0) return set({ field: mode.field - 1 });
      const last = mode.rows[mode.rows.length - 1];
      if (last === undefined) return s;
      // Back into the last row, to fix it.
      return set({ rows: mode.rows.slice(0, -1), field: columns, values: [last.kind, ...last.values] });
    }
    case 'enter':
      return enter(s, mode, set, columns);
  }
  const ch = key === 'space' ? ' ' : key;
  if ([...ch].length !== 1 || ch < ' ') return s;
  return set({ values: values(current + ch) });
}

function enter(s: UiState, mode: AnswerMode, set: (patch: Partial<AnswerMode>) => UiState, columns: number): UiState {
  const text = (mode.values[mode.field] ?? '').trim();
  const blank = Array.from({ length: columns + 1 }, () => '');
  if (mode.field === 0) {
    if (text === '') return mode.rows.length > 0 ? submitAnswer(s, mode.step, mode.rows) : set({ error: `type a row kind (${KINDS.join(' ')}) or ${NOTHING}` });
    if (text.toLowerCase() === NOTHING) {
      return mode.rows.length === 0 ? submitAnswer(s, mode.step, []) : set({ error: `${NOTHING} after rows: backspace removes a row, enter hands them in` });
    }
    const whole = parseRowText(text, columns);
    if (typeof whole === 'string') return set({ error: whole });
    if (whole !== undefined) return set({ rows: [...mode.rows, whole], values: blank, field: 0 });
    const kind = normalKind(text);
    if (kind === undefined) return set({ error: `a row kind is ${KINDS.join(', ')} (or ${NOTHING}), not ${text}` });
    return set({ values: mode.values.map((v, i) => (i === 0 ? kind : v)), field: columns === 0 ? 0 : 1 });
  }
  if (text === '') return set({ error: `type a value for ${s.session.info.outputNames[mode.field - 1] ?? 'this column'} (or null)` });
  if (mode.field < columns) return set({ field: mode.field + 1 });
  const row: AnswerRow = { kind: normalKind(mode.values[0] ?? '') ?? '+I', values: mode.values.slice(1).map((v) => v.trim()) };
  return set({ rows: [...mode.rows, row], values: blank, field: 0 });
}
