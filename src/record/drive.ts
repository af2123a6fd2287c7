/**
 * Drives the REAL app (the same `Root` that `startApp` renders) in a fake terminal, one key at a
 * time, and collects each frame with a deterministic time: key k lands at k × pace plus the
 * pauses before it. Nothing sleeps on the wall clock: after each key the event loop is turned
 * until Ink has written no new frame for a few turns (React runs passive effects and Ink flushes
 * a pending ESC on setImmediate) and no scenario load is in flight.
 *
 * The step shown is tracked by running the app's own pure reducer beside it on the same keys,
 * which is how markers know which step a frame shows.
 */
import chalk from 'chalk';
import { render } from 'ink';
import { createElement } from 'react';
import { hasDeferred } from '../ui/panes/index.js';
import { Root } from '../ui/Root.js';
import { reduce } from '../ui/reducer.js';
import type { SessionResult } from '../ui/session-load.js';
import type { Session } from '../ui/session.js';
import type { FrameSink } from '../ui/terminal-output.js';
import { initialState, type UiState } from '../ui/state.js';
import { eventText } from '../ui/text.js';
import { printable } from '../values/printable.js';
import { FakeStdin, FakeStdout } from './fake-tty.js';
import type { ScriptItem } from './keys.js';

export interface DriveOptions {
  readonly file: string;
  readonly session: Session;
  readonly items: readonly ScriptItem[];
  readonly columns: number;
  readonly rows: number;
  readonly paceMs: number;
  readonly mono: boolean;
  /** Loads the file again (the `r` key). */
  readonly open: (file: string) => Promise<SessionResult>;
}

export interface RecordedFrame {
  readonly ms: number;
  /** The frame exactly as Ink wrote it (with SGR colours). */
  readonly text: string;
  readonly step: number;
  /** Key presses sent before this frame (0 = the first frame). */
  readonly keys: number;
}

export interface RecordedMarker {
  readonly ms: number;
  readonly step: number;
  /** `step 3/6: ` then the step's note, else its event as the timeline pane shows it; `(back)` after the count when the change went back. */
  readonly label: string;
}

export interface Recording {
  readonly frames: RecordedFrame[];
  readonly markers: RecordedMarker[];
  /** Time of the end of the script (after a trailing pause). */
  readonly endMs: number;
  readonly finalState: UiState;
}

const QUIET_TURNS = 5;
/** Effects a recording lets the app run: anything else (saving an edit) would touch files. */
const ALLOWED_EFFECTS: ReadonlySet<string> = new Set(['quit', 'reload']);
const MAX_TURNS = 20_000;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class RecordError extends Error {}

export async function drive(o: DriveOptions): Promise<Recording> {
  const stdout = new FakeStdout(o.columns, o.rows);
  const stdin = new FakeStdin();
  let pending = 0;
  let mirror = initialState(o.session, { mono: o.mono, columns: o.columns, rows: o.rows });
  const open = async (file: string): Promise<SessionResult> => {
    pending++;
    try {
      const r = await o.open(file);
      // The app applies the reload when it lands; so does the mirror.
      mirror = reduce(mirror, r.ok ? { t: 'reloaded', session: r.session } : { t: 'reloadFailed', message: r.errors[0] ?? '' });
      return r;
    } finally {
      pending--;
    }
  };
  const settle = async (): Promise<void> => {
    let quiet = 0;
    let seen = stdout.writes;
    for (let i = 0; i < MAX_TURNS; i++) {
      await turn();
      if (stdout.writes !== seen || pending > 0) {
        seen = stdout.writes;
        quiet = 0;
      } else if (++quiet >= QUIET_TURNS) return;
    }
    throw new RecordError('the app never settled (it kept redrawing)');
  };
  // A pane whose engine query once ran slow (a busy machine, a big run) waits for the keys to
  // pause (App's SETTLE_MS timer): only then is the frame final, so wait for that redraw too.
  const settleDeferred = async (): Promise<void> => {
    await settle();
    for (let i = 0; i < 100 && hasDeferred(mirror); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      await settle();
    }
  };

  // Colours must not depend on where the recorder runs (a pipe, CI): pin chalk's level.
  const level = chalk.level;
  chalk.level = 3;
  // The app draws its own frames, as startApp runs it; here each frame is one whole write.
  const output: FrameSink = { draw: (rows) => void stdout.write(rows.join('\n')) };
  const root = createElement(Root, { entries: [], session: o.session, file: o.file, mono: o.mono, open, output });
  // debug: Ink writes unthrottled, so no frame depends on timing (its own output is empty).
  const app = render(root, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: new FakeStdout(o.columns, o.rows) as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  let exited = false;
  void app.waitUntilExit().then(() => (exited = true), () => (exited = true));
  const frames: RecordedFrame[] = [];
  const markers: RecordedMarker[] = [];
  // Every step change gets its marker, revisits too: a viewer jumps to each moment the step moved.
  let markedStep = mirror.step;
  let ms = 0;
  let keys = 0;
  const capture = (): void => {
    const prev = frames[frames.length - 1];
    if (prev === undefined || prev.text !== stdout.last) frames.push({ ms, text: stdout.last, step: mirror.step, keys });
    if (mirror.step !== markedStep) {
      markers.push({ ms, step: mirror.step, label: stepLabel(mirror, mirror.step < markedStep) });
      markedStep = mirror.step;
    }
  };
  try {
    await settleDeferred();
    capture();
    for (const item of o.items) {
      if (item.kind === 'wait') {
        ms += item.ms;
        continue;
      }
      if (exited) break;
      keys++;
      ms += o.paceMs;
      const before = mirror.effect?.id;
      mirror = reduce(mirror, { t: 'key', key: item.name });
      const effect: string | undefined = mirror.effect?.id !== before ? mirror.effect?.kind : undefined;
      if (effect !== undefined && !ALLOWED_EFFECTS.has(effect)) {
        throw new RecordError(`key ${keys} ('${item.name}') asks the app to ${effect}; a recording never changes files`);
      }
      if (mirror.playing) {
        throw new RecordError(`key ${keys} ('${item.name}') starts play, which runs on a wall-clock timer; a recording steps by hand: use 'n wait:1s n ...' instead`);
      }
      stdin.press(item.bytes);
      await settleDeferred();
      capture();
    }
  } finally {
    if (!exited) app.unmount();
    chalk.level = level;
  }
  return { frames, markers, endMs: ms, finalState: mirror };
}

function stepLabel(s: UiState, back: boolean): string {
  const ev = s.session.timeline.events[s.step - 1];
  const head = `step ${s.step}/${s.session.timeline.length}${back ? ' (back)' : ''}`;
  // The label is shown by players as text: a control character in a note must not act on the viewer's terminal.
  return ev === undefined ? head : `${head}: ${printable(ev.note ?? eventText(ev, s.session.info))}`;
}
