/**
 * A failure while running a scenario that Flink would also raise at runtime (division by zero, a
 * failed CAST): reported like any user mistake, at the event that caused it. Anything else is a bug.
 */
import type { Diagnostic, Scenario } from '../scenario/types.js';

interface RuntimeFailure {
  readonly message: string;
  /** Index into scenario.events of the event being applied. */
  readonly eventIndex?: number;
  readonly hint?: string;
}

function isRuntimeFailure(error: unknown): error is Error & RuntimeFailure {
  return error instanceof Error && (error.name === 'SqlRuntimeError' || error.name === 'EngineRuntimeError');
}

export function runtimeFailure(scenario: Scenario, error: unknown): Diagnostic | undefined {
  if (!isRuntimeFailure(error)) return undefined;
  const event = error.eventIndex === undefined ? undefined : scenario.events[error.eventIndex];
  const pos = event?.pos ?? { line: 1, col: 1 };
  return {
    file: event?.file ?? scenario.file,
    line: pos.line,
    col: pos.col,
    message: error.message,
    hint: error.hint ?? 'Flink would fail the job at this row; change the row or guard the expression (e.g. NULLIF, TRY_CAST)',
  };
}
