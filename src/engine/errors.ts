/**
 * Runtime failures while stepping. A failure Flink would also raise (division by zero, a failed
 * CAST: `SqlRuntimeError` from src/values) is tagged with the index of the event being applied,
 * which the CLI turns into a `FILE:LINE:COL: error:` at that event (src/cli/runtime-error.ts).
 */

/** Tags a user-level runtime error with the event index; rethrows everything else unchanged. */
export function tagRuntimeError(error: unknown, eventIndex: number): unknown {
  if (error instanceof Error && (error.name === 'SqlRuntimeError' || error.name === 'EngineRuntimeError')) {
    const e = error as Error & { eventIndex?: number };
    if (e.eventIndex === undefined) e.eventIndex = eventIndex;
  }
  return error;
}
