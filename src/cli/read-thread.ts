/**
 * A streamed run in two threads: a worker reads and checks the file's events (the streaming
 * load, load.ts streamScenarioText) while the main thread runs them. On a big file the reading
 * is about a third of the work, so with two cores it overlaps the engine's run instead of
 * preceding each event; its garbage is collected in the worker's heap, not the run's.
 *
 * The worker hands the events over in compact batches (event-batches.ts) through a message
 * port; the main thread takes a waiting batch synchronously (`receiveMessageOnPort`) and awaits
 * only when none is there. At most IN_FLIGHT batches wait unread: a worker faster than the run
 * does not buffer the file (it waits on a shared counter of the batches read). A waiting worker
 * is woken once the run has read half of them, not after every batch: each wake-up is a futex
 * call and a thread switch on a core the run needs (docs/decisions.md, issue 16).
 *
 * The worker runs the same stream as one thread would and stops at the same places: a
 * NotStreamed there is one here (the caller then loads the file the full way and reports what
 * it always did), and any other error is rethrown here as the internal error it is.
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamScenarioText } from '../scenario/load.js';
import type { LoadOptions } from '../scenario/load.js';
import { NotStreamed } from '../scenario/not-streamed.js';
import { DataCut } from '../scenario/data-cut.js';
import type { ScenarioEvent } from '../scenario/types.js';
import { EventBatchReader, EventBatchWriter } from './event-batches.js';
import type { EventBatch } from './event-batches.js';

/** Events per batch: large enough that a message costs little per event, small enough to start the run early. */
const BATCH = 2048;
/** Batches posted and not yet read, at most. */
const IN_FLIGHT = 16;
/** A full worker sleeps until this few batches are left unread. */
const RESUME_AT = IN_FLIGHT / 2;
/**
 * Below this much input (the scenario and its replayed data files), starting a thread costs more
 * than it saves: the worker loads the bundle and plans the head again (about 0.3 s of CPU on the
 * shared machine), and at 100k events (4-6 MB) paired runs were slower with it.
 */
export const READ_THREAD_MIN_BYTES = 16 << 20;

/**
 * The shared counters: batches posted, batches read, the reader's "stop", and the count of
 * batches read at which a sleeping worker wants its wake-up (-1: it is not sleeping).
 */
const POSTED = 0;
const READ = 1;
const STOP = 2;
const WAKE_AT = 3;

/** What the worker is started with. */
export interface ReadThreadData {
  readonly readThread: true;
  readonly file: string;
  readonly text: string;
  readonly flinkVersion?: LoadOptions['flinkVersion'];
  readonly port: MessagePort;
  readonly control: SharedArrayBuffer;
}

type Message = { batch: EventBatch } | { end: 'done' } | { end: 'not-streamed'; reason: string } | { end: 'error'; message: string };

/**
 * Whether the input is big enough for a read thread: JOINSTEP_READ_THREAD=1 or 0 forces it (for
 * tests and paired measurements); else the scenario text and the data files its `file:` and
 * `replay:` entries name, summed (a rough count: a name it cannot find adds nothing, and a wrong
 * guess costs only speed).
 */
