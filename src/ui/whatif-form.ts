/**
 * The `e` form: the fields of a new event, one typed value each, in the key bar. The fields
 * follow from the values typed so far (kind, then table, then that table's columns), and the
 * finished event is validated by the loader itself (see whatif.ts), whose diagnostic the form
 * shows inline, so the form needs no validation rules of its own to stay faithful.
 */
import { type EventObject, type EventValue, ExactNumber } from '../scenario/edit.js';
import type { SqlType } from '../values/types.js';
import { sessionViews, type TableInfo } from './session.js';
import type { Mode, UiState } from './state.js';
import { insertEvent } from './whatif.js';

export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly hint: string;
}

type FormMode = Extract<Mode, { k: 'form' }>;

export const EVENT_KINDS = ['row', 'watermark', 'idle', 'advance', 'note'] as const;

/** Source tables of every query (a lookup table is in only one of them). */
export function formTables(s: UiState): TableInfo[] {
  const out = new Map<string, TableInfo>();
  for (const v of sessionViews(s.session)) for (const t of v.info.tables) if (!out.has(t.name)) out.set(t.name, t);
  return [...out.values()];
}

export function formFields(s: UiState, values: Readonly<Record<string, string>>): FormField[] {
  const tables = formTables(s);
  const tableField = { name: 'table', label: 'table', hint: tables.map((t) => t.name).join(' / ') };
  const fields: FormField[] = [{ name: 'kind', label: 'event', hint: EVENT_KINDS.join(' / ') }];
  switch (values['kind']?.trim() || 'row') {
    case 'row': {
      fields.push(tableField, { name: 'op', label: 'op', hint: '+I (enter) / -U / +U / -D' });
      const table = tables.find((t) => t.name === values['table']?.trim());
      for (const c of table?.columns ?? []) {
        if (!c.computed) fields.push({ name: `col:${c.name}`, label: c.name, hint: `${typeText(c.type)}; empty = null` });
      }
      break;
    }
    case 'watermark':
      fields.push(tableField, { name: 'to', label: 'to', hint: 'enter = generated, max, or a time' });
      break;
    case 'idle':
      fields.push(tableField);
      break;
    case 'advance':
      fields.push({ name: 'by', label: 'advance by', hint: 'e.g. 5 s, 30 min' });
      break;
    case 'note':
      fields.push({ name: 'text', label: 'note', hint: 'narration' });
      break;
  }
  return fields;
}

function typeText(t: SqlType): string {
  return t.precision === undefined ? t.kind : `${t.kind}(${t.precision}${t.scale === undefined ? '' : `, ${t.scale}`})`;
}

const NUMERIC = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'FLOAT', 'DOUBLE', 'DECIMAL']);

/** A typed value as YAML would hold it: numbers exact, booleans, null; the loader checks the rest. */
function cellValue(text: string, type: SqlType): EventValue | undefined {
  const v = text.trim();
  if (v === '') return undefined;
  if (v === 'null') return null;
  if (NUMERIC.has(type.kind) && /^-?\d+(\.\d+)?$/.test(v)) return new ExactNumber(v);
  if (type.kind === 'BOOLEAN' && (v === 'true' || v === 'false')) return v === 'true';
  return v;
}

export function buildEvent(s: UiState, values: Readonly<Record<string, string>>): EventObject | string {
  const get = (k: string): string => values[k]?.trim() ?? '';
  const kind = get('kind') || 'row';
  switch (kind) {
    case 'row': {
      const table = formTables(s).find((t) => t.name === get('table'));
      if (table === undefined) return `unknown table "${get('table')}"`;
      const row: Record<string, EventValue> = {};
      for (const c of table.columns) {
        const v = c.computed ? undefined : cellValue(values[`col:${c.name}`] ?? '', c.type);
        if (v !== undefined) row[c.name] = v;
      }
      const op = get('op');
      return { to: table.name, ...(op !== '' && op !== '+I' ? { op } : {}), row };
    }
    case 'watermark':
      return { watermark: get('table'), ...(get('to') !== '' ? { to: get('to') } : {}) };
    case 'idle':
      return { idle: get('table') };
    case 'advance':
      return { advance: get('by') };
    case 'note':
      return { note: values['text'] ?? '' };
    default:
      return `"${kind}" is not an event kind (${EVENT_KINDS.join(' / ')})`;
  }
}

export function openForm(s: UiState): UiState {
  return { ...s, playing: false, mode: { k: 'form', index: 0, values: {} } };
}

export function onFormKey(s: UiState, mode: FormMode, key: string): UiState {
  const fields = formFields(s, mode.values);
  const field = fields[mode.index];
  if (key === 'esc' || key === 'ctrl-c' || field === undefined) return { ...s, mode: { k: 'normal' }, message: 'insert cancelled' };
  const current = mode.values[field.name] ?? '';
  if (key === 'up' || key === 'shift-tab') return { ...s, mode: { ...mode, index: Math.max(0, mode.index - 1), error: undefined } };
  if (key === 'enter' || key === 'tab' || key === 'down') {
    // The fields may change with this value (kind, table): the next one is read from the new list.
    const more = formFields(s, mode.values);
    if (mode.index + 1 < more.length) return { ...s, mode: { ...mode, index: mode.index + 1, error: undefined } };
    return key === 'enter' ? submitForm(s, mode) : s;
  }
  if (key === 'backspace') return { ...s, mode: { ...mode, values: { ...mode.values, [field.name]: current.slice(0, -1) }, error: undefined } };
  const ch = key === 'space' ? ' ' : key;
  if ([...ch].length !== 1 || ch < ' ') return s;
  return { ...s, mode: { ...mode, values: { ...mode.values, [field.name]: current + ch }, error: undefined } };
}

function submitForm(s: UiState, mode: FormMode): UiState {
  const event = buildEvent(s, mode.values);
  if (typeof event === 'string') return { ...s, mode: { ...mode, error: event } };
  const r = insertEvent(s, event);
  // The loader's diagnostic stays in the form, so the value can be fixed without retyping all.
  // The file is the one open, so its path is noise in the one-line bar: `line 8:11: error: ...`.
  if (!r.ok) return { ...s, mode: { ...mode, error: (r.message.split('\n')[0] ?? '').replace(/^.*?:(\d+):(\d+): /, 'line $1:$2: ') } };
  return { ...r.state, message: `what-if: inserted step ${r.state.step} (s saves)` };
}
