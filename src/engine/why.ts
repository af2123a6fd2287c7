/**
 * Whys in bulk runs: a run without traces (`Collector.tracing` false) keeps only each
 * emitted row's rule, so that a million-event run builds no text. The full reason is rebuilt on
 * demand by replaying the row's step with tracing on (Timeline.whyOf / changelogRange).
 */
import { RuleTable } from './rule-table.js';
import type { Collector, Why } from './types.js';

const BULK = new RuleTable<Why>((rule) => Object.freeze({ rule, text: '' }));

/** The shared, text-free Why of a rule (one frozen object per rule). */
export function bulkWhy(rule: string): Why {
  return BULK.get(rule);
}

/** A Why whose text and rows are built only when the collector keeps them. */
export function whyOf(out: Collector, rule: string, text: () => string, rows?: () => readonly string[]): Why {
  if (!out.tracing) return bulkWhy(rule);
  return rows === undefined ? { rule, text: text() } : { rule, text: text(), rows: rows() };
}

/** A bulk Why carries no text: its full form must be rebuilt by a traced replay. */
export function isBulkWhy(w: Why): boolean {
  return BULK.peek(w.rule) === w;
}
