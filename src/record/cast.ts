/**
 * asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line, then one
 * JSON array per event: `[seconds, "o", data]` output and `[seconds, "m", label]` markers.
 * Everything here is a pure function of the recording, so the same run gives the same bytes.
 */
import type { Recording } from './drive.js';

const HIDE_CURSOR = '\u001b[?25l';
const CLEAR = '\u001b[2J';
const HOME = '\u001b[H';
const ERASE_LINE = '\u001b[K';
const ERASE_BELOW = '\u001b[J';

export interface CastOptions {
  readonly columns: number;
  readonly rows: number;
  readonly title: string;
  /** How long the last frame stays up before the recording ends. */
  readonly holdMs: number;
}

/** One frame as terminal output: home, each line erased to its end, CRLF between lines. */
export function frameOutput(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  return HOME + lines.map((l) => l + ERASE_LINE).join('\r\n') + ERASE_BELOW;
}

const seconds = (ms: number): number => Math.round(ms) / 1000;

export function toAsciicast(rec: Recording, o: CastOptions): string {
  const header = {
    version: 2,
    width: o.columns,
    height: o.rows,
    // Fixed, so that two recordings of the same scenario are byte-identical.
    timestamp: 0,
    env: { TERM: 'xterm-256color', SHELL: '/bin/sh' },
    title: o.title,
  };
  type Ev = [number, 'o' | 'm', string];
  const events: Ev[] = [];
  rec.frames.forEach((f, i) => {
    events.push([seconds(f.ms), 'o', (i === 0 ? HIDE_CURSOR + CLEAR : '') + frameOutput(f.text)]);
    for (const m of rec.markers) if (m.ms === f.ms) events.push([seconds(m.ms), 'm', m.label]);
  });
  // A marker whose frame did not change (a key that redrew nothing new) still gets its event.
  for (const m of rec.markers) {
    if (!rec.frames.some((f) => f.ms === m.ms)) events.push([seconds(m.ms), 'm', m.label]);
  }
  events.sort((a, b) => a[0] - b[0]);
  const last = events[events.length - 1]?.[0] ?? 0;
  events.push([Math.max(last, seconds(rec.endMs + o.holdMs)), 'o', '']);
  return [JSON.stringify(header), ...events.map((e) => JSON.stringify(e))].join('\n') + '\n';
}

/** ANSI escape sequences (CSI and OSC) removed: the plain text a golden file compares. */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '').replace(/\u001b\][^\u0007]*(\u0007|\u001b\\)/g, '');
}

/** The plain-text frames of a recording, each under `--- frame N (step S) ---`. */
export function framesText(rec: Recording): string {
  return rec.frames
    .map((f, i) => `--- frame ${i + 1} (step ${f.step}) ---\n${stripAnsi(f.text).replace(/[ \t]+$/gm, '').replace(/\n+$/, '')}\n`)
    .join('');
}
