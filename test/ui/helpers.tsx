/**
 * ink-testing-library under React's act(): every render, key and unmount is awaited inside act,
 * so frames are deterministic (stack-spike §1: timer-based waits failed 2 of ~110 runs).
 */
import { render as inkRender } from 'ink-testing-library';
import { act, type ReactElement } from 'react';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export type Rendered = ReturnType<typeof inkRender>;

export async function render(el: ReactElement, size?: { columns: number; rows: number }): Promise<Rendered> {
  let r: Rendered | undefined;
  await act(async () => {
    r = inkRender(el);
    if (size !== undefined) setSize(r, size);
  });
  return r!;
}

function setSize(r: Rendered, size: { columns: number; rows: number }): void {
  Object.defineProperty(r.stdout, 'columns', { value: size.columns, configurable: true });
  Object.defineProperty(r.stdout, 'rows', { value: size.rows, configurable: true });
  r.stdout.emit('resize');
}

export async function resize(r: Rendered, size: { columns: number; rows: number }): Promise<void> {
  await act(async () => setSize(r, size));
}

/** One key per write: a multi-character chunk reaches useInput as one string (a paste). */
export async function press(r: Rendered, ...keys: string[]): Promise<void> {
  for (const k of keys) await act(async () => void r.stdin.write(k));
}

export async function unmount(r: Rendered): Promise<void> {
  await act(async () => r.unmount());
}

export const KEY = {
  right: '\u001b[C',
  left: '\u001b[D',
  up: '\u001b[A',
  down: '\u001b[B',
  pageUp: '\u001b[5~',
  pageDown: '\u001b[6~',
  enter: '\r',
  tab: '\t',
  shiftTab: '\u001b[Z',
  esc: '\u001b',
  backspace: '\u007f',
  space: ' ',
  ctrlC: '\u0003',
} as const;

export function frame(r: Rendered): string {
  return r.lastFrame() ?? '';
}

/** Lets the event loop turn (the run's slices, Ink's frames) until the frame shows what is asked. */
export async function until(r: Rendered, ok: (text: string) => boolean): Promise<string> {
  for (let turn = 0; turn < 20_000; turn++) {
    const text = frame(r);
    if (ok(text)) return text;
    await act(async () => new Promise<void>((resolve) => setImmediate(resolve)));
  }
  throw new Error(`the frame never showed what was expected; last frame:\n${frame(r)}`);
}
