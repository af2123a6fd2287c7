/**
 * `run` and `test` on a scenario whose events are never all alive at once: the loader streams
 * them (load.ts, streamScenarioText) and each event goes straight into the runs of the queries
 * asked for (engine RunFeed), then is dropped. A million events from a file then cost the
 * engine's state and the changelog, not a million event objects with rows and positions.
 *
 * It is an optimistic path: where the streamed events would not be the full load's (a problem
 * to report, a replay file out of time order, a line outside the fast reader) or a run fails at
 * runtime, it gives up (undefined) and the caller loads and runs the file the full way, which
 * reports exactly what it always did. The output of a streamed run is the full run's, because
 * the events are the same list in the same order and both go through RunFeed.
 */
import { createOperator } from '../engine/joins/registry.js';
import { RunFeed } from '../engine/run-core.js';
import type { RunOutput } from '../engine/run-core.js';
import { streamScenarioText } from '../scenario/load.js';
import type { LoadOptions } from '../scenario/load.js';
import { NotStreamed } from '../scenario/not-streamed.js';
import type { Scenario } from '../scenario/types.js';
import { OWN_DATA_HEAD, startReadThread, wantsReadThread } from './read-thread.js';

export interface StreamedRun {
  /** The scenario without its events (`events: []`). */
  readonly head: Scenario;
  /** Per query index picked, its run's output. */
  readonly outputs: ReadonlyMap<number, RunOutput>;
}

/**
 * Streams `text` into runs of the queries `pick` chooses from the loaded head (none: nothing
 * to stream, undefined: do not stream). Undefined when the file must be loaded the full way.
 */
export function runStreamed(file: string, text: string, pick: (head: Scenario) => readonly number[] | undefined, options: LoadOptions = {}): StreamedRun | undefined {
  const stream = streamScenarioText(file, text, options);
  if (stream === undefined) return undefined;
  const picked = pick(stream.head);
  if (picked === undefined) return undefined;
  const feeds = picked.map((index) => new RunFeed(stream.head, index, createOperator));
  try {
    for (const ev of stream.events) for (let q = 0; q < feeds.length; q++) feeds[q]!.push(ev);
  } catch (error) {
    // The full load reports the problem; the full run, the runtime error with its event's place.
    if (error instanceof NotStreamed || isRuntimeError(error)) return undefined;
    throw error;
  }
  return { head: stream.head, outputs: new Map(picked.map((index, q) => [index, feeds[q]!.finish()])) };
}

/**
 * runStreamed, with a big input's events read in a second thread (read-thread.ts) started from
 * `entry`, the bundle's own file; a small input, or no entry (the bench's in-process case), runs
 * in this thread. The same events go into the same feeds, so the output is runStreamed's.
 */
export async function runStreamedThreaded(file: string, text: string, pick: (head: Scenario) => readonly number[] | undefined, options: LoadOptions = {}, entry?: string): Promise<StreamedRun | undefined> {
  if (entry === undefined || !wantsReadThread(file, text)) return runStreamed(file, text, pick, options);
  // The worker first, so that its start-up (loading the bundle, its own head) overlaps ours.
  const thread = startReadThread(entry, file, text, options);
  try {
    // Only the first events are run from this stream: it reads the head of each data file.
    const stream = streamScenarioText(file, text, { ...options, progress: undefined, dataHead: OWN_DATA_HEAD });
    if (stream === undefined) return undefined;
    const picked = pick(stream.head);
    if (picked === undefined) return undefined;
    const feeds = picked.map((index) => new RunFeed(stream.head, index, createOperator));
    try {
      // This thread's own stream runs the first events, while the worker starts.
      await thread.each((ev) => {
        for (let q = 0; q < feeds.length; q++) feeds[q]!.push(ev);
      }, stream.events);
    } catch (error) {
      if (error instanceof NotStreamed || isRuntimeError(error)) return undefined;
      throw error;
    }
    return { head: stream.head, outputs: new Map(picked.map((index, q) => [index, feeds[q]!.finish()])) };
  } finally {
    thread.stop();
  }
}

function isRuntimeError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'SqlRuntimeError' || error.name === 'EngineRuntimeError');
}
