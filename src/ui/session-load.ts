/** Loading a scenario file into a Session (loader + engine), with errors as printable text. */
import { runtimeFailure } from '../cli/runtime-error.js';
import { createTimeline, startTimeline, type TimelineBuild } from '../engine/timeline.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { readFile } from 'node:fs/promises';
import type { Progress } from '../cli/progress.js';
import { loadScenarioFile, loadScenarioText } from '../scenario/load.js';
import type { Scenario } from '../scenario/types.js';
import type { Timeline } from '../engine/types.js';
import { type Session, sessionInfo, sessionViews } from './session.js';
import { loadInSlices, type SliceOptions } from './load-in-slices.js';

export type SessionResult = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly errors: readonly string[] };

/** `progress`: a progress function per query for the first run (shown while a long one computes). */
export function sessionFromScenario(scenario: Scenario, text?: string, progress?: (query: string) => ((done: number, total: number) => void) | undefined): SessionResult {
  return assemble(scenario, text, (i, name) => createTimeline(scenario, i, progress?.(name)));
}

/** The session's run still being computed in pieces: its timelines grow as `advance` is called. */
export interface SessionBuild {
  readonly session: Session;
  /** Computes for about `budgetMs` (at least one small piece); where the run stands after it. */
  advance(budgetMs: number): BuildProgress;
  /** Where the run stands, without computing. */
  progress(): BuildProgress;
}

export interface BuildProgress {
  /** Steps ready in every query's timeline. */
  readonly ready: number;
  /** The steps the run will have: the events read so far while the file is still read (`reading`). */
  readonly total: number;
  readonly done: boolean;
  /** The run stopped on a runtime error (a bad row): the steps before it stay readable. */
  readonly error?: string;
  /** The file is still being read as the run goes (load-and-run.ts): how far. */
  readonly reading?: ReadingProgress;
  /**
   * The file turned out not to be readable as a stream half-way (a problem in it, a replay out of
   * time order): the steps shown may not be the file's; it is to be loaded again, as a reload.
   */
  readonly restart?: string;
  /** The session as it stands once the file is read to its end (what it learnt on the way). */
  readonly session?: Session;
}

export interface ReadingProgress {
  /** Events read so far. */
  readonly done: number;
  /** Events in all, when the reader knows it (inline events); absent for replayed files. */
  readonly total?: number;
  /** Events read per second. */
  readonly rate: number;
}

/** Events per piece at first; pieces then grow or shrink to fill the time budget. */
const FIRST_PIECE = 256;

/**
 * A session whose timelines start empty and are computed in pieces: the app shows the first
 * steps and reads keys between pieces instead of waiting for a whole long run.
 */
export function startSession(scenario: Scenario, text?: string, expected?: number): { readonly ok: true; readonly build: SessionBuild } | { readonly ok: false; readonly errors: readonly string[] } {
  const builds: TimelineBuild[] = [];
  const r = assemble(scenario, text, (i) => {
    const b = startTimeline(scenario, i, expected);
    builds.push(b);
    return b.timeline;
  });
  if (!r.ok) return r;
  const session = r.session;
  let piece = FIRST_PIECE;
  let failure: string | undefined;
  const progress = (): BuildProgress => {
    // The events may still be growing (load-and-run.ts): the total is the count read so far.
    const total = scenario.events.length;
    const ready = Math.min(...sessionViews(session).map((v) => v.timeline.length));
    return { ready, total, done: failure === undefined && ready >= total, ...(failure !== undefined ? { error: failure } : {}) };
  };
  const advance = (budgetMs: number): BuildProgress => {
    const start = performance.now();
    let done = failure !== undefined;
    while (!done) {
      const t = performance.now();
      try {
        // Every query by the same piece, so that they stay at the same step.
        done = builds.map((b) => b.advance(piece)).every(Boolean);
      } catch (error) {
        const d = runtimeFailure(scenario, error);
        if (d === undefined) throw error;
        failure = formatDiagnostic(d);
        break;
      }
      const took = performance.now() - t;
      // Aim at pieces of about a quarter of the budget, so the budget is not overshot by much.
      if (took < budgetMs / 8 && piece < 1 << 20) piece *= 2;
      else if (took > budgetMs / 2 && piece > 16) piece = Math.floor(piece / 2);
      if (performance.now() - start >= budgetMs) break;
    }
    return progress();
  };
  return { ok: true, build: { session, advance, progress } };
}