export function wantsReadThread(file: string, text: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const forced = env['JOINSTEP_READ_THREAD'];
  if (forced === '1') return true;
  if (forced === '0') return false;
  let bytes = text.length;
  if (bytes >= READ_THREAD_MIN_BYTES) return true;
  const dir = dirname(file);
  for (const m of text.matchAll(/\b(?:file|replay):\s*["']?([^"'\s,}\[]+)/g)) {
    try {
      bytes += statSync(resolve(dir, m[1]!)).size;
    } catch {
      // Not a file here: the load reports it, on whichever thread.
    }
    if (bytes >= READ_THREAD_MIN_BYTES) return true;
  }
  return false;
}

/** A started read thread: `each` takes its events (once); `stop` ends it unread. */
export interface ReadThread {
  /**
   * Calls `f` with each event. With `own` (the same events, read by this thread: the caller's
   * own stream of the same file, or their first ones, ended by DataCut), the events come from
   * `own` until the worker's first message is there or `own` is cut, and from the worker's
   * batches after the ones `own` gave: this thread runs events while the worker starts instead
   * of waiting for it.
   */
  each(f: (ev: ScenarioEvent) => void, own?: Iterator<ScenarioEvent, void>): Promise<void>;
  /** Whether the worker has posted its first message (what `each` looks at to hand over). */
  posted(): boolean;
  stop(): void;
}

/** Events read from the caller's own stream between two looks at the worker's counter. */
const OWN_POLL = 64;

/**
 * The bytes of each JSON Lines data file the caller's own stream reads (LoadOptions.dataHead):
 * that stream runs only the events before the worker's first batch (about 10k of a 1M-event
 * file, docs/decisions.md), so reading and decoding the whole file (40 MB, about 0.1 s and as
 * much fresh memory) on the thread the run waits on bought nothing. 4 MB is about 100k rows.
 */
export const OWN_DATA_HEAD = 4 << 20;

/**
 * The events of `file` read in a worker started from `entry` (the bundle's own file, which
 * calls readThreadMain when it starts as this worker), handed to `each` batch by batch. Read
 * to the end, they are the events streamScenarioText gives; it throws NotStreamed where that
 * throws it. Waiting for a batch is an `await`, so that the worker's exit or error is seen.
 * The worker starts now: its start-up overlaps the caller's own work until `each`.
 */
export function startReadThread(entry: string, file: string, text: string, options: LoadOptions): ReadThread {
  const { port1, port2 } = new MessageChannel();
  const control = new SharedArrayBuffer(4 * 4);
  const counters = new Int32Array(control);
  counters[WAKE_AT] = -1;
  const data: ReadThreadData = { readThread: true, file, text, ...(options.flinkVersion === undefined ? {} : { flinkVersion: options.flinkVersion }), port: port2, control };
  const worker = new Worker(fileURLToPath(entry), { workerData: data, transferList: [port2], stdout: false, stderr: false });
  let failure: Message | undefined;
  worker.on('error', (error: unknown) => void (failure ??= { end: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
  worker.on('exit', (code) => void (failure ??= { end: 'error', message: `the read thread ended (exit code ${code}) before its last batch` }));
  const next = (): Message | Promise<Message> => {
    const received = receiveMessageOnPort(port1);
    if (received !== undefined) return received.message as Message;
    if (failure !== undefined) return failure;
    return new Promise<Message>((resolve) => {
      const done = (msg: Message): void => {
        port1.off('message', done);
        worker.off('exit', exited);
        worker.off('error', exited);
        resolve(msg);
      };
      // The error and exit listeners above have run first and set `failure`; a batch or the
      // end posted before the exit may still wait in the port, and comes first.
      const exited = (): void => {
        const left = receiveMessageOnPort(port1);
        done(left !== undefined ? (left.message as Message) : failure!);
      };
      port1.on('message', done);
      worker.once('exit', exited);
      worker.once('error', exited);
    });
  };
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    Atomics.store(counters, STOP, 1);
    Atomics.notify(counters, READ);
    port1.close();
    void worker.terminate();
  };
  const eachEvent = async (each: (ev: ScenarioEvent) => void, own?: Iterator<ScenarioEvent, void>): Promise<void> => {
    const reader = new EventBatchReader();
    const progress = options.progress;
    let count = 0;
    try {
      // The worker's events that `own` has already given: decoded past, not run again.
      let skip = 0;
      if (own !== undefined) {
        for (;;) {
          if (skip % OWN_POLL === 0 && Atomics.load(counters, POSTED) > 0) break;
          let r: IteratorResult<ScenarioEvent, void>;
          try {
            r = own.next();
          } catch (error) {
            // `own` read only the head of a data file (OWN_DATA_HEAD): the worker's events go on.
            if (error instanceof DataCut) break;
            throw error;
          }
          if (r.done === true) return;
          each(r.value);
          if (progress !== undefined) progress(++count);
          skip++;
        }
        own.return?.();
      }
      for (;;) {
        const msg = await next();
        if ('end' in msg) {
          if (msg.end === 'done') return;
          if (msg.end === 'not-streamed') throw new NotStreamed(msg.reason);
          throw new Error(`the read thread failed: ${msg.message}`);
        }
        // The worker stored WAKE_AT before it last looked at READ: if this add came after that
        // look, this load sees it; if before, the worker saw this count and did not sleep.
        if (Atomics.add(counters, READ, 1) + 1 === Atomics.load(counters, WAKE_AT)) Atomics.notify(counters, READ);
        reader.each(msg.batch, progress === undefined ? each : (ev) => (each(ev), progress(++count)), skip);
        skip = Math.max(0, skip - msg.batch.count);
      }
    } finally {
      stop();
    }
  };
  return { each: eachEvent, posted: () => Atomics.load(counters, POSTED) > 0, stop };
}

/** The worker's side: streams the events and posts them in batches; the bundle's entry calls it. */
export function readThreadMain(data: ReadThreadData): void {
  const { port, file, text } = data;
  const counters = new Int32Array(data.control);
  const post = (msg: Message, transfer: ArrayBuffer[] = []): void => {
    port.postMessage(msg, transfer);
    Atomics.add(counters, POSTED, 1);
  };
  try {
    const stream = streamScenarioText(file, text, data.flinkVersion === undefined ? {} : { flinkVersion: data.flinkVersion });
    if (stream === undefined) {
      post({ end: 'not-streamed', reason: 'the head has a problem' });
      return;
    }
    const writer = new EventBatchWriter();
    const flush = (): boolean => {
      // When the run is IN_FLIGHT batches behind, sleep until it is RESUME_AT behind (or says
      // stop). Only this thread adds to POSTED, so the wake-up count is fixed while it sleeps.
      const posted = Atomics.load(counters, POSTED);
      if (posted - Atomics.load(counters, READ) >= IN_FLIGHT) {
        const wakeAt = posted - RESUME_AT;
        Atomics.store(counters, WAKE_AT, wakeAt);
        for (;;) {
          if (Atomics.load(counters, STOP) !== 0) return false;
          const read = Atomics.load(counters, READ);
          if (read >= wakeAt) break;
          // Returns at once if READ is no longer `read`; the run notifies when it reaches wakeAt.
          Atomics.wait(counters, READ, read);
        }
        Atomics.store(counters, WAKE_AT, -1);
      }
      const batch = writer.take();
      post({ batch }, [batch.ints.buffer as ArrayBuffer, batch.tags.buffer as ArrayBuffer, batch.nums.buffer as ArrayBuffer, batch.strLengths.buffer as ArrayBuffer]);
      return true;
    };
    for (const ev of stream.events) {
      writer.push(ev);
      if (writer.count === BATCH && !flush()) return;
    }
    if (writer.count > 0 && !flush()) return;
    post({ end: 'done' });
  } catch (error) {
    if (error instanceof NotStreamed) post({ end: 'not-streamed', reason: error.reason });
    else post({ end: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
