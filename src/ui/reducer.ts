/**
 * The pure reducer: (UiState, Action) -> UiState. Keys are resolved through the keymap table
 * (keymap.ts) according to the current mode; side effects (quit, reload) are requested through
 * `state.effect` and run by App. Manual actions go through `timeline.insert`, which returns a new
 * timeline, so they stay pure too and can be stepped back over.
 */
import { STEP_EMIT, STEP_EXPIRE, STEP_LATE_DROP, STEP_RETRACT, STEP_WATERMARK } from '../engine/types.js';
import { type CommandId, lookupKey } from './keymap.js';
import { goStep, goStepOrSay, readyText } from './navigate.js';
import { onPickKey, onPromptKey, pickTargets } from './reducer-input.js';
import { maxScroll, pageSize } from './scroll.js';
import { followView, sessionViews } from './session.js';
import { type Action, buildComputing, type Effect, PANES, runComputing, SPEEDS, type UiState } from './state.js';
import { editAtCursor, isDirty } from './whatif.js';
import { compareProgress, toggleCompare } from './compare.js';
import { guardPractice, practiceCommand, startPractice } from './practice.js';
import { onAnswerKey } from './practice-entry.js';
import { onFormKey, openForm } from './whatif-form.js';

export function reduce(s: UiState, a: Action): UiState {
  const next = reduceAction(s, a);
  // Practice mode: whatever moved the cursor, it stops before an unanswered question.
  return next.practice === undefined ? next : guardPractice(next);
}

function reduceAction(s: UiState, a: Action): UiState {
  switch (a.t) {
    case 'tick':
      return s.playing ? tick(s) : s;
    case 'resize':
      return { ...s, columns: a.columns, rows: a.rows };
    case 'reloaded': {
      const dropped = s.manual > 0 ? ` (${s.manual} manual step${s.manual === 1 ? '' : 's'} dropped)` : '';
      const edits = isDirty(s) ? ' (unsaved what-if edits dropped)' : '';
      const session = followView(a.session, s.session.follow ?? 0);
      const next = { ...s, session, manual: 0, edit: undefined, compare: undefined, comparing: undefined, computing: undefined, ...runComputing(session), message: `reloaded ${a.session.info.file}${dropped}${edits}` };
      return goStep(next, Math.min(s.step, a.session.timeline.length));
    }
    case 'fileChanged':
      return command(s, 'reload');
    case 'reloadFailed':
    case 'saveFailed':
    case 'message':
      return { ...s, message: a.message };
    case 'saved':
      return s.edit === undefined ? s : { ...s, edit: { ...s.edit, saved: a.text }, message: `saved ${s.session.info.file} (previous version in .bak)` };
    case 'key':
      return onKey(s.message === undefined ? s : { ...s, message: undefined }, a.key);
    case 'computed':
      return computed(s, a);
    case 'compareProgress':
      return compareProgress(s, a);
  }
}

/** The run computed in pieces got further; stale news (after a reload) changes nothing. */
function computed(s: UiState, a: Extract<Action, { t: 'computed' }>): UiState {
  if (s.computing === undefined) return s;
  // Read to its end: the session as it then stands (the same timelines, what was learnt on the way).
  const learnt = a.session === undefined ? s : { ...s, session: followView(a.session, s.session.follow ?? 0) };
  if (a.restart !== undefined) {
    // The steps shown may not be the file's: it is read again the full way (a `reread`: unlike
    // `r`, a failure then leaves the app, since the file never had a usable session).
    const stopped = { ...s, computing: { ...s.computing, error: 'the file is read again' } };
    return { ...effect({ ...stopped, playing: false }, 'reread'), message: `the file is read again the full way (${a.restart})` };
  }
  if (a.done) return { ...learnt, computing: undefined };
  const computing = { ...buildComputing(a, a.rate).computing! };
  if (a.error === undefined || s.computing.error !== undefined) return { ...learnt, computing };
  return { ...learnt, computing, message: `the run stops at step ${(a.ready + 1).toLocaleString('en-US')}: ${a.error.split('\n')[0] ?? ''}` };
}

