/**
 * For read-thread.test.ts: reads a scenario's events through the read thread (read-thread.ts),
 * with this file as the worker (through read-thread-entry.mjs, which registers tsx there),
 * and prints them as JSON, or `{"notStreamed": reason}`.
 */
import { readFileSync } from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import { eachReadThreadEvent, readThreadMain, type ReadThreadData } from '../../src/cli/read-thread.js';
import { NotStreamed } from '../../src/scenario/not-streamed.js';

if (!isMainThread) readThreadMain(workerData as ReadThreadData);
else {
  const file = process.argv[2]!;
  const events: unknown[] = [];
  try {
    await eachReadThreadEvent(new URL('./read-thread-entry.mjs', import.meta.url).href, file, readFileSync(file, 'utf8'), {}, (ev) => events.push(ev));
    process.stdout.write(JSON.stringify({ events }));
  } catch (error) {
    if (!(error instanceof NotStreamed)) throw error;
    process.stdout.write(JSON.stringify({ notStreamed: error.reason }));
  }
}
