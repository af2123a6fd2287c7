/**
 * The app's whole UI state, as data. Only App.tsx holds it; only reducer.ts changes it.
 */
import type { AnswerRow } from '../teach/practice-grade.js';
import type { ComparePending, CompareState } from './compare.js';
import type { PracticeState } from './practice.js';
import { type Session, sessionViews } from './session.js';
import type { BuildProgress, ReadingProgress } from './session-load.js';

export const PANES = ['timeline', 'left', 'right', 'watermarks', 'changelog', 'result', 'why'] as const;
export type PaneId = (typeof PANES)[number];

/** A source partition chosen for a manual watermark or idle toggle. */
export interface Target {
  readonly table: string;
  readonly partition: number;
}

export type PromptPurpose = 'goto' | 'search' | 'clock' | 'wmTime';

export type Mode =
  | { readonly k: 'normal' }
  | { readonly k: 'help' }
  | { readonly k: 'prefix'; readonly prefix: string }
  | { readonly k: 'prompt'; readonly purpose: PromptPurpose; readonly text: string; readonly target?: Target }
  | { readonly k: 'pick'; readonly purpose: 'watermark' | 'idle'; readonly index: number }
  /** The what-if insert form: one value per field name; the fields follow from the values. */
  | { readonly k: 'form'; readonly index: number; readonly values: Readonly<Record<string, string>>; readonly error?: string }
  | { readonly k: 'confirmQuit' }
  /** Practice: the candidate's rows for step `step` (not yet shown), one field at a time. */
  | { readonly k: 'answer'; readonly step: number; readonly rows: readonly AnswerRow[]; readonly field: number; readonly values: readonly string[]; readonly error?: string }
  /** Practice: the score, over the whole body. */
  | { readonly k: 'score' };

/** What-if edits since the load: the current file text, what is on disk, the run before any edit. */
export interface EditState {
  readonly text: string;
  readonly saved: string;
  readonly original: Session;
}

/** Side effects the reducer asks App to run (it cannot run them itself and stay pure). */
/**
 * `reread`: the file read as its run went (a big file) is read again the full way, because the
 * streamed reader gave up half-way; unlike `reload`, a failure then leaves the app (file-problem.ts).
 */
export type Effect = 'quit' | 'reload' | 'reread' | 'save' | 'diagram' | 'score';

export const SPEEDS = [1, 2, 5, 10, 20, 50] as const;

/**
 * A run still being computed in pieces (big scenarios): steps 0..ready exist, the rest follow.
 * The timelines grow in place; this is what the status line and the keys know of it.
 */
export interface Computing {
  readonly ready: number;
  readonly total: number;
  /** Steps computed per second so far (0 before the first measure). */
  readonly rate: number;
  /** The run stopped on a runtime error at step ready + 1 (the steps before it stay). */
  readonly error?: string;
  /** The file is still being read as the run goes: how far (`total` is then the events read so far). */
  readonly reading?: ReadingProgress;
}

export interface UiState {
  readonly session: Session;
  readonly step: number;
  readonly focus: PaneId;
  /** Scroll offset per pane (lines from the top); absent = the pane's own default. */
  readonly scroll: Readonly<Partial<Record<PaneId, number>>>;
  /** Selected changelog row (index into the changelog up to `step`); absent = follow the newest. */
  readonly selected?: number;
  readonly mode: Mode;
  readonly playing: boolean;
  readonly speed: number;
  readonly search: string;
  readonly message?: string;
  readonly mono: boolean;
  /** Manual actions inserted into the run since the last load. */
  readonly manual: number;
  readonly rows: number;
  readonly columns: number;
  /**
   * False while keys arrive faster than slow engine queries run (big runs): panes that need a
   * slow query show a placeholder until App marks the step settled.
   */
  readonly settled?: boolean;
  /** Pending side effect and a counter so the same effect twice still triggers. */
  readonly effect?: { readonly kind: Effect; readonly id: number };
  /** Present once a what-if edit was made (cleared by a reload from disk). */
  readonly edit?: EditState;
  /** Present in practice mode (predict each step's output before it is shown). */
  readonly practice?: PracticeState;
  /** Present while a second flink-version is shown beside the scenario's own. */
  readonly compare?: CompareState;
  /** Present while `V`'s run under another version is computed in pieces (long runs). */
  readonly comparing?: ComparePending;
  /** Present while the run is still being computed (or stopped on an error before its end). */
  readonly computing?: Computing;
}

/** `build`: where the session's run stands when it is still computed (and maybe still read). */
export function initialState(session: Session, opts: { mono?: boolean; rows?: number; columns?: number; build?: BuildProgress } = {}): UiState {
  return {
    session,
    step: 0,
    focus: 'timeline',
    scroll: {},
    mode: { k: 'normal' },
    playing: false,
    speed: 1,
    search: '',
    mono: opts.mono ?? false,
    manual: 0,
    rows: opts.rows ?? 24,
    columns: opts.columns ?? 80,
    ...(opts.build !== undefined ? buildComputing(opts.build) : runComputing(session)),
  };
}

/** `computing` for a session whose timelines are not complete yet (none for a complete one). */
export function runComputing(session: Session, rate = 0): { computing?: Computing } {
  const ready = Math.min(...sessionViews(session).map((v) => v.timeline.length));
  const total = session.timeline.events.length;
  return ready < total ? { computing: { ready, total, rate } } : {};
}

/** `computing` from where a build stands (none once it is done). */
export function buildComputing(p: BuildProgress, rate = 0): { computing?: Computing } {
  if (p.done) return {};
  return { computing: { ready: p.ready, total: p.total, rate, ...(p.error !== undefined ? { error: p.error } : {}), ...(p.reading !== undefined ? { reading: p.reading } : {}) } };
}

export type Action =
  | { readonly t: 'key'; readonly key: string }
  | { readonly t: 'tick' }
  | { readonly t: 'resize'; readonly columns: number; readonly rows: number }
  /** The file changed on disk (--watch): reload as the `r` key would. */
  | { readonly t: 'fileChanged' }
  | { readonly t: 'reloaded'; readonly session: Session }
  /** The edited text was written to the file. */
  | { readonly t: 'saved'; readonly text: string }
  | { readonly t: 'saveFailed'; readonly message: string }
  | { readonly t: 'reloadFailed'; readonly message: string }
  /** The run computed in pieces got further (`done`: complete; `error`: stopped on a bad row). */
  | ({ readonly t: 'computed'; readonly rate: number } & BuildProgress)
  /** `V`'s run under another version got further. */
  | { readonly t: 'compareProgress'; readonly ready: number; readonly total: number; readonly done: boolean; readonly error?: string }
  /** A side effect finished with something to say (a file written). */
  | { readonly t: 'message'; readonly message: string };
