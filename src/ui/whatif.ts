/**
 * What-if edits at the cursor. An edit never patches the computed run: it splices the event into
 * the file text (comment-preserving `editScenarioText`), re-loads that text with the loader's own
 * rules and re-runs it, so the app can only ever show a scenario the file could hold. The edit
 * state keeps the run from before the first edit, for the changelog's +/− marks.
 */
import { editScenarioText, type EventEdit, type EventObject } from '../scenario/edit.js';
import { goStep } from './navigate.js';
import { followView } from './session.js';
import { sessionFromText } from './session-load.js';
import type { UiState } from './state.js';

export type EditOutcome = { readonly ok: true; readonly state: UiState } | { readonly ok: false; readonly message: string };

/**
 * An edit re-reads the whole edited text through the comment-keeping YAML editor, which costs
 * about a second per 10,000 events and holds up the app meanwhile: past this, edits are off.
 */
export const WHATIF_MAX_EVENTS = 20_000;

/** The run is too long for what-if edits: why, or undefined. */
export function tooBigToEdit(s: UiState): string | undefined {
  const events = s.session.timeline.events.length;
  if (events <= WHATIF_MAX_EVENTS) return undefined;
  return `what-if edits re-read the whole file: off for runs over ${WHATIF_MAX_EVENTS.toLocaleString('en-US')} events (this one has ${events.toLocaleString('en-US')})`;
}

/** Why an edit cannot be made now, or undefined. */
function blocked(s: UiState, needsEvent: boolean): string | undefined {
  const big = tooBigToEdit(s);
  if (big !== undefined) return big;
  if (s.session.replayed === true) return 'this scenario replays events from data files: what-if edits need every event in the scenario file';
  if (s.session.text === undefined) return 'this session has no file text to edit';
  if (s.manual > 0) return 'manual steps (w i t) are not in the file: reload (r) before a what-if edit';
  if (needsEvent && s.step === 0) return 'step 0 has no event: step forward onto the event to edit';
  return undefined;
}

/** Applies one edit; on success the cursor is on the edited event (after it, for a delete). */
export function applyEdit(s: UiState, edit: EventEdit): EditOutcome {
  const bad = blocked(s, edit.kind !== 'insert');
  if (bad !== undefined) return { ok: false, message: bad };
  const text = s.session.text!;
  const r = editScenarioText(text, edit);
  if (!r.ok) return { ok: false, message: r.message };
  const loaded = sessionFromText(s.session.info.file, r.text);
  if (!loaded.ok) return { ok: false, message: loaded.errors[0] ?? 'the edited scenario does not load' };
  const session = followView(loaded.session, s.session.follow ?? 0);
  const edit0 = s.edit ?? { saved: text, original: s.session };
  const next: UiState = { ...s, session, edit: { ...edit0, text: r.text }, playing: false, selected: undefined, mode: { k: 'normal' } };
  const step = edit.kind === 'delete' ? r.index : r.index + 1;
  return { ok: true, state: goStep(next, step) };
}

/** The event-at-cursor edits (x [ ] D): index of the event is step - 1. */
export function editAtCursor(s: UiState, kind: 'delete' | 'duplicate' | 'earlier' | 'later'): UiState {
  const index = s.step - 1;
  const edit: EventEdit =
    kind === 'delete' || kind === 'duplicate' ? { kind, index } : { kind: 'move', index, direction: kind };
  const r = applyEdit(s, edit);
  if (!r.ok) return { ...s, message: r.message.split('\n')[0] };
  const what = { delete: 'deleted', duplicate: 'duplicated', earlier: 'moved earlier', later: 'moved later' }[kind];
  return { ...r.state, message: `what-if: event ${what} (s saves)` };
}

/** Inserts a built event after the current step. */
export function insertEvent(s: UiState, event: EventObject): EditOutcome {
  return applyEdit(s, { kind: 'insert', index: s.step, event });
}

export function isDirty(s: UiState): boolean {
  return s.edit !== undefined && s.edit.text !== s.edit.saved;
}