function assemble(scenario: Scenario, text: string | undefined, timelineOf: (queryIndex: number, name: string) => Timeline): SessionResult {
  try {
    const views = scenario.queries.map((q, i) => ({ name: q.name, info: sessionInfo(scenario, i), timeline: timelineOf(i, q.name) }));
    const first = views[0];
    if (first === undefined) throw new Error('[ui] scenario has no query');
    const many = views.length > 1 ? { views, follow: 0 } : {};
    // What-if edits splice events into the file by their index in `events:`; replayed events are not there.
    const replayed = scenario.events.some((e) => e.file !== undefined);
    // The text stays for runs under another version (`V`), which load it as the file would be.
    const edit = { ...(replayed ? { replayed: true } : {}), ...(text !== undefined ? { text } : {}) };
    return { ok: true, session: { info: first.info, timeline: first.timeline, ...many, ...edit, scenario } };
  } catch (error) {
    const d = runtimeFailure(scenario, error);
    if (d === undefined) throw error;
    return { ok: false, errors: [formatDiagnostic(d)] };
  }
}

/** Loads and runs `file`; with `progress`, a long load or run shows progress on stderr. */
export async function loadSession(file: string, progress?: Progress): Promise<SessionResult> {
  const r = await loadScenarioFile(file, progress === undefined ? {} : { progress: progress.stage('loading', 'events read') });
  progress?.done();
  if (!r.ok) return { ok: false, errors: r.diagnostics.map(formatDiagnostic) };
  // The text what-if edits splice into; read again (the loader keeps only the parsed scenario).
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const many = r.scenario.queries.length > 1;
  const session = sessionFromScenario(r.scenario, text, progress === undefined ? undefined : (q) => progress.stage(many ? `running ${q}` : 'running', 'events'));
  progress?.done();
  return session;
}

/** A scenario opened for the app: its session, and its run when that is still to be computed. */
export type Opened = { readonly ok: true; readonly session: Session; readonly build?: SessionBuild } | { readonly ok: false; readonly errors: readonly string[] };

/**
 * Loads `file` for the app in slices (load-in-slices.ts), keys and frames going on between them;
 * the session comes back with its run not yet computed (`build`). Undefined when stopped.
 */
export async function loadBuild(file: string, options: SliceOptions = {}): Promise<{ readonly ok: true; readonly build: SessionBuild } | { readonly ok: false; readonly errors: readonly string[] } | undefined> {
  const loaded = await loadInSlices(file, options);
  if (loaded === undefined) return undefined;
  const r = loaded.result;
  if (!r.ok) return { ok: false, errors: r.diagnostics.map(formatDiagnostic) };
  return startSession(r.scenario, loaded.text);
}

/**
 * Opens `file` in the running app (the picker, a reload, --watch): loaded in slices, then the
 * first SYNC_RUN_MS of its run; a longer run comes back as `build`, computed in pieces by the app.
 */
export async function openSession(file: string, options: SliceOptions = {}): Promise<Opened | undefined> {
  const r = await loadBuild(file, options);
  if (r === undefined || !r.ok) return r;
  const p = r.build.advance(SYNC_RUN_MS);
  if (p.error !== undefined) return { ok: false, errors: [p.error] };
  return p.done ? { ok: true, session: r.build.session } : { ok: true, session: r.build.session, build: r.build };
}

/** A reload or a picked file computes its run for this long before it is shown (about a frame). */
const SYNC_RUN_MS = 16;

/** A session from edited file text (synchronous: the reducer re-runs a what-if edit with it). */
export function sessionFromText(file: string, text: string): SessionResult {
  const r = loadScenarioText(file, text);
  if (!r.ok) return { ok: false, errors: r.diagnostics.map(formatDiagnostic) };
  return sessionFromScenario(r.scenario, text);
}

/** Name and description for the picker, or the first error. */
export async function describeFile(file: string): Promise<{ file: string; name: string; description?: string; error?: string }> {
  const r = await loadScenarioFile(file);
  if (r.ok) return { file, name: r.scenario.name, ...(r.scenario.description ? { description: r.scenario.description } : {}) };
  const first = r.diagnostics[0];
  return { file, name: r.name ?? file, error: first === undefined ? 'cannot be loaded' : formatDiagnostic(first) };
}
