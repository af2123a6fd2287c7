/** One recording: load the scenario, pick the key script, drive the app, render the outputs. */
import { loadScenarioFile } from '../scenario/load.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { printable } from '../values/printable.js';
import { loadSession, sessionFromScenario } from '../ui/session-load.js';
import { toAsciicast, framesText } from './cast.js';
import { drive, RecordError, type Recording } from './drive.js';
import { defaultKeyScript, parseKeyScript } from './keys.js';

export interface RecordOptions {
  readonly file: string;
  /** The key script; absent = the scenario's `demo:`, else one `n` per event. */
  readonly keys?: string;
  readonly columns: number;
  readonly rows: number;
  readonly paceMs: number;
  readonly mono?: boolean;
}

export type RecordResult =
  | { readonly ok: true; readonly cast: string; readonly frames: string; readonly title: string; readonly recording: Recording }
  | { readonly ok: false; readonly errors: readonly string[] };

export async function recordScenario(o: RecordOptions): Promise<RecordResult> {
  const loaded = await loadScenarioFile(o.file);
  if (!loaded.ok) return { ok: false, errors: loaded.diagnostics.map(formatDiagnostic) };
  const scenario = loaded.scenario;
  const s = sessionFromScenario(scenario);
  if (!s.ok) return s;
  const script = o.keys ?? scenario.demo ?? defaultKeyScript(s.session.timeline.length);
  const parsed = parseKeyScript(script);
  if (!parsed.ok) return { ok: false, errors: [`joinstep: bad key script: ${parsed.message}`] };
  let recording: Recording;
  try {
    recording = await drive({
      file: o.file,
      session: s.session,
      items: parsed.items,
      columns: o.columns,
      rows: o.rows,
      paceMs: o.paceMs,
      mono: o.mono === true,
      open: loadSession,
    });
  } catch (error) {
    // A script the recorder cannot replay is the user's to fix, not a crash.
    if (error instanceof RecordError) return { ok: false, errors: [`joinstep: ${error.message}`] };
    throw error;
  }
  // Players show the title as text, and an SVG may not hold control characters: escaped.
  const title = printable(scenario.name);
  const cast = toAsciicast(recording, { columns: o.columns, rows: o.rows, title, holdMs: o.paceMs * 3 });
  return { ok: true, cast, frames: framesText(recording), title, recording };
}
