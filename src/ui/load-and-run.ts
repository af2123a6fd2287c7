/**
 * A scenario file opened by the app with its run computed as its events are read: the
 * events are pulled from the streamed reader (load.ts `streamScenarioText`) into a list that
 * grows, and the session's timelines run over that list (RunBuilder grows with it), so the app
 * shows its first steps, and steps through the ready ones, while the rest of the file is read.
 * Each `advance(budget)` reads for about half of what is left of the budget and computes with
 * the rest, until both are done; the app drives it in slices (compute-in-pieces.ts). A small
 * file is read whole in the first piece, and its run then goes as it always did.
 *
 * The streamed reader's contract is that its events, pulled to the end, are the full load's.
 * Half-way it may find that it cannot keep it (a problem in the file, a replayed data file out of
 * time order): the steps computed may then not be the file's, and the build reports `restart`,
 * on which the app loads the file again as a reload does (the full way, with the loader's own
 * messages). A file the reader refuses before its first events is loaded the usual way (undefined).
 */
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { readScenarioFile, streamScenarioText } from '../scenario/load.js';
import { NotStreamed } from '../scenario/not-streamed.js';
import type { ScenarioEvent } from '../scenario/types.js';
import { procTimeAt, sessionViews } from './session.js';
import { startSession, type BuildProgress, type SessionBuild } from './session-load.js';

/** Events pulled between two looks at the clock. */
const CLOCK_EVERY = 256;

export interface LoadAndRunOptions {
  /** Read (and compute) for about this long before the session is handed back, so it has steps. */
  readonly firstMs?: number;
  readonly now?: () => number;
}

export type LoadAndRun = { readonly ok: true; readonly build: SessionBuild } | { readonly ok: false; readonly errors: readonly string[] };

/** Opens `file` with its run computed as it is read; undefined when the file is to be loaded the usual way. */
export async function loadAndRun(file: string, options: LoadAndRunOptions = {}): Promise<LoadAndRun | undefined> {
  const read = await readScenarioFile(file);
  if (!read.ok) return { ok: false, errors: read.diagnostics.map(formatDiagnostic) };
  const now = options.now ?? (() => performance.now());
  let total: number | undefined;
  // The reader tells its total (when it knows it) with every event; the count is kept here.
  const stream = streamScenarioText(file, read.text, { progress: (_done, t) => void (total = t) });
  if (stream === undefined) return undefined;
  const events: ScenarioEvent[] = [];
  const scenario = { ...stream.head, events };
  let readDone = false;
  let replayed = false;
  let restart: string | undefined;
  /** When the first event came: the rate is measured from it (what comes before it is not events). */
  let started: number | undefined;
  /** Pulls events until `until` (at least CLOCK_EVERY of them); false when the reader gave up. */
  const pull = (until: number): boolean => {
    try {
      for (;;) {
        const next = stream.events.next();
        if (next.done === true) {
          readDone = true;
          break;
        }
        if (next.value.file !== undefined) replayed = true;
        started ??= now();
        events.push(next.value);
        if (events.length % CLOCK_EVERY === 0 && now() >= until) break;
      }
    } catch (error) {
      if (!(error instanceof NotStreamed)) throw error;
      restart = error.reason;
      return false;
    }
    return true;
  };
  // The first events before there is a session: a file refused this early is loaded the usual way.
  if (!pull(now() + (options.firstMs ?? 0) / 2)) return undefined;
  const s = startSession(scenario, read.text, readDone ? events.length : (total ?? Infinity));
  if (!s.ok) return s;
  const inner = s.build;
  const views = sessionViews(inner.session);
  const readSession = { ...inner.session, replayed: true };
  const progress = (p: BuildProgress = inner.progress()): BuildProgress => {
    if (restart !== undefined) return { ...p, done: false, restart };
    if (!readDone) {
      const wall = started === undefined ? 0 : now() - started;
      const reading = { done: events.length, ...(total !== undefined ? { total } : {}), rate: wall > 0 ? (events.length * 1000) / wall : 0 };
      return { ...p, done: false, reading };
    }
    // Once read to the end: what the session learnt on the way (told with every report after).
    return replayed ? { ...p, session: readSession } : p;
  };
  const advance = (budgetMs: number): BuildProgress => {
    const end = now() + budgetMs;
    let p: BuildProgress;
    for (;;) {
      if (!readDone && restart === undefined) {
        const t = now();
        if (!pull(t + Math.max(0, (end - t) / 2))) return progress();
        // The status line's clock is a fold over the events: folded here, as they are read, a
        // key to a far step (`G` while reading) does not fold the hundreds of thousands read
        // since the last key (1-11 ms of a key's time at 1M events, docs/decisions.md).
        for (const v of views) procTimeAt(v.timeline, v.info.dateMs, events.length);
      }
      // At least half the budget for the run, even after a read that overran its half: the run
      // sizes its pieces by the budget, and a budget near 0 would shrink them to nothing.
      p = inner.advance(Math.max(budgetMs / 2, end - now()));
      if (p.error !== undefined || now() >= end || (readDone && p.done)) break;
    }
    return progress(p);
  };
  const first = advance(Math.max(0, (options.firstMs ?? 0) / 2));
  if (first.restart !== undefined) return undefined;
  return { ok: true, build: { session: inner.session, advance, progress: () => progress() } };
}