/** Commands that change or compare the whole run: they wait for it to be complete. */
const WHOLE_RUN: readonly CommandId[] = ['watermark', 'idle', 'clock', 'insertEvent', 'deleteEvent', 'moveEarlier', 'moveLater', 'duplicateEvent', 'practice', 'compare'];

function onKey(s: UiState, key: string): UiState {
  const mode = s.mode;
  switch (mode.k) {
    case 'help':
      return { ...s, mode: { k: 'normal' } };
    case 'prefix': {
      const b = lookupKey(key, mode.prefix);
      const normal = { ...s, mode: { k: 'normal' } as const };
      return b === undefined ? { ...normal, message: `${mode.prefix} ${key}: not a run-to target (e r l w x)` } : command(normal, b.command);
    }
    case 'prompt':
      return onPromptKey(s, mode, key);
    case 'pick':
      return onPickKey(s, mode, key);
    case 'form':
      return onFormKey(s, mode, key);
    case 'answer':
      return onAnswerKey(s, mode, key);
    case 'score':
      if (key === 'q' || key === 'ctrl-c') return effect(s, 'quit');
      return { ...s, mode: { k: 'normal' }, practice: undefined, message: 'practice ended: every step is shown again' };
    case 'confirmQuit':
      if (key === 'q' || key === 'y' || key === 'ctrl-c') return effect(s, 'quit');
      return { ...s, mode: { k: 'normal' }, message: 'quit cancelled (s saves the edits)' };
    case 'normal': {
      // Ctrl-C is a quit like `q`: with unsaved what-if edits it asks first, and a second Ctrl-C
      // (handled in confirmQuit) leaves at once.
      if (key === 'ctrl-c') return command(s, 'quit');
      const b = lookupKey(key);
      return b === undefined ? s : command(s, b.command);
    }
  }
}

