/**
 * A fake terminal for the recorder: a stdout of fixed columns/rows that keeps every frame Ink
 * writes, and a TTY stdin (raw mode "supported", so the app's useInput is active) that hands Ink
 * one key at a time.
 */
import { EventEmitter } from 'node:events';

export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  writes = 0;
  last = '';

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }

  /**
   * Every write is one whole frame (the app's own, or Ink's in debug mode). Ink's empty output
   * while the app draws itself is not a frame.
   */
  write = (data: string): boolean => {
    if (data === '') return true;
    this.writes++;
    this.last = data;
    return true;
  };
}

export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;

  press(bytes: string): void {
    this.data = bytes;
    this.emit('readable');
  }

  read = (): string | null => {
    const d = this.data;
    this.data = null;
    return d;
  };

  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}
