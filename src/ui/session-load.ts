/** Loading a scenario file into a Session (loader + engine), with errors as printable text. */
import { runtimeFailure } from '../cli/runtime-error.js';
import { createTimeline } from '../engine/timeline.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { readFile } from 'node:fs/promises';
import type { Progress } from '../cli/progress.js';
import { loadScenarioFile, loadScenarioText } from '../scenario/load.js';
import type { Scenario } from '../scenario/types.js';
import { type Session, sessionInfo } from './session.js';

export type SessionResult = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly errors: readonly string[] };

/** `progress`: a progress function per query for the first run (shown while a long one computes). */
export function sessionFromScenario(scenario: Scenario, text?: string, progress?: (query: string) => ((done: number, total: number) => void) | undefined): SessionResult {
  try {
    const views = scenario.queries.map((q, i) => ({ name: q.name, info: sessionInfo(scenario, i), timeline: createTimeline(scenario, i, progress?.(q.name)) }));
    const first = views[0];
    if (first === undefined) throw new Error('[ui] scenario has no query');
    const many = views.length > 1 ? { views, follow: 0 } : {};
    // What-if edits splice events into the file by their index in `events:`; replayed events are not there.
    const replayed = scenario.events.some((e) => e.file !== undefined);
    // The text stays for runs under another version (`V`), which load it as the file would be.
    const edit = { ...(replayed ? { replayed: true } : {}), ...(text !== undefined ? { text } : {}) };
    return { ok: true, session: { info: first.info, timeline: first.timeline, ...many, ...edit, scenario } };
  } catch (error) {
    const d = runtimeFailure(scenario, error);
    if (d === undefined) throw error;
    return { ok: false, errors: [formatDiagnostic(d)] };
  }
}

/** Loads and runs `file`; with `progress`, a long load or run shows progress on stderr. */
export async function loadSession(file: string, progress?: Progress): Promise<SessionResult> {
  const r = await loadScenarioFile(file, progress === undefined ? {} : { progress: progress.stage('loading', 'events read') });
  progress?.done();
  if (!r.ok) return { ok: false, errors: r.diagnostics.map(formatDiagnostic) };
  // The text what-if edits splice into; read again (the loader keeps only the parsed scenario).
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const many = r.scenario.queries.length > 1;
  const session = sessionFromScenario(r.scenario, text, progress === undefined ? undefined : (q) => progress.stage(many ? `running ${q}` : 'running', 'events'));
  progress?.done();
  return session;
}

/** A session from edited file text (synchronous: the reducer re-runs a what-if edit with it). */
export function sessionFromText(file: string, text: string): SessionResult {
  const r = loadScenarioText(file, text);
  if (!r.ok) return { ok: false, errors: r.diagnostics.map(formatDiagnostic) };
  return sessionFromScenario(r.scenario, text);
}

/** Name and description for the picker, or the first error. */
export async function describeFile(file: string): Promise<{ file: string; name: string; description?: string; error?: string }> {
  const r = await loadScenarioFile(file);
  if (r.ok) return { file, name: r.scenario.name, ...(r.scenario.description ? { description: r.scenario.description } : {}) };
  const first = r.diagnostics[0];
  return { file, name: r.name ?? file, error: first === undefined ? 'cannot be loaded' : formatDiagnostic(first) };
}
