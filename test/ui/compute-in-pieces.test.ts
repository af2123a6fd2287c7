/**
 * The run's slices and the keys: a key read while a slice runs (the poll phase after it) is
 * drawn by React from a setImmediate queued then; the next slice must not run before it.
 */
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { computeInPieces } from '../../src/ui/compute-in-pieces.js';

describe('computeInPieces', () => {
  it('lets work queued while a slice runs go before the next slice', async () => {
    const log: string[] = [];
    const { port1, port2 } = new MessageChannel();
    // A message posted during a slice is delivered in the next poll phase, as a key read from a
    // terminal is; its handler queues the "render" as React's scheduler does.
    port2.on('message', () => setImmediate(() => log.push('render')));
    let slices = 0;
    const total = 6;
    const done = new Promise<void>((resolve) => {
      computeInPieces(
        {
          advance: () => {
            slices++;
            log.push(`slice ${slices}`);
            if (slices === 2 || slices === 4) port1.postMessage('key');
            // Long enough for the message to be waiting when the slice ends.
            const end = performance.now() + 5;
            while (performance.now() < end);
            return { ready: slices, total, done: slices >= total };
          },
          progress: () => ({ ready: slices, total, done: slices >= total }),
        },
        (p) => (p.done ? resolve() : undefined),
      );
    });
    await done;
    port1.close();
    expect(log).toEqual(['slice 1', 'slice 2', 'render', 'slice 3', 'slice 4', 'render', 'slice 5', 'slice 6']);
  });

  it('asks for each slice\'s budget when given a function', async () => {
    const budgets: number[] = [];
    let short = false;
    const total = 4;
    await new Promise<void>((resolve) => {
      computeInPieces(
        {
          advance: (ms) => {
            budgets.push(ms);
            short = true;
            return { ready: budgets.length, total, done: budgets.length >= total };
          },
          progress: () => ({ ready: budgets.length, total, done: budgets.length >= total }),
        },
        (p) => (p.done ? resolve() : undefined),
        { sliceMs: () => (short ? 2 : 8) },
      );
    });
    expect(budgets).toEqual([8, 2, 2, 2]);
  });
});
