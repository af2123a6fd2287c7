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

  /** In Ink's debug mode every write is one whole frame. */
  write = (data: string): boolean => {
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