export function command(s: UiState, c: CommandId): UiState {
  const practised = s.practice === undefined ? undefined : practiceCommand(s, c);
  if (practised !== undefined) return practised;
  const length = s.session.timeline.length;
  if (s.computing !== undefined && WHOLE_RUN.includes(c)) {
    const why = s.computing.error !== undefined ? 'the run stopped on an error' : `the run is still being computed (${readyText(s)})`;
    return { ...s, message: `${why}: this key works once the whole run is there` };
  }
  switch (c) {
    case 'next':
      return goStepOrSay(s, s.step + 1);
    case 'prev':
      return goStep(s, s.step - 1);
    case 'first':
      return goStep(s, 0);
    case 'last':
      return s.computing === undefined ? goStep(s, length) : { ...goStep(s, length), message: `the last step computed so far (${readyText(s)})` };
    case 'goto':
      return { ...s, mode: { k: 'prompt', purpose: 'goto', text: '' } };
    case 'search':
      return { ...s, mode: { k: 'prompt', purpose: 'search', text: s.search } };
    case 'clock':
      return { ...s, mode: { k: 'prompt', purpose: 'clock', text: '' } };
    case 'watermark':
    case 'idle':
      return pickTargets(s).length === 0
        ? { ...s, message: 'no source partitions to choose from' }
        : { ...s, mode: { k: 'pick', purpose: c, index: 0 } };
    case 'play':
      if (!s.playing && s.step >= length && s.computing === undefined) return { ...s, message: 'at the last step: g goes back to the start' };
      return { ...s, playing: !s.playing };
    case 'faster':
      return { ...s, speed: Math.min(SPEEDS.length - 1, s.speed + 1) };
    case 'slower':
      return { ...s, speed: Math.max(0, s.speed - 1) };
    case 'runTo':
      return { ...s, mode: { k: 'prefix', prefix: 'b' } };
    case 'runEmit':
      return runTo(s, STEP_EMIT, 'emission');
    case 'runRetract':
      return runTo(s, STEP_RETRACT, 'retraction');
    case 'runLate':
      return runTo(s, STEP_LATE_DROP, 'late drop');
    case 'runWatermark':
      return runTo(s, STEP_WATERMARK, 'watermark change');
    case 'runExpire':
      return runTo(s, STEP_EXPIRE, 'state expiry');
    case 'focusNext':
    case 'focusPrev': {
      const i = PANES.indexOf(s.focus) + (c === 'focusNext' ? 1 : PANES.length - 1);
      return { ...s, focus: PANES[i % PANES.length] ?? 'timeline' };
    }
    case 'up':
      return scrollBy(s, -1);
    case 'down':
      return scrollBy(s, 1);
    case 'pageUp':
      return scrollBy(s, -pageSize(s));
    case 'pageDown':
      return scrollBy(s, pageSize(s));
    case 'reload':
      return effect({ ...s, playing: false, message: 'reloading…' }, 'reload');
    case 'colour':
      return { ...s, mono: !s.mono };
    case 'help':
      return { ...s, mode: { k: 'help' } };
    case 'quit':
      if (isDirty(s)) return { ...s, playing: false, mode: { k: 'confirmQuit' } };
      return effect(s, 'quit');
    case 'follow': {
      const views = sessionViews(s.session);
      if (views.length <= 1) return { ...s, message: 'one query: nothing else to follow' };
      const session = followView(s.session, (s.session.follow ?? 0) + 1);
      return { ...s, session, selected: undefined, scroll: {}, message: `following ${views[session.follow ?? 0]?.name ?? ''}` };
    }
    case 'insertEvent':
      return openForm(s);
    case 'deleteEvent':
      return editAtCursor(s, 'delete');
    case 'moveEarlier':
      return editAtCursor(s, 'earlier');
    case 'moveLater':
      return editAtCursor(s, 'later');
    case 'duplicateEvent':
      return editAtCursor(s, 'duplicate');
    case 'practice':
      return startPractice(s);
    case 'compare':
      return toggleCompare(s);
    case 'diagram':
      return effect({ ...s, message: 'writing the diagram…' }, 'diagram');
    case 'save':
      if (s.edit === undefined) return { ...s, message: 'no what-if edits to save' };
      if (!isDirty(s)) return { ...s, message: 'already saved' };
      return effect({ ...s, message: 'saving…' }, 'save');
  }
}

function effect(s: UiState, kind: Effect): UiState {
  return { ...s, effect: { kind, id: (s.effect?.id ?? 0) + 1 } };
}

function tick(s: UiState): UiState {
  // Playing into steps not computed yet waits for them (and stops if the run stopped).
  if (s.computing !== undefined && s.computing.error === undefined && s.step >= s.session.timeline.length) return s;
  const next = goStep(s, s.step + 1);
  return next.step >= s.session.timeline.length ? { ...next, playing: false } : next;
}

function runTo(s: UiState, mask: number, what: string): UiState {
  const tl = s.session.timeline;
  for (let i = s.step + 1; i <= tl.length; i++) {
    if ((tl.flagsAt(i) & mask) !== 0) return { ...goStep(s, i), playing: false };
  }
  const sofar = s.computing === undefined ? '' : ` in the steps computed so far (${readyText(s)})`;
  return { ...s, message: `no later ${what} after step ${s.step}${sofar}` };
}

function scrollBy(s: UiState, delta: number): UiState {
  if (s.focus === 'timeline') return goStep(s, s.step + delta);
  if (s.focus === 'changelog') {
    const size = s.session.timeline.changelogSize(s.step);
    if (size === 0) return s;
    const next = (s.selected ?? size) + delta;
    return { ...s, selected: next >= size ? undefined : Math.max(0, next) };
  }
  const cur = s.scroll[s.focus] ?? 0;
  const next = Math.max(0, Math.min(cur + delta, maxScroll(s, s.focus)));
  return { ...s, scroll: { ...s.scroll, [s.focus]: next } };
}

