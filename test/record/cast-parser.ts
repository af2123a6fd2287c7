/**
 * A small, strict asciicast v2 reader for the tests: every line must be JSON, the header must
 * have the v2 fields, every event must be [number, "o"|"m"|"i"|"r", string], times must never
 * go down.
 */
export interface CastHeader {
  readonly version: number;
  readonly width: number;
  readonly height: number;
  readonly timestamp?: number;
  readonly env?: Record<string, string>;
  readonly title?: string;
}

export type CastEvent = readonly [number, 'o' | 'm' | 'i' | 'r', string];

export interface Cast {
  readonly header: CastHeader;
  readonly events: readonly CastEvent[];
}

export function parseCast(text: string): Cast {
  if (!text.endsWith('\n')) throw new Error('the file does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  const header = JSON.parse(lines[0] ?? '') as CastHeader;
  if (header.version !== 2) throw new Error(`version ${String(header.version)} is not 2`);
  for (const k of ['width', 'height'] as const) {
    if (!Number.isInteger(header[k]) || header[k] <= 0) throw new Error(`header ${k} is not a positive integer`);
  }
  const events: CastEvent[] = [];
  let last = 0;
  lines.slice(1).forEach((line, i) => {
    const ev = JSON.parse(line) as unknown;
    if (!Array.isArray(ev) || ev.length !== 3) throw new Error(`line ${i + 2}: not a 3-element array`);
    const [t, code, data] = ev as [unknown, unknown, unknown];
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) throw new Error(`line ${i + 2}: bad time`);
    if (code !== 'o' && code !== 'm' && code !== 'i' && code !== 'r') throw new Error(`line ${i + 2}: bad event code`);
    if (typeof data !== 'string') throw new Error(`line ${i + 2}: data is not a string`);
    if (t < last) throw new Error(`line ${i + 2}: time ${t} goes back from ${last}`);
    last = t;
    events.push([t, code, data]);
  });
  return { header, events };
}

/** ESC sequences removed. */
export function plain(text: string): string {
  return text.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '');
}

/** Every step number the output frames show in the status line (`step N/M`). */
export function stepsShown(cast: Cast): Set<number> {
  const steps = new Set<number>();
  for (const [, code, data] of cast.events) {
    const m = code === 'o' ? /step (\d+)\/\d+/.exec(plain(data)) : null;
    if (m !== null) steps.add(Number(m[1]));
  }
  return steps;
}

/** The step each output frame shows, in order, kept only where it differs from the one before (the first frame's step is the start, not a change). */
export function stepChanges(cast: Cast): number[] {
  const changes: number[] = [];
  let current: number | undefined;
  for (const [, code, data] of cast.events) {
    const m = code === 'o' ? /step (\d+)\/\d+/.exec(plain(data)) : null;
    if (m === null) continue;
    const step = Number(m[1]);
    if (current !== undefined && step !== current) changes.push(step);
    current = step;
  }
  return changes;
}
