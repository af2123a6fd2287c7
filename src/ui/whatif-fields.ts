/**
 * The fields of the `e` form for the values typed so far: the kind decides them, then the table
 * (its columns, and a partition field only when it has several partitions). Every kind ends in
 * an optional `at`, which Enter skips so the form reads as it did before `at` existed.
 */
import type { SqlType } from '../values/types.js';
import { sessionViews, type TableInfo } from './session.js';
import type { UiState } from './state.js';
import { stepView } from './step-view.js';

export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly hint: string;
  /** Enter submits before an optional trailing field; tab or ↓ moves into it. */
  readonly optional?: boolean;
}

export const EVENT_KINDS = ['row', 'watermark', 'idle', 'active', 'advance', 'note'] as const;

/** Source tables of every query (a lookup table is in only one of them). */
export function formTables(s: UiState): TableInfo[] {
  const out = new Map<string, TableInfo>();
  for (const v of sessionViews(s.session)) for (const t of v.info.tables) if (!out.has(t.name)) out.set(t.name, t);
  return [...out.values()];
}

/**
 * A table's partition count, as the engine runs it: the watermark view lists every partition of
 * each source table, so the count is the one the loader checks `partition:` against.
 */
export function partitionCount(s: UiState, table: string): number {
  let count = 1;
  for (const v of sessionViews(s.session)) {
    const t = stepView(v.timeline, s.step).watermarks.tables.find((w) => w.table === table);
    if (t !== undefined) count = Math.max(count, t.partitions.length);
  }
  return count;
}

export function formFields(s: UiState, values: Readonly<Record<string, string>>): FormField[] {
  const tables = formTables(s);
  const tableName = values['table']?.trim() ?? '';
  const tableField = { name: 'table', label: 'table', hint: tables.map((t) => t.name).join(' / ') };
  const fields: FormField[] = [{ name: 'kind', label: 'event', hint: EVENT_KINDS.join(' / ') }];
  const kind = values['kind']?.trim() || 'row';
  switch (kind) {
    case 'row': {
      fields.push(tableField, ...partitionField(s, tableName, 'enter = 0'), { name: 'op', label: 'op', hint: '+I (enter) / -U / +U / -D' });
      const table = tables.find((t) => t.name === tableName);
      for (const c of table?.columns ?? []) {
        if (!c.computed) fields.push({ name: `col:${c.name}`, label: c.name, hint: `${typeText(c.type)}; empty = null` });
      }
      break;
    }
    case 'watermark':
      fields.push(tableField, ...partitionField(s, tableName, 'enter = every partition'), { name: 'to', label: 'to', hint: 'enter = generated, max, or a time' });
      break;
    case 'idle':
    case 'active':
      fields.push(tableField, ...partitionField(s, tableName, 'enter = every partition'));
      break;
    case 'advance':
      fields.push({ name: 'by', label: 'advance by', hint: 'e.g. 5 s, 30 min' });
      break;
    case 'note':
      fields.push({ name: 'text', label: 'note', hint: 'narration' });
      break;
    default:
      // An unknown kind is reported on submit; no `at` for it, so Enter submits at once.
      return fields;
  }
  return withAt(fields);
}

/** The partition field, only for a table with several partitions (one has nothing to choose). */
function partitionField(s: UiState, table: string, empty: string): FormField[] {
  const count = table === '' ? 1 : partitionCount(s, table);
  return count > 1 ? [{ name: 'partition', label: 'partition', hint: `0 to ${count - 1}; ${empty}` }] : [];
}

/** The trailing optional `at`; the field before it says how to reach it. */
function withAt(fields: FormField[]): FormField[] {
  const last = fields.length - 1;
  const shown = fields.map((f, i) => (i === last ? { ...f, hint: `${f.hint} · tab: at` } : f));
  return [...shown, { name: 'at', label: 'at', hint: 'set the processing clock first, e.g. 09:30; enter = leave it', optional: true }];
}

function typeText(t: SqlType): string {
  return t.precision === undefined ? t.kind : `${t.kind}(${t.precision}${t.scale === undefined ? '' : `, ${t.scale}`})`;
}
