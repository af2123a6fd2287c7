/**
 * For read-thread.test.ts: reads a scenario's events through the read thread (read-thread.ts),
 * with this file as the worker (through read-thread-entry.mjs, which registers tsx there),
 * and prints them as JSON, or `{"notStreamed": reason}`.
 *
 * With a second argument K, this thread's own stream of the file gives the first events and
 * waits after its Kth until the worker's first batch is there (however long a loaded machine
 * takes to start the worker), so that the hand-over comes at the next look after event K; `own` in the output counts the events the own stream gave. A third
 * argument H reads only the first H bytes of each JSON Lines data file in the own stream
 * (LoadOptions.dataHead), as `run` does: the hand-over then comes where that head ends.
 */
import { readFileSync } from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import { startReadThread, readThreadMain, type ReadThreadData } from '../../src/cli/read-thread.js';
import { streamScenarioText } from '../../src/scenario/load.js';
import { NotStreamed } from '../../src/scenario/not-streamed.js';
import type { ScenarioEvent } from '../../src/scenario/types.js';

if (!isMainThread) readThreadMain(workerData as ReadThreadData);
else {
  const file = process.argv[2]!;
  const pauseAfter = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
  const dataHead = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
  const text = readFileSync(file, 'utf8');
  const events: unknown[] = [];
  let own = 0;
  try {
    const thread = startReadThread(new URL('./read-thread-entry.mjs', import.meta.url).href, file, text, {});
    let ownEvents: Iterator<ScenarioEvent, void> | undefined;
    if (pauseAfter !== undefined) {
      const stream = streamScenarioText(file, text, dataHead === undefined ? {} : { dataHead })!;
      const sleeper = new Int32Array(new SharedArrayBuffer(4));
      ownEvents = {
        next: () => {
          const r = stream.events.next();
          if (r.done !== true && ++own === pauseAfter) {
            for (let waited = 0; !thread.posted() && waited < 120_000; waited += 10) Atomics.wait(sleeper, 0, 0, 10);
          }
          return r;
        },
        return: () => stream.events.return(),
      };
    }
    await thread.each((ev) => events.push(ev), ownEvents);
    process.stdout.write(JSON.stringify({ events, ...(pauseAfter === undefined ? {} : { own }) }));
  } catch (error) {
    if (!(error instanceof NotStreamed)) throw error;
    process.stdout.write(JSON.stringify({ notStreamed: error.reason }));
  }
}
