/**
 * The alternate screen, entered and left by us (Ink 6.8 has no option for it), restored on every
 * way out: normal exit, an exception, SIGTERM/SIGHUP/SIGINT. Free of Ink and React, so that the
 * first frame can be drawn before they are loaded (prepaint.ts).
 */
import { writeSync } from 'node:fs';

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

