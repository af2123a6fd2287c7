/**
 * The terminal around the app. Ink 6.8 has no alternate-screen option, so we write ESC[?1049h/l
 * ourselves and restore on every way out (normal exit, Ctrl-C, an exception, SIGTERM/SIGHUP).
 * Height is not state in Ink, hence the resize hook.
 */
import { writeSync } from 'node:fs';
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

const ENTER = '\x1b[?1049h\x1b[H';
const LEAVE = '\x1b[?1049l\x1b[?25h';

export interface AltScreen {
  /** Leaves the alternate screen; safe to call more than once. */
  leave(): void;
}

export function enterAltScreen(fd = 1): AltScreen {
  let active = true;
  const leave = (): void => {
    if (!active) return;
    active = false;
    try {
      writeSync(fd, LEAVE);
    } catch {
      // The terminal is gone (SIGHUP): there is nothing left to restore.
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    leave();
    // Ink never unmounts on a signal: give the terminal back its line discipline too.
    if (process.stdin.isTTY === true) process.stdin.setRawMode(false);
    process.exit(signal === 'SIGTERM' ? 143 : signal === 'SIGINT' ? 130 : 129);
  };
  writeSync(fd, ENTER);
  process.once('exit', leave);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  // Ctrl-C typed in the app is a key (raw mode); a SIGINT sent from elsewhere ends it like SIGTERM.
  process.once('SIGINT', onSignal);
  return {
    leave(): void {
      leave();
      process.off('exit', leave);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
      process.off('SIGINT', onSignal);
    },
  };
}

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/** The terminal size, updated on resize. ink-testing-library's stdout has no `rows`: default 24. */
export function useTerminalSize(fallback: TerminalSize = { columns: 80, rows: 24 }): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || fallback.columns, rows: stdout.rows || fallback.rows });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
