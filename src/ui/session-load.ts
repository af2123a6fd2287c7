/** Loading a scenario file into a Session (loader + engine), with errors as printable text. */
import { runtimeFailure } from '../cli/runtime-error.js';
import { createTimeline } from '../engine/timeline.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { readFile } from 'node:fs/promises';
import { loadScenarioFile, loadScenarioText } from '../scenario/load.js';
import type { Scenario } from '../scenario/types.js';
import { type Session, sessionInfo } from './session.js';

export type SessionResult = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly errors: readonly string[] };

export function sessionFromScenario(scenario: Scenario, text?: string): SessionResult {
  try {
    const views = scenario.queries.map((q, i) => ({ name: q.name, info: sessionInfo(scenario, i), timeline: createTimeline(scenario, i) }));
    const first = views[0];
    if (first === undefined) throw new Error('[ui] scenario has no query');
    const many = views.length > 1 ? { views, follow: 0 } : {};
    return { ok: true, session: { info: first.info, timeline: first.timeline, ...many, ...(text !== undefined ? { text } : {}), scenario } };
  } catch (error) {
    const d = runtimeFailure(scenario, error);
    if (d === undefined) throw error;
    return { ok: false, errors: [formatDiagnostic(d)] };
  }
}

export async function loadSession(file: string): Promise<SessionResult> {
  const r = await loadScenarioFile(file);
  if (!r.ok) return { ok: false, errors: r.diagnostics.map(formatDiagnostic) };
  // The text what-if edits splice into; read again (the loader keeps only the parsed scenario).
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return sessionFromScenario(r.scenario, text);
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
