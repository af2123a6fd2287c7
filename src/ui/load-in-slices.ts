/**
 * Loads a scenario file for the app without holding the event loop: the events are pulled from
 * the streamed reader (load.ts `streamScenarioText`) for about SLICE_MS at a time, then
 * `setImmediate`, so that between slices keys are read and progress frames drawn, as the run
 * itself is computed (compute-in-pieces.ts). Only what comes before the first event (reading the
 * file, cutting the events block, the YAML head and the SQL) runs in one go.
 *
 * A file the streamed reader does not take to its end (a problem in it, a replayed data file out
 * of time order) is loaded the full way instead, synchronously, so that its diagnostics are
 * exactly the loader's: `blocking` is then told every event, as the loader's own progress.
 */
import { loadScenarioText, readScenarioFile, streamScenarioText } from '../scenario/load.js';
import { NotStreamed } from '../scenario/not-streamed.js';
import type { LoadResult, ScenarioEvent } from '../scenario/types.js';
import { SLICE_MS } from './compute-in-pieces.js';

export interface LoadProgress {
  /** Events read so far. */
  readonly done: number;
  /** Events in all, when the reader knows it (inline events); absent for replayed files. */
  readonly total?: number;
}

export interface SliceOptions {
  /** Told after every slice where the load stands. */
  readonly report?: (p: LoadProgress) => void;
  /** The full load's per-event progress, for a file loaded the full way (synchronously). */
  readonly blocking?: (done: number, total?: number) => void;
  /** Stops the load between two slices (the promise then resolves to undefined). */
  readonly signal?: AbortSignal;
  readonly sliceMs?: number;
  readonly now?: () => number;
}

/** The loaded scenario (or its diagnostics) and the file's text; undefined when stopped. */
export type SlicedLoad = { readonly result: LoadResult; readonly text?: string };

/** Events pulled between two looks at the clock. */
const CLOCK_EVERY = 256;

export async function loadInSlices(file: string, options: SliceOptions = {}): Promise<SlicedLoad | undefined> {
  const read = await readScenarioFile(file);
  if (!read.ok) return { result: read };
  if (options.signal?.aborted === true) return undefined;
  const text = read.text;
  const now = options.now ?? (() => performance.now());
  const sliceMs = options.sliceMs ?? SLICE_MS;
  let total: number | undefined;
  // The reader tells its total (when it knows it) with every event; the count is kept here.
  const stream = streamScenarioText(file, text, { progress: (_done, t) => void (total = t) });
  const full = (): SlicedLoad => ({ result: loadScenarioText(file, text, options.blocking === undefined ? {} : { progress: options.blocking }), text });
  if (stream === undefined) return full();
  const events: ScenarioEvent[] = [];
  return new Promise<SlicedLoad | undefined>((resolve, reject) => {
    const slice = (): void => {
      if (options.signal?.aborted === true) return resolve(undefined);
      const end = now() + sliceMs;
      try {
        for (;;) {
          const next = stream.events.next();
          if (next.done === true) {
            resolve({ result: { ok: true, scenario: { ...stream.head, events } }, text });
            return;
          }
          events.push(next.value);
          if (events.length % CLOCK_EVERY === 0 && now() >= end) break;
        }
      } catch (error) {
        if (!(error instanceof NotStreamed)) return reject(error);
        events.length = 0;
        return resolve(full());
      }
      options.report?.({ done: events.length, ...(total !== undefined ? { total } : {}) });
      setImmediate(slice);
    };
    setImmediate(slice);
  });
}
