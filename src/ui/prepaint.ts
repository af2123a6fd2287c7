/**
 * The first frame, drawn before Ink and React are loaded (about 190 ms of a cold start): the
 * alternate screen is entered and the opened scenario's first frame written with the same pure
 * functions the app draws with (screenLayout, frameText), to the same TerminalOutput the app then
 * keeps using, so the app's own first frame rewrites no row. Raw mode goes on at once so that keys
 * typed meanwhile wait for the app instead of being echoed over the frame.
 */
import { enterAltScreen, type AltScreen } from './alt-screen.js';
import { frameText } from './ansi.js';
import { screenLayout } from './screen.js';
import type { Session } from './session.js';
import type { BuildProgress } from './session-load.js';
import { initialState } from './state.js';
import { TerminalOutput } from './terminal-output.js';
import { makeTheme } from './theme.js';

export interface Prepainted {
  readonly screen: AltScreen;
  readonly output: TerminalOutput;
}

/**
 * `entered`: the screen a long load already entered (loading-screen.ts), drawn over; `build`:
 * where the session's run stands when it is still computed (or read).
 */
export function prepaint(session: Session, mono: boolean, entered?: Prepainted, build?: BuildProgress): Prepainted {
  const screen = entered?.screen ?? enterAltScreen();
  if (entered === undefined && process.stdin.isTTY === true) process.stdin.setRawMode(true);
  const output = entered?.output ?? new TerminalOutput(process.stdout);
  const columns = process.stdout.columns || 80;
  const rows = process.stdout.rows || 24;
  // The app's first render: the initial state, not yet settled (slow panes wait for a pause).
  const state = { ...initialState(session, { mono, columns, rows, ...(build !== undefined ? { build } : {}) }), settled: false };
  const text = frameText(screenLayout(state, columns, rows), makeTheme(mono));
  output.draw(text.rows, text.widths, columns);
  return { screen, output };
}
