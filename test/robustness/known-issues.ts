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

export const KNOWN_ISSUES: readonly KnownIssue[] = [
  {
    id: 'clock-text-nan',
    owner: 'src/scenario/clock-text.ts',
    // `new Date(ms)` is Invalid Date beyond ±8.64e15 ms, which the time literals accept
    pattern: /message leaks "NaN": .*processing time cannot go back from .*NaN/,
    repro: [
      'name: r',
      'sql: |',
      "  CREATE TABLE a (k STRING) WITH ('connector' = 'kafka');",
      "  CREATE TABLE b (k STRING) WITH ('connector' = 'kafka');",
      '  SELECT a.k FROM a JOIN b ON a.k = b.k;',
      'events:',
      '  - { at: 9007199254740991, note: far future }',
      '  - { at: "10:00", note: back }',
      '',
    ].join('\n'),
  },
  {
    id: 'raw-control-characters',
    owner: 'src/scenario (diagnostic.ts / context.ts report), src/planner',
    // the loader quotes keys, table names and values raw; src/values and src/sql escape their own
    pattern: /^(?![^\n]*(?:is not a (?:time|valid|duration|TIMESTAMP)|Cannot cast|time.zone|too long a duration|whole number of milli))[^\n]*message holds a raw invisible character/,
    repro: ['name: r', 'sql: |', "  CREATE TABLE a (k STRING) WITH ('connector' = 'kafka');", "  CREATE TABLE b (k STRING) WITH ('connector' = 'kafka');",
      '  SELECT a.k FROM a JOIN b ON a.k = b.k;', 'events:', '  - { to: "a\\e[2J", row: { k: x } }', ''].join('\n'),
  },
  {
    id: 'huge-partitions',
    owner: 'src/scenario/top-level.ts (no upper bound), src/engine (valve: O(P²) per all-partition event)',
    // not a pattern: check.ts does not run scenarios with more than 1000 partitions
    pattern: /$^/,
    repro: ['name: r', 'partitions: { a: 2147483648 }', 'sql: |', "  CREATE TABLE a (k STRING) WITH ('connector' = 'kafka');",
      "  CREATE TABLE b (k STRING) WITH ('connector' = 'kafka');", '  SELECT a.k FROM a JOIN b ON a.k = b.k;', 'events:',
      '  - { to: a, row: { k: x } }', ''].join('\n'),
  },
];

export function isKnownIssue(problem: string): boolean {
  return KNOWN_ISSUES.some((k) => k.pattern.test(problem));
}
