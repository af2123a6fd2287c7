/**
 * Robustness bugs found by these fuzzers in modules this suite may not edit (src/scenario,
 * src/planner, src/engine, src/cli, src/ui). They are reported to their owners with a minimal
 * input; until fixed, a violation matching one of these patterns is tolerated so that the suite
 * keeps guarding everything else. Delete an entry once its bug is fixed: the fuzzers then check
 * that case again.
 */
export interface KnownIssue {
  readonly id: string;
  readonly owner: string;
  /** Matches the violation text produced by check.ts. */
  readonly pattern: RegExp;
  /** A minimal scenario that shows it. */
  readonly repro: string;
}

// All three issues found so far are fixed (clock-text-nan, raw-control-characters,
// huge-partitions); their regression tests are in loader-fixes.test.ts.
export const KNOWN_ISSUES: readonly KnownIssue[] = [];

export function isKnownIssue(problem: string): boolean {
  return KNOWN_ISSUES.some((k) => k.pattern.test(problem));
}
