/** Loading a scenario file into a Session (loader + engine), with errors as printable text. */
import { runtimeFailure } from '../cli/runtime-error.js';
import { createTimeline } from '../engine/timeline.js';
import { formatDiagnostic } from '../scenario/diagnostic.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { Scenario } from '../scenario/types.js';
import { type Session, sessionInfo } from './session.js';

export type SessionResult = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly errors: readonly string[] };

export function sessionFromScenario(scenario: Scenario): SessionResult {
  try {
    return { ok: true, session: { info: sessionInfo(scenario), timeline: createTimeline(scenario) } };
  } catch (error) {
    const d = runtimeFailure(scenario, error);
    if (d === undefined) throw error;
    return { ok: false, errors: [formatDiagnostic(d)] };
  }
}

export async function loadSession(file: string): Promise<SessionResult> {
  const r = await loadScenarioFile(file);
  if (!r.ok) return { ok: false, errors: r.diagnostics.map(formatDiagnostic) };
  return sessionFromScenario(r.scenario);
}

/** Name and description for the picker, or the first error. */
export async function describeFile(file: string): Promise<{ file: string; name: string; description?: string; error?: string }> {
  const r = await loadScenarioFile(file);
  if (r.ok) return { file, name: r.scenario.name, ...(r.scenario.description ? { description: r.scenario.description } : {}) };
  const first = r.diagnostics[0];
  return { file, name: r.name ?? file, error: first === undefined ? 'cannot be loaded' : formatDiagnostic(first) };
}
