/**
 * The `e` form: the fields of a new event, one typed value each, in the key bar. The fields
 * follow from the values typed so far (whatif-fields.ts: kind, then table, its partition and
 * columns, then an optional `at`), and the finished event is validated by the loader itself
 * (see whatif.ts), whose diagnostic the form shows inline, so the form needs no validation
 * rules of its own to stay faithful.
 */
import { type EventObject, type EventValue, ExactNumber } from '../scenario/edit.js';
import type { SqlType } from '../values/types.js';
import type { Mode, UiState } from './state.js';
import { EVENT_KINDS, formFields, formTables } from './whatif-fields.js';
import { insertEvent, tooBigToEdit } from './whatif.js';

export { EVENT_KINDS, formFields, formTables, partitionCount, type FormField } from './whatif-fields.js';

type FormMode = Extract<Mode, { k: 'form' }>;

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

/**
 * An integer as YAML would hold it (`partition: 1`, `at: 1790000000000` epoch ms), other text as
 * a string: the loader then says what is wrong with it in its own words.
 */
function scalarValue(text: string): EventValue {
  return /^-?\d+$/.test(text) ? new ExactNumber(text) : text;
}

export function buildEvent(s: UiState, values: Readonly<Record<string, string>>): EventObject | string {
  // Only the fields on show count: a partition typed for another table is not sent.
  const shown = new Set(formFields(s, values).map((f) => f.name));
  const get = (k: string): string => (shown.has(k) ? (values[k]?.trim() ?? '') : '');
  const opt = (k: string): Record<string, EventValue> => (get(k) === '' ? {} : { [k]: scalarValue(get(k)) });
  // `at` first, as the scenarios write it: the clock moves before the event happens.
  const at = opt('at');
  const kind = values['kind']?.trim() || 'row';
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
      return { ...at, to: table.name, ...opt('partition'), ...(op !== '' && op !== '+I' ? { op } : {}), row };
    }
    case 'watermark':
      return { ...at, watermark: get('table'), ...opt('partition'), ...(get('to') !== '' ? { to: get('to') } : {}) };
    case 'idle':
    case 'active':
      return { ...at, [kind]: get('table'), ...opt('partition') };
    case 'advance':
      return { ...at, advance: get('by') };
    case 'note':
      return { ...at, note: values['text'] ?? '' };
    default:
      return `"${kind}" is not an event kind (${EVENT_KINDS.join(' / ')})`;
  }
}

export function openForm(s: UiState): UiState {
  const bad = tooBigToEdit(s);
  if (bad !== undefined) return { ...s, message: bad };
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
    const more = formFields(s, mode.values).slice(mode.index + 1);
    // Enter skips optional trailing fields (`at`), so a form filled as before submits as before.
    const next = key === 'enter' ? more.some((f) => f.optional !== true) : more.length > 0;
    if (next) return { ...s, mode: { ...mode, index: mode.index + 1, error: undefined } };
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
